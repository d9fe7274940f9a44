#pragma once
// A host rig for the data structures' protocol tests: a Driver and a CoreApi
// over a plain word map, no simulation. It runs one core's operations alone
// and records every call (locks, loads, stores, computation) in order.
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/core/core_api.h"
#include "models/core/workload.h"

namespace syncron::test {

/// Memory and a core on the host. Single-threaded: a lock is never
/// contended, so acquiring one already held is a protocol error.
class HostRig final : public Driver, public CoreApi {
public:
    struct Call {
        enum Kind { acquire, release, load, store, compute } kind;
        uint64_t addr;       ///< compute: the instructions
        bool locked = false; ///< a lock was held
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
    void compute(uint64_t instructions) override { calls.push_back({Call::compute, instructions, !m_held.empty()}); }
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
    /// Instructions computed with a lock held (`locked`) or with none.
    uint64_t computed(bool locked) const {
        uint64_t n = 0;
        for (const Call& c : calls) n += c.kind == Call::compute && c.locked == locked ? c.addr : 0;
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

} // namespace syncron::test
