// Priority queue (paper Table 6: 20K elements, 100% deleteMin): per unit, an
// array-based binary min-heap (the textbook heap of Cormen, Leiserson, Rivest
// and Stein, "Introduction to Algorithms", ch. 6) with its size word, behind
// one coarse-grained lock. Slot i's children are 2i+1 and 2i+2. An insert
// sifts up from a hole at the end; a deleteMin takes the root, moves the last
// element to the root and sifts it down (each level loads both children and
// moves the smaller up; the moved element is stored once, where it stops).
// The heap of a unit (size, slots) lives in that unit's memory and its lock is
// homed there; an operation goes to the heap of its key's partition, so
// 1/units of them are local. The key of an insert is its priority; a
// deleteMin ignores its key except to choose the partition. Per deleteMin of
// a heap of n elements: about 3 + 2 log2(n) loads, 2 + log2(n) stores, 2
// synchronization requests; per insert that climbs k levels: 2 + k loads (1
// + k at the root), 2 + k stores; per peek: 2 loads (docs/workloads.md).
#include <optional>
#include <stdexcept>

#include "testbenches/workloads/data_structures/data_structures.h"
#include "testbenches/workloads/data_structures/ds_workload.h"
#include "testbenches/workloads/data_structures/sequence_log.h"

namespace syncron {
namespace {

constexpr unsigned kWord = 8;
// Partition: size, then the heap's slots (one priority each).
constexpr uint64_t kSize = 0, kSlots = 8;

class PriorityQueue final : public DataStructureWorkload {
public:
    using DataStructureWorkload::DataStructureWorkload;

protected:
    uint64_t bytes_per_element() const override { return kWord; }
    void build(Driver& d) override {
        m_heap.assign(units(), 0);
        m_lock.assign(units(), 0);
        m_capacity.assign(units(), 0);
        m_overfull = 0;
        const std::vector<uint64_t> keys = initial_keys();
        std::vector<std::vector<uint64_t>> initial(units());
        for (uint64_t k : keys) initial[partition_of(k)].push_back(k);
        for (unsigned p = 0; p < units(); ++p) {
            m_capacity[p] = initial[p].size() + max_inserts();
            m_heap[p] = allocate_heap(d, p, m_capacity[p]);
            m_lock[p] = d.create_syncvar(p);
            // The keys come ascending, and a sorted array is a min-heap.
            for (uint64_t i = 0; i < initial[p].size(); ++i) d.write(slot(p, i), initial[p][i], kWord);
            d.write(m_heap[p] + kSize, initial[p].size(), kWord);
        }
        m_log.start(SequenceLog::Discipline::min_first, std::move(initial));
    }

    bool execute(CoreApi& c, Op op, uint64_t key) override {
        const unsigned p = partition_of(key);
        const unsigned me = c.global_id();
        c.lock_acquire(m_lock[p]);
        const uint64_t n = c.load(m_heap[p] + kSize, kWord);
        bool ok = true;
        if (op == Op::insert) {
            if (n >= m_capacity[p]) { // only if the size word is corrupt; the check reports it
                ++m_overfull;
                ok = false;
            } else {
                uint64_t i = n; // the hole climbs while its parent is larger
                while (i > 0) {
                    const uint64_t parent = (i - 1) / 2;
                    const uint64_t pv = c.load(slot(p, parent), kWord);
                    if (pv <= key) break;
                    c.store(slot(p, i), pv, kWord);
                    i = parent;
                }
                c.store(slot(p, i), key, kWord);
                c.store(m_heap[p] + kSize, n + 1, kWord);
                m_log.push(me, p, key);
            }
        } else {
            std::optional<uint64_t> min;
            if (n != 0) {
                min = c.load(slot(p, 0), kWord);
                if (op == Op::remove) delete_root(c, p, n);
            }
            if (op == Op::remove)
                m_log.pop(me, p, min);
            else
                m_log.peek(me, p, min);
            ok = min.has_value();
        }
        c.lock_release(m_lock[p]);
        return ok;
    }

    void verify(Driver& d, CheckResult& r) override {
        if (m_overfull != 0) {
            r.fail("priority_queue: " + std::to_string(m_overfull) +
                   " inserts found their heap's size at its capacity");
            return;
        }
        std::vector<std::vector<uint64_t>> in_memory(units());
        for (unsigned p = 0; p < units(); ++p) {
            const std::string part = "priority_queue: partition " + std::to_string(p);
            const uint64_t n = d.read(m_heap[p] + kSize, kWord);
            if (n > m_capacity[p]) {
                r.fail(part + " holds a size of " + std::to_string(n) + ", more than its " +
                       std::to_string(m_capacity[p]) + " slots");
                return;
            }
            for (uint64_t i = 0; i < n; ++i) {
                const uint64_t v = d.read(slot(p, i), kWord);
                if (i > 0 && in_memory[p][(i - 1) / 2] > v) {
                    r.fail(part + " is not a min-heap: slot " + std::to_string(i) + " holds " + std::to_string(v) +
                           ", less than its parent's " + std::to_string(in_memory[p][(i - 1) / 2]));
                    return;
                }
                in_memory[p].push_back(v);
            }
        }
        m_log.check("priority_queue", in_memory, r);
    }

private:
    uint64_t slot(unsigned p, uint64_t i) const { return m_heap[p] + kSlots + i * kWord; }

    /// Removes the root of partition p's heap of n >= 1 elements: the last
    /// element moves to the root and sifts down.
    void delete_root(CoreApi& c, unsigned p, uint64_t n) {
        const uint64_t size = n - 1;
        c.store(m_heap[p] + kSize, size, kWord);
        if (size == 0) return;
        const uint64_t last = c.load(slot(p, size), kWord);
        uint64_t i = 0;
        for (;;) {
            const uint64_t left = 2 * i + 1;
            if (left >= size) break;
            uint64_t child = left;
            uint64_t cv = c.load(slot(p, left), kWord);
            if (left + 1 < size) {
                const uint64_t rv = c.load(slot(p, left + 1), kWord);
                if (rv < cv) {
                    child = left + 1;
                    cv = rv;
                }
            }
            if (last <= cv) break;
            c.store(slot(p, i), cv, kWord);
            i = child;
        }
        c.store(slot(p, i), last, kWord);
    }

    static uint64_t allocate_heap(Driver& d, unsigned unit, uint64_t capacity) {
        const std::string what = "workload priority_queue: " + std::to_string(capacity) + " slots of " +
                                 std::to_string(kWord) + " bytes do not fit in unit " + std::to_string(unit) +
                                 "'s memory";
        if (capacity > (UINT64_MAX - kSlots) / kWord) throw std::invalid_argument(what);
        try {
            return d.allocate(unit, kSlots + capacity * kWord, Sharing::shared);
        } catch (const std::exception& e) {
            throw std::invalid_argument(what + " (" + e.what() +
                                        "); use a smaller workload.elements or workload.ops, or more memory");
        }
    }

    std::vector<uint64_t> m_heap;
    std::vector<SyncVar> m_lock;
    std::vector<uint64_t> m_capacity;
    uint64_t m_overfull = 0;
    SequenceLog m_log;
};

} // namespace

std::unique_ptr<Workload> make_priority_queue(const WorkloadParams& p) { return std::make_unique<PriorityQueue>(p); }

} // namespace syncron
