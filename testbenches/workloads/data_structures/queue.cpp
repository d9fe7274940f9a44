// Queue (paper Table 6: 100K elements, 100% pop): per unit, the two-lock
// queue of Michael & Scott ("Simple, Fast, and Practical Non-Blocking and
// Blocking Concurrent Queue Algorithms", PODC 1996), as ASCYLIB's lock-based
// queue (queue-ms_lb): head points to a dummy node whose successor is the
// front element, tail to the last node; an enqueue links a node after tail
// under the tail lock, a dequeue makes the front node the new dummy under the
// head lock. The dummy keeps the two apart: an enqueue writes only the last
// node's next and tail, a dequeue only head. The queue of a unit (head, tail,
// nodes) lives in that unit's memory and both its locks are homed there; an
// operation goes to the queue of its key's partition, so 1/units of them are
// local. Per enqueue: 4 stores, 1 load, 2 synchronization requests (the tail
// lock); per dequeue: 3 loads, 1 store, 2 requests (the head lock); per peek:
// 3 loads, 2 requests (the head lock) (docs/workloads.md).
#include <optional>

#include "testbenches/workloads/data_structures/data_structures.h"
#include "testbenches/workloads/data_structures/ds_workload.h"
#include "testbenches/workloads/data_structures/node_pool.h"
#include "testbenches/workloads/data_structures/sequence_log.h"

namespace syncron {
namespace {

constexpr unsigned kWord = 8;
// Node: value, next. Partition header: head, tail.
constexpr uint64_t kValue = 0, kNext = 8, kNodeBytes = 16;
constexpr uint64_t kHead = 0, kTail = 8, kHeaderBytes = 16;

class Queue final : public DataStructureWorkload {
public:
    using DataStructureWorkload::DataStructureWorkload;

protected:
    uint64_t bytes_per_element() const override { return kNodeBytes; }
    void build(Driver& d) override {
        m_header.assign(units(), 0);
        m_head_lock.assign(units(), 0);
        m_tail_lock.assign(units(), 0);
        m_pool.assign(units(), NodePool{});
        m_first.assign(units(), 0);
        m_enqueues.assign(cores(), 0);
        const std::vector<uint64_t> keys = initial_keys();
        std::vector<std::vector<uint64_t>> initial(units());
        for (uint64_t k : keys) initial[partition_of(k)].push_back(k);
        for (unsigned p = 0; p < units(); ++p) {
            // One more node than elements: the dummy.
            m_pool[p].reserve(d, p, initial[p].size() + max_inserts() + 1, kNodeBytes, "workload queue");
            m_header[p] = d.allocate(p, kHeaderBytes, Sharing::shared);
            m_head_lock[p] = d.create_syncvar(p);
            m_tail_lock[p] = d.create_syncvar(p);
            const uint64_t dummy = m_pool[p].take();
            m_first[p] = dummy;
            uint64_t tail = dummy;
            for (uint64_t v : initial[p]) { // enqueued in order: the first is at the front
                const uint64_t node = m_pool[p].take();
                d.write(node + kValue, v, kWord);
                d.write(tail + kNext, node, kWord);
                tail = node;
            }
            d.write(m_header[p] + kHead, dummy, kWord);
            d.write(m_header[p] + kTail, tail, kWord);
        }
        m_log.start(SequenceLog::Discipline::fifo, std::move(initial));
    }

    bool execute(CoreApi& c, Op op, uint64_t key) override {
        const unsigned p = partition_of(key);
        const unsigned me = c.global_id();
        const uint64_t head = m_header[p] + kHead, tail = m_header[p] + kTail;
        if (op == Op::insert) {
            const uint64_t value = unique_value(me, m_enqueues[me]++);
            const uint64_t node = m_pool[p].take();
            c.store(node + kValue, value, kWord); // the node is private until linked
            c.store(node + kNext, 0, kWord);
            c.lock_acquire(m_tail_lock[p]);
            const uint64_t last = c.load(tail, kWord);
            // Logged just before the linking store (the linearization point),
            // so a dequeue that reads the node is logged after it; marked done
            // once the store has returned (a dequeue under the head lock may
            // read the old link meanwhile: sequence_log.h).
            m_log.push(me, p, value);
            c.store(last + kNext, node, kWord);
            m_log.pushed(me, p, value);
            c.store(tail, node, kWord);
            work_inside(c, op, true);
            c.lock_release(m_tail_lock[p]);
            return true;
        }
        c.lock_acquire(m_head_lock[p]);
        const uint64_t since = m_log.now();
        const uint64_t dummy = c.load(head, kWord);
        const uint64_t front = c.load(dummy + kNext, kWord);
        std::optional<uint64_t> value;
        if (front != 0) {
            value = c.load(front + kValue, kWord);
            if (op == Op::remove) c.store(head, front, kWord); // the front node becomes the dummy
        }
        if (op == Op::remove)
            m_log.pop(me, p, value, since);
        else
            m_log.peek(me, p, value, since);
        work_inside(c, op, value.has_value());
        c.lock_release(m_head_lock[p]);
        return value.has_value();
    }

    // The cited code's work per operation besides loads and stores,
    // {outside, inside} its locks (workload.op_work=measured): ASCYLIB
    // 3c2d1a2 `src/queue-ms_lb`, gcc -O2, callgrind, 100K elements; docs/workloads.md.
    // A peek is not measured: ASCYLIB's find does not read the queue.
    MeasuredWork measured_work() const override {
        MeasuredWork w;
        w.insert_ok = {18, 1};
        w.remove_ok = {11, 3};
        return w;
    }

    void verify(Driver& d, CheckResult& r) override {
        std::vector<std::vector<uint64_t>> in_memory(units());
        for (unsigned p = 0; p < units(); ++p) {
            const std::string part = "queue: partition " + std::to_string(p);
            // Every pointer must name a node handed out by the pool.
            const auto is_node = [&](uint64_t a) {
                return a >= m_first[p] && (a - m_first[p]) % kNodeBytes == 0 &&
                       (a - m_first[p]) / kNodeBytes < m_pool[p].used();
            };
            uint64_t node = d.read(m_header[p] + kHead, kWord);
            const uint64_t tail = d.read(m_header[p] + kTail, kWord);
            if (!is_node(node) || !is_node(tail)) {
                r.fail(part + ": head or tail does not point to one of its nodes");
                return;
            }
            for (uint64_t next = d.read(node + kNext, kWord); next != 0; next = d.read(node + kNext, kWord)) {
                if (!is_node(next)) {
                    r.fail(part + ": a next pointer does not point to one of its nodes");
                    return;
                }
                if (in_memory[p].size() >= m_pool[p].used()) {
                    r.fail(part + " is longer than the nodes ever allocated (a cycle)");
                    return;
                }
                node = next;
                in_memory[p].push_back(d.read(node + kValue, kWord));
            }
            if (node != tail) {
                r.fail(part + ": tail does not point to the last node reached from head");
                return;
            }
        }
        m_log.check("queue", in_memory, r);
    }

private:
    std::vector<uint64_t> m_header;
    std::vector<SyncVar> m_head_lock, m_tail_lock;
    std::vector<NodePool> m_pool;
    std::vector<uint64_t> m_first; // each pool's first node: bounds for verify
    std::vector<uint64_t> m_enqueues;
    SequenceLog m_log;
};

} // namespace

std::unique_ptr<Workload> make_queue(const WorkloadParams& p) { return std::make_unique<Queue>(p); }

} // namespace syncron
