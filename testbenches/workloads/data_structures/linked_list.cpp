// Linked list (paper Table 6: 20K elements, 100% lookup): a sorted singly
// linked list per unit with a head and a tail sentinel and one lock per node,
// traversed hand-over-hand (lock coupling: lock the next node, then release
// the previous one) by every operation, lookups included, as ASCYLIB's
// ll-coupling (the classic lock-coupling list, e.g. Herlihy and Shavit, "The
// Art of Multiprocessor Programming", fine-grained list). Locking lookups
// are what the paper describes: the linked list and BST_FG "exhibit low
// contention and high synchronization demand, as each core requests multiple
// locks concurrently", and they alone overflow a 64-entry ST at 60 cores,
// which lock-free lookups would not do.
//
// Partitioning: the list of a unit lives in that unit's memory with its node
// locks homed there; an operation goes to its key's partition. Every
// operation holds the locks of the two nodes around its key when it decides,
// so it is logged exactly at that point. Cost of one operation that stops at
// the i-th node of its partition (i ~ size/2 for a random key): 1 + 3i loads
// (head lock; per node next, lock handle, key) and 2i + 2 synchronization
// requests; an insert adds 4 stores, a remove 1 load and 1 store.
#include <limits>
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
// Node: key, next, lock (the node's syncronVar handle).
constexpr uint64_t kKey = 0, kNext = 8, kLock = 16, kNodeBytes = 24;
constexpr uint64_t kTailKey = std::numeric_limits<uint64_t>::max(); // above every key; the head's key is 0

class LinkedList final : public DataStructureWorkload {
public:
    using DataStructureWorkload::DataStructureWorkload;

protected:
    uint64_t bytes_per_element() const override {
        // the node and its lock (a syncronVar takes a line)
        return kNodeBytes + 64;
    }
    void build(Driver& d) override {
        m_head.assign(units(), 0);
        m_tail.assign(units(), 0);
        m_pool.assign(units(), NodePool{});
        m_spare_locks.assign(units(), {});
        m_spare_used.assign(units(), 0);
        const std::vector<uint64_t> keys = initial_keys();
        std::vector<std::vector<uint64_t>> initial(units());
        for (uint64_t k : keys) initial[partition_of(k)].push_back(k);
        for (unsigned p = 0; p < units(); ++p) {
            m_pool[p].reserve(d, p, initial[p].size() + 2 + max_inserts(), kNodeBytes, "workload linked_list");
            // Nodes inserted during the run take their lock from here
            // (create_syncvar is a driver call, not a core's).
            for (uint64_t i = 0; i < max_inserts(); ++i) m_spare_locks[p].push_back(create_lock(d, p, "node locks"));
            const auto make = [&](uint64_t key) {
                const uint64_t node = m_pool[p].take();
                d.write(node + kKey, key, kWord);
                d.write(node + kLock, create_lock(d, p, "node locks"), kWord);
                return node;
            };
            m_head[p] = make(0);
            uint64_t last = m_head[p];
            for (uint64_t k : initial[p]) { // ascending
                const uint64_t node = make(k);
                d.write(last + kNext, node, kWord);
                last = node;
            }
            m_tail[p] = make(kTailKey);
            d.write(last + kNext, m_tail[p], kWord);
        }
        m_log.start(std::set<uint64_t>(keys.begin(), keys.end()));
    }

    bool execute(CoreApi& c, Op op, uint64_t key) override {
        const unsigned p = partition_of(key);
        const unsigned me = c.global_id();
        // Lock coupling: hold pred, lock curr, and only then let pred go.
        // workload.op_work=measured: ASCYLIB's list executes its inside work
        // per lock it takes (the same for either outcome of an operation).
        const unsigned per_lock = op_work() ? measured_work().of(op, true).per_lock : 0;
        uint64_t pred = m_head[p];
        SyncVar pred_lock = c.load(pred + kLock, kWord);
        c.lock_acquire(pred_lock);
        charge(c, per_lock);
        uint64_t curr = c.load(pred + kNext, kWord);
        SyncVar curr_lock = c.load(curr + kLock, kWord);
        c.lock_acquire(curr_lock);
        charge(c, per_lock);
        uint64_t curr_key = c.load(curr + kKey, kWord);
        while (curr_key < key) { // the tail's key stops every search
            c.lock_release(pred_lock);
            pred = curr;
            pred_lock = curr_lock;
            curr = c.load(pred + kNext, kWord);
            curr_lock = c.load(curr + kLock, kWord);
            c.lock_acquire(curr_lock);
            charge(c, per_lock);
            curr_key = c.load(curr + kKey, kWord);
        }
        // pred < key <= curr, both locked: the answer cannot change until
        // they are released, so this is the linearization point.
        const bool found = curr_key == key;
        bool ok = found;
        switch (op) {
        case Op::lookup: m_log.lookup(me, key, found, m_log.now()); break;
        case Op::insert:
            ok = !found;
            if (ok) {
                const uint64_t node = m_pool[p].take();
                c.store(node + kKey, key, kWord);
                c.store(node + kNext, curr, kWord);
                c.store(node + kLock, take_spare_lock(p), kWord);
                c.store(pred + kNext, node, kWord); // publishes it
            }
            m_log.insert(me, key, ok);
            break;
        case Op::remove:
            if (found) c.store(pred + kNext, c.load(curr + kNext, kWord), kWord);
            m_log.remove(me, key, found);
            break;
        }
        c.lock_release(curr_lock);
        c.lock_release(pred_lock);
        return ok;
    }

    // The cited code's work per operation besides loads and stores,
    // {outside, inside, inside per lock taken} (workload.op_work=measured):
    // ASCYLIB 3c2d1a2 `src/linkedlist-coupling`, gcc -O2, callgrind, 20K
    // elements; docs/workloads.md. Its inside work is all per lock (execute).
    MeasuredWork measured_work() const override {
        MeasuredWork w;
        w.lookup_hit = {6, 0, 3};
        w.lookup_miss = {23, 0, 3};
        w.insert_ok = {45, 0, 4};
        w.insert_fail = {12, 0, 4};
        w.remove_ok = {10, 0, 4};
        w.remove_fail = {37, 0, 4};
        return w;
    }

    void verify(Driver& d, CheckResult& r) override { read_back(d, r); }

private:
    void read_back(Driver& d, CheckResult& r) {
        std::set<uint64_t> in_memory;
        for (unsigned p = 0; p < units(); ++p) {
            const std::string where = "linked_list: partition " + std::to_string(p);
            const uint64_t limit = m_pool[p].used();
            uint64_t prev_key = 0, visited = 0;
            uint64_t node = d.read(m_head[p] + kNext, kWord);
            for (; node != m_tail[p]; node = d.read(node + kNext, kWord)) {
                if (node == 0) {
                    r.fail(where + ": the list ends (null next) before its tail sentinel");
                    return;
                }
                if (++visited > limit) {
                    r.fail(where + " is longer than the nodes ever allocated (a cycle)");
                    return;
                }
                const uint64_t k = d.read(node + kKey, kWord);
                if (k <= prev_key) {
                    r.fail(where + ": key " + std::to_string(k) + " follows key " + std::to_string(prev_key) +
                           " (not strictly ascending)");
                    return;
                }
                if (k > key_range() || partition_of(k) != p) {
                    r.fail(where + " holds key " + std::to_string(k) + ", which belongs to no key range of it");
                    return;
                }
                prev_key = k;
                in_memory.insert(k);
            }
        }
        m_log.check("linked_list", in_memory, r);
    }

    SyncVar take_spare_lock(unsigned p) { return m_spare_locks[p].at(m_spare_used[p]++); }

    std::vector<uint64_t> m_head, m_tail;
    std::vector<NodePool> m_pool;
    std::vector<std::vector<SyncVar>> m_spare_locks;
    std::vector<uint64_t> m_spare_used;
    SetLog m_log;
};

} // namespace

std::unique_ptr<Workload> make_linked_list(const WorkloadParams& p) { return std::make_unique<LinkedList>(p); }

} // namespace syncron
