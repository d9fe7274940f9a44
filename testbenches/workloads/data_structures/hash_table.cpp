// Hash table (paper Table 6: 1K elements, 100% lookup): per unit an array of
// buckets with one lock per bucket, each bucket a sorted chain of nodes, as
// ASCYLIB's lock-based hash tables with per-bucket locks. Every operation
// takes its bucket's lock, walks the chain and decides under it, so it is
// logged exactly there.
//
// Partitioning: the table of a unit (buckets, nodes, bucket locks) lives in
// that unit's memory; an operation goes to its key's partition and then to
// bucket key mod B, where B is the partition's initial size (load factor 1:
// one bucket per initial element, at least one bucket). Cost of one
// operation that passes m chain nodes (m < 1 on average at load factor 1):
// 2 + 2m loads (bucket lock handle, chain head; per node passed its key and
// next), 1 more for the key of the node it stops at, and 2 synchronization
// requests; an insert adds 3 stores, a remove 1 load and 1 store.
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "testbenches/workloads/data_structures/data_structures.h"
#include "testbenches/workloads/data_structures/ds_workload.h"
#include "testbenches/workloads/data_structures/node_pool.h"
#include "testbenches/workloads/data_structures/set_log.h"

namespace syncron {
namespace {

constexpr unsigned kWord = 8;
// Bucket: lock (the bucket's syncronVar handle), head of the chain.
constexpr uint64_t kBucketLock = 0, kBucketHead = 8, kBucketBytes = 16;
// Node: key, next.
constexpr uint64_t kKey = 0, kNext = 8, kNodeBytes = 16;

class HashTable final : public DataStructureWorkload {
public:
    using DataStructureWorkload::DataStructureWorkload;

protected:
    uint64_t bytes_per_element() const override {
        // a node, and at load factor 1 a bucket and its lock (a syncronVar takes a line)
        return kNodeBytes + kBucketBytes + 64;
    }
    void build(Driver& d) override {
        m_buckets.assign(units(), 0);
        m_bucket_count.assign(units(), 0);
        m_pool.assign(units(), NodePool{});
        const std::vector<uint64_t> keys = initial_keys();
        std::vector<std::vector<uint64_t>> initial(units());
        for (uint64_t k : keys) initial[partition_of(k)].push_back(k);
        for (unsigned p = 0; p < units(); ++p) {
            const uint64_t buckets = std::max<uint64_t>(1, initial[p].size());
            m_bucket_count[p] = buckets;
            m_pool[p].reserve(d, p, initial[p].size() + max_inserts(), kNodeBytes, "workload hash_table");
            try {
                m_buckets[p] = d.allocate(p, buckets * kBucketBytes, Sharing::shared);
            } catch (const std::exception& e) {
                throw std::invalid_argument("workload hash_table: " + std::to_string(buckets) +
                                            " buckets do not fit in unit " + std::to_string(p) + "'s memory (" +
                                            e.what() + "); use a smaller workload.elements");
            }
            std::vector<uint64_t> last(buckets, 0); // chain tails while building
            for (uint64_t b = 0; b < buckets; ++b)
                d.write(bucket(p, b) + kBucketLock, create_lock(d, p, "bucket locks"), kWord);
            for (uint64_t k : initial[p]) { // ascending, so every chain is sorted
                const uint64_t b = bucket_of(p, k);
                const uint64_t node = m_pool[p].take();
                d.write(node + kKey, k, kWord);
                d.write(last[b] ? last[b] + kNext : bucket(p, b) + kBucketHead, node, kWord);
                last[b] = node;
            }
        }
        m_log.start(std::set<uint64_t>(keys.begin(), keys.end()));
    }

    bool execute(CoreApi& c, Op op, uint64_t key) override {
        const unsigned p = partition_of(key);
        const unsigned me = c.global_id();
        const uint64_t b = bucket(p, bucket_of(p, key));
        const SyncVar lock = c.load(b + kBucketLock, kWord);
        c.lock_acquire(lock);
        // `link` is the word that points at `node`: the bucket's head or the
        // previous node's next.
        uint64_t link = b + kBucketHead;
        uint64_t node = c.load(link, kWord);
        uint64_t node_key = 0;
        while (node != 0) {
            node_key = c.load(node + kKey, kWord);
            if (node_key >= key) break;
            link = node + kNext;
            node = c.load(link, kWord);
        }
        const bool found = node != 0 && node_key == key;
        bool ok = found;
        switch (op) {
        case Op::lookup: m_log.lookup(me, key, found, m_log.now()); break;
        case Op::insert:
            ok = !found;
            if (ok) {
                const uint64_t fresh = m_pool[p].take();
                c.store(fresh + kKey, key, kWord);
                c.store(fresh + kNext, node, kWord);
                c.store(link, fresh, kWord);
            }
            m_log.insert(me, key, ok);
            break;
        case Op::remove:
            if (found) c.store(link, c.load(node + kNext, kWord), kWord);
            m_log.remove(me, key, found);
            break;
        }
        work_inside(c, op, ok);
        c.lock_release(lock);
        return ok;
    }

    // The cited code's work per operation besides loads and stores,
    // {outside, inside} its locks (workload.op_work=measured): ASCYLIB
    // 3c2d1a2 `src/hashtable-coupling` built G=GL, gcc -O2, callgrind, 1K elements; docs/workloads.md.
    MeasuredWork measured_work() const override {
        MeasuredWork w;
        w.lookup_hit = {15, 8};
        w.lookup_miss = {15, 9};
        w.insert_ok = {22, 23};
        w.insert_fail = {22, 12};
        w.remove_ok = {18, 13};
        w.remove_fail = {17, 12};
        return w;
    }

    void verify(Driver& d, CheckResult& r) override { read_back(d, r); }

private:
    void read_back(Driver& d, CheckResult& r) {
        std::set<uint64_t> in_memory;
        for (unsigned p = 0; p < units(); ++p) {
            const uint64_t limit = m_pool[p].used();
            uint64_t visited = 0;
            for (uint64_t b = 0; b < m_bucket_count[p]; ++b) {
                const std::string where =
                    "hash_table: partition " + std::to_string(p) + ", bucket " + std::to_string(b);
                uint64_t prev_key = 0;
                for (uint64_t node = d.read(bucket(p, b) + kBucketHead, kWord); node != 0;
                     node = d.read(node + kNext, kWord)) {
                    if (++visited > limit) {
                        r.fail(where + ": the partition's chains hold more nodes than were ever allocated (a cycle)");
                        return;
                    }
                    const uint64_t k = d.read(node + kKey, kWord);
                    if (k <= prev_key) {
                        r.fail(where + ": key " + std::to_string(k) + " follows key " + std::to_string(prev_key) +
                               " (not strictly ascending)");
                        return;
                    }
                    if (k == 0 || k > key_range() || partition_of(k) != p || bucket_of(p, k) != b) {
                        r.fail(where + " holds key " + std::to_string(k) + ", which does not hash to it");
                        return;
                    }
                    prev_key = k;
                    in_memory.insert(k);
                }
            }
        }
        m_log.check("hash_table", in_memory, r);
    }

    uint64_t bucket_of(unsigned p, uint64_t key) const { return key % m_bucket_count[p]; }
    uint64_t bucket(unsigned p, uint64_t index) const { return m_buckets[p] + index * kBucketBytes; }

    std::vector<uint64_t> m_buckets, m_bucket_count; // per partition: immutable handles
    std::vector<NodePool> m_pool;
    SetLog m_log;
};

} // namespace

std::unique_ptr<Workload> make_hash_table(const WorkloadParams& p) { return std::make_unique<HashTable>(p); }

} // namespace syncron
