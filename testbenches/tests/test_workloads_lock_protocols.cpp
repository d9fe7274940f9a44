// The locks each data-structure operation takes, per kind of operation, where
// the protocol follows the cited code (docs/workloads.md, "Lock protocols
// against the cited code"). The workload runs one operation at a time on a
// host rig (a Driver and a CoreApi over a plain word map, no simulation), which
// records every call of each operation.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "models/common/params.h"
#include "models/core/core_api.h"
#include "models/core/workload.h"
#include "testbenches/workloads/data_structures/data_structures.h"

using namespace syncron;

namespace {

/// Memory and a core on the host. Single-threaded: a lock is never
/// contended, so acquiring one already held is a protocol error.
class HostRig final : public Driver, public CoreApi {
public:
    struct Call {
        enum Kind { acquire, release, load, store } kind;
        uint64_t addr;
    };

    HostRig(unsigned units, unsigned cores) : m_units(units), m_cores(cores), m_next(units) {
        for (unsigned u = 0; u < units; ++u) m_next[u] = (uint64_t{u} + 1) << 32;
    }

    // Driver
    unsigned units() const override { return m_units; }
    unsigned client_cores() const override { return m_cores; }
    unsigned client_cores_in_unit(unsigned unit) const override {
        return m_cores / m_units + (unit < m_cores % m_units ? 1 : 0);
    }
    SyncVar create_syncvar(unsigned home_unit) override { return allocate(home_unit, 64, Sharing::shared); }
    void destroy_syncvar(SyncVar) override {}
    uint64_t allocate(unsigned unit, uint64_t bytes, Sharing) override {
        const uint64_t a = m_next.at(unit);
        m_next[unit] += (bytes + 63) / 64 * 64;
        return a;
    }
    uint64_t free_bytes(unsigned) const override { return uint64_t{1} << 30; }
    uint64_t read(uint64_t addr, unsigned size) override { return word(addr, size); }
    void write(uint64_t addr, uint64_t value, unsigned size) override { word(addr, size) = value; }

    // CoreApi: core `m_core`, everything recorded in `calls`.
    unsigned unit() const override { return m_core % m_units; }
    unsigned local_id() const override { return m_core / m_units; }
    unsigned global_id() const override { return m_core; }
    void compute(uint64_t) override {}
    uint64_t load(uint64_t addr, unsigned size) override {
        calls.push_back({Call::load, addr});
        return word(addr, size);
    }
    void store(uint64_t addr, uint64_t value, unsigned size) override {
        calls.push_back({Call::store, addr});
        word(addr, size) = value;
    }
    void lock_acquire(SyncVar lock) override {
        if (!m_held.insert(lock).second) throw std::logic_error("a lock acquired twice (a deadlock)");
        calls.push_back({Call::acquire, lock});
    }
    void lock_release(SyncVar lock) override {
        if (m_held.erase(lock) == 0) throw std::logic_error("a lock released but not held");
        calls.push_back({Call::release, lock});
    }
    void barrier_wait_within_unit(SyncVar, unsigned) override { unused(); }
    void barrier_wait_across_units(SyncVar, unsigned) override { unused(); }
    void sem_wait(SyncVar, unsigned) override { unused(); }
    void sem_post(SyncVar) override { unused(); }
    void cond_wait(SyncVar, SyncVar) override { unused(); }
    void cond_signal(SyncVar) override { unused(); }
    void cond_broadcast(SyncVar) override { unused(); }
    uint64_t atomic_rmw(uint64_t, RmwOp, uint64_t, uint64_t) override { return unused(), 0; }
    uint64_t vault_rmw(uint64_t, RmwOp, uint64_t, uint64_t) override { return unused(), 0; }

    /// Runs core `core`'s operations (one per core in these tests) alone.
    void run_core(Workload& w, unsigned core) {
        m_core = core;
        calls.clear();
        w.run(*this);
        if (!m_held.empty()) throw std::logic_error("an operation returned holding a lock");
    }
    unsigned count(Call::Kind k) const {
        unsigned n = 0;
        for (const Call& c : calls) n += c.kind == k ? 1 : 0;
        return n;
    }

    std::vector<Call> calls;

private:
    [[noreturn]] static void unused() { throw std::logic_error("not used by the data structures"); }
    uint64_t& word(uint64_t addr, unsigned size) {
        if (size != 8 || addr % 8 != 0) throw std::logic_error("the rig serves aligned 8-byte words only");
        return m_mem[addr];
    }
    unsigned m_units, m_cores, m_core = 0;
    std::vector<uint64_t> m_next;
    std::map<uint64_t, uint64_t> m_mem;
    std::set<SyncVar> m_held;
};

WorkloadParams one_op_per_core(const std::string& name, uint64_t elements, unsigned insert_percent) {
    WorkloadParams p;
    p.name = name;
    p.ops = 1;
    p.elements = elements;
    p.update_percent = 100;
    p.insert_percent = insert_percent;
    return p;
}

} // namespace

TEST_CASE("bst_drachsler: a failing update takes no lock, an insert 2, a delete 4 to 6 (ASCYLIB's default build)",
          "[workloads][data_structures]") {
    const bool inserts = GENERATE(false, true);
    INFO((inserts ? "inserts" : "deletes"));
    // 64 keys of 1..128: about half the operations find their key.
    constexpr unsigned kCores = 400;
    HostRig rig(4, kCores);
    auto w = make_bst_drachsler(one_op_per_core("bst_drachsler", 64, inserts ? 100 : 0));
    w->setup(rig);
    unsigned failed = 0, succeeded = 0;
    std::map<unsigned, unsigned> locks_per_success;
    for (unsigned core = 0; core < kCores; ++core) {
        rig.run_core(*w, core);
        const unsigned locks = rig.count(HostRig::Call::acquire);
        INFO("core " << core << ": " << locks << " locks, " << rig.count(HostRig::Call::store) << " stores");
        CHECK(rig.count(HostRig::Call::release) == locks);
        if (rig.count(HostRig::Call::store) == 0) { // failed: decided by the lock-free walk
            ++failed;
            CHECK(locks == 0);
        } else {
            ++succeeded;
            ++locks_per_success[locks];
            if (inserts)
                CHECK(locks == 2); // the predecessor's succ lock, the new parent's tree lock
            else
                CHECK((locks >= 4 && locks <= 6)); // 2 succ locks; node, parent (successor and its parent)
        }
    }
    CHECK(failed > 0);
    CHECK(succeeded > 0);
    // Deletes of nodes with two children (5 or 6 locks) happen in this tree.
    if (!inserts) CHECK(locks_per_success.size() >= 2);
    const CheckResult r = w->check(rig);
    INFO((r.failures.empty() ? std::string() : r.failures.front()));
    CHECK(r.ok);
}

TEST_CASE("queue: an enqueue takes the tail lock, a dequeue or peek the head lock (two-lock queue)",
          "[workloads][data_structures]") {
    constexpr unsigned kUnits = 2, kCores = 200;
    HostRig rig(kUnits, kCores);
    WorkloadParams p = one_op_per_core("queue", 8, 50);
    p.update_percent = 80; // pops, pushes and peeks
    auto w = make_queue(p);
    w->setup(rig);
    std::set<SyncVar> enqueue_locks, dequeue_locks;
    unsigned enqueues = 0, dequeues = 0;
    for (unsigned core = 0; core < kCores; ++core) {
        rig.run_core(*w, core);
        REQUIRE(rig.count(HostRig::Call::acquire) == 1);
        REQUIRE(rig.calls.size() >= 2);
        // An enqueue fills its private node before it locks; a dequeue or a
        // peek touches memory only under its lock.
        const bool enqueue = rig.calls.front().kind == HostRig::Call::store;
        SyncVar lock = 0;
        for (const auto& c : rig.calls)
            if (c.kind == HostRig::Call::acquire) lock = c.addr;
        (enqueue ? enqueue_locks : dequeue_locks).insert(lock);
        ++(enqueue ? enqueues : dequeues);
    }
    CHECK(enqueues > 0);
    CHECK(dequeues > 0);
    // One tail lock and one head lock per unit's queue, never the same.
    CHECK(enqueue_locks.size() == kUnits);
    CHECK(dequeue_locks.size() == kUnits);
    for (const SyncVar l : enqueue_locks) CHECK(dequeue_locks.count(l) == 0);
    const CheckResult r = w->check(rig);
    INFO((r.failures.empty() ? std::string() : r.failures.front()));
    CHECK(r.ok);
}
