// Stack (paper Table 6: 100K elements, 100% push): a linked stack per unit
// behind one coarse-grained lock, as ASCYLIB's lock-based stack. The stack of
// a unit lives in that unit's memory and its lock is homed there; an
// operation goes to the stack of its key's partition, so 1/units of them are
// local. Per push: 3 stores, 1 load, 2 synchronization requests; per pop: 3
// loads, 1 store, 2 requests (docs/workloads.md).
#include <algorithm>
#include <optional>

#include "testbenches/workloads/data_structures/data_structures.h"
#include "testbenches/workloads/data_structures/ds_workload.h"
#include "testbenches/workloads/data_structures/node_pool.h"
#include "testbenches/workloads/data_structures/sequence_log.h"

namespace syncron {
namespace {

constexpr unsigned kWord = 8;
// Node: value, next. Partition header: top.
constexpr uint64_t kValue = 0, kNext = 8, kNodeBytes = 16;

class Stack final : public DataStructureWorkload {
public:
    using DataStructureWorkload::DataStructureWorkload;

protected:
    uint64_t bytes_per_element() const override { return kNodeBytes; }
    void build(Driver& d) override {
        m_top.assign(units(), 0);
        m_lock.assign(units(), 0);
        m_pool.assign(units(), NodePool{});
        m_pushes.assign(cores(), 0);
        const std::vector<uint64_t> keys = initial_keys();
        std::vector<std::vector<uint64_t>> initial(units());
        for (uint64_t k : keys) initial[partition_of(k)].push_back(k);
        for (unsigned p = 0; p < units(); ++p) {
            m_pool[p].reserve(d, p, initial[p].size() + max_inserts(), kNodeBytes, "workload stack");
            m_top[p] = d.allocate(p, kWord, Sharing::shared);
            m_lock[p] = d.create_syncvar(p);
            uint64_t top = 0;
            for (uint64_t v : initial[p]) { // pushed in order: the last is on top
                const uint64_t node = m_pool[p].take();
                d.write(node + kValue, v, kWord);
                d.write(node + kNext, top, kWord);
                top = node;
            }
            d.write(m_top[p], top, kWord);
            std::reverse(initial[p].begin(), initial[p].end()); // container order: top first
        }
        m_log.start(SequenceLog::Discipline::lifo, std::move(initial));
    }

    bool execute(CoreApi& c, Op op, uint64_t key) override {
        const unsigned p = partition_of(key);
        const unsigned me = c.global_id();
        if (op == Op::insert) {
            const uint64_t value = unique_value(me, m_pushes[me]++);
            const uint64_t node = m_pool[p].take();
            c.store(node + kValue, value, kWord); // the node is private until published
            c.lock_acquire(m_lock[p]);
            c.store(node + kNext, c.load(m_top[p], kWord), kWord);
            c.store(m_top[p], node, kWord);
            m_log.push(me, p, value);
            work_inside(c, op, true);
            c.lock_release(m_lock[p]);
            return true;
        }
        c.lock_acquire(m_lock[p]);
        const uint64_t top = c.load(m_top[p], kWord);
        std::optional<uint64_t> value;
        if (top != 0) {
            if (op == Op::remove) c.store(m_top[p], c.load(top + kNext, kWord), kWord);
            value = c.load(top + kValue, kWord);
        }
        if (op == Op::remove)
            m_log.pop(me, p, value);
        else
            m_log.peek(me, p, value);
        work_inside(c, op, value.has_value());
        c.lock_release(m_lock[p]);
        return value.has_value();
    }

    // The cited code's work per operation besides loads and stores,
    // {outside, inside} its locks (workload.op_work=measured): ASCYLIB
    // 3c2d1a2 `src/stack-lock`, gcc -O2, callgrind, 100K elements; docs/workloads.md.
    // A peek is not measured: ASCYLIB's find does not read the stack.
    MeasuredWork measured_work() const override {
        MeasuredWork w;
        w.insert_ok = {18, 1};
        w.remove_ok = {10, 3};
        return w;
    }

    void verify(Driver& d, CheckResult& r) override {
        std::vector<std::vector<uint64_t>> in_memory(units());
        for (unsigned p = 0; p < units(); ++p) {
            const uint64_t limit = m_pool[p].used();
            for (uint64_t node = d.read(m_top[p], kWord); node != 0; node = d.read(node + kNext, kWord)) {
                if (in_memory[p].size() > limit) {
                    r.fail("stack: partition " + std::to_string(p) +
                           " is longer than the nodes ever allocated (a cycle)");
                    return;
                }
                in_memory[p].push_back(d.read(node + kValue, kWord));
            }
        }
        m_log.check("stack", in_memory, r);
    }

private:
    std::vector<uint64_t> m_top;
    std::vector<SyncVar> m_lock;
    std::vector<NodePool> m_pool;
    std::vector<uint64_t> m_pushes;
    SequenceLog m_log;
};

} // namespace

std::unique_ptr<Workload> make_stack(const WorkloadParams& p) { return std::make_unique<Stack>(p); }

} // namespace syncron
