#include "models/schemes/mesi_lock_client.h"

#include <algorithm>
#include <string>

#include "models/core/core_api.h"
#include "models/core/core_services.h"
#include "models/core/vault_rmw.h"

namespace syncron {

namespace {
constexpr const char* kMesiLockMsgType = "/syncron/mesi_lock";
} // namespace

MesiLockClient::MesiLockClient(const MesiLockParams& params, uint64_t seed, unsigned core_id)
    : m_params(params), m_rng(seed * 0x9E3779B97F4A7C15ull + core_id) {}

uint64_t MesiLockClient::load(CoreServices& core, uint64_t addr) {
    ++m_stats.loads;
    return core.load(addr, kWordBytes);
}

void MesiLockClient::store(CoreServices& core, uint64_t addr, uint64_t value) {
    ++m_stats.stores;
    core.store(addr, value, kWordBytes);
}

uint64_t MesiLockClient::atomic(CoreServices& core, AtomicOp op, uint64_t addr, uint64_t operand, uint64_t compare) {
    switch (op) {
    case AtomicOp::cas: ++m_stats.cas; break;
    case AtomicOp::swap: ++m_stats.swap; break;
    case AtomicOp::faa: ++m_stats.faa; break;
    }
    return core.atomic(op, addr, operand, compare, kWordBytes);
}

void MesiLockClient::spin(CoreServices& core) {
    ++m_stats.spin_loads;
    core.compute(m_params.spin_instructions);
}

void MesiLockClient::back_off(CoreServices& core, uint64_t var) {
    // libslock's ttas_lock: delay = random % limit, then the limit doubles up
    // to MAX_DELAY; the limit is the thread's for this lock, kept across calls.
    ++m_stats.failed_attempts;
    uint64_t& limit = m_limits.try_emplace(var, std::max(1u, m_params.backoff_min)).first->second;
    const uint64_t delay = m_rng() % limit;
    limit = std::min<uint64_t>(2 * limit, std::max(m_params.backoff_min, m_params.backoff_max));
    m_stats.backoff_cycles += delay;
    if (delay) core.compute(delay); // one instruction per cycle: cdelay()'s cycles
}

void MesiLockClient::acquire(CoreServices& core, uint64_t lock) {
    const uint64_t me = core.global_id() + 1;
    for (;;) {
        // Test: spin on plain loads (L1 hits in S) until the word reads free.
        for (uint64_t owner = load(core, lock); owner != 0; owner = load(core, lock)) {
            if (owner == me) {
                SC_REPORT_ERROR(kMesiLockMsgType,
                                (std::string(core.name()) + ": lock_acquire of a lock the core already holds").c_str());
                return;
            }
            spin(core);
        }
        // Test-and-set as a compare-and-swap (libslock's TAS_U8 on Tilera): a
        // swap would overwrite the holder's ID when it loses.
        if (atomic(core, AtomicOp::cas, lock, me, 0) == 0) return;
        back_off(core, lock);
    }
}

void MesiLockClient::release(CoreServices& core, uint64_t lock) {
    // Only the holder writes a taken word (the others' cas expects 0), so a
    // load that sees this core still holds when the store lands; a release of
    // a lock not held writes nothing and cannot break mutual exclusion.
    const uint64_t me = core.global_id() + 1;
    const uint64_t owner = load(core, lock);
    if (owner == me) {
        store(core, lock, 0); // libslock's ttas_unlock: a plain store
        return;
    }
    SC_REPORT_ERROR(kMesiLockMsgType, (std::string(core.name()) + ": release of a lock not held by core " +
                                       std::to_string(core.global_id()) +
                                       (owner ? " (held by core " + std::to_string(owner - 1) + ")" : " (it is free)"))
                                          .c_str());
}

void MesiLockClient::barrier(CoreServices& core, uint64_t b, uint64_t participants) {
    // MCS's centralized barrier: flip the private sense, count in; the last
    // arrival resets the count before it publishes the new sense, so nobody
    // can arrive at the next episode on a stale count.
    bool& sense = m_sense[b];
    sense = !sense;
    const uint64_t arrived = atomic(core, AtomicOp::faa, b, 1, 0) + 1;
    if (arrived >= participants) {
        store(core, b, 0);
        store(core, b + kWordBytes, sense);
        return;
    }
    while (load(core, b + kWordBytes) != uint64_t(sense)) spin(core);
}

void MesiLockClient::sem_wait(CoreServices& core, uint64_t s, uint64_t initial) {
    for (;;) {
        int64_t delta = static_cast<int64_t>(load(core, s));
        while (static_cast<int64_t>(initial) + delta <= 0) {
            spin(core);
            delta = static_cast<int64_t>(load(core, s));
        }
        const auto seen = static_cast<uint64_t>(delta);
        if (atomic(core, AtomicOp::cas, s, seen - 1, seen) == seen) return;
        back_off(core, s);
    }
}

void MesiLockClient::cond_wait(CoreServices& core, uint64_t c, uint64_t lock) {
    // Read the sequence while holding the lock: a signal after the release
    // changes it, so no wake-up is lost.
    const uint64_t seen = load(core, c);
    release(core, lock);
    while (load(core, c) == seen) spin(core);
}

void MesiLockClient::request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) {
    switch (op) {
    case Opcode::lock_acquire_local: acquire(core, var); break;
    case Opcode::lock_release_local: release(core, var); break;
    case Opcode::barrier_wait_local_within_unit:
    case Opcode::barrier_wait_local_across_units: barrier(core, var, info); break;
    case Opcode::sem_wait_local: sem_wait(core, var, info); break;
    case Opcode::sem_post_local: atomic(core, AtomicOp::faa, var, 1, 0); break;
    case Opcode::cond_wait_local: cond_wait(core, var, info); break;
    case Opcode::cond_signal_local:
    case Opcode::cond_broad_local: atomic(core, AtomicOp::faa, var, 1, 0); break;
    default:
        SC_REPORT_ERROR(
            kMesiLockMsgType,
            (std::string(core.name()) + ": " + std::string(to_string(op)) + " is not a core request").c_str());
    }
}

uint64_t MesiLockClient::rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) {
    return vault_rmw(core, op, addr, operand, expected);
}

} // namespace syncron
