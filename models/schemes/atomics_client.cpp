#include "models/schemes/atomics_client.h"

#include <algorithm>
#include <string>

#include "models/core/core_api.h"
#include "models/core/core_services.h"
#include "models/core/vault_rmw.h"

namespace syncron {

namespace {
constexpr const char* kAtomicsMsgType = "/syncron/atomics";
} // namespace

AtomicsClient::AtomicsClient(const AtomicsParams& params, uint64_t seed, unsigned core_id)
    : m_params(params), m_rng(seed * 0x9E3779B97F4A7C15ull + core_id) {}

void AtomicsClient::back_off(CoreServices& core, unsigned failures) {
    ++m_failed;
    const unsigned shift = std::min(failures, 20u);
    const uint64_t base = std::min<uint64_t>(uint64_t(std::max(1u, m_params.backoff_min)) << shift,
                                             std::max(m_params.backoff_min, m_params.backoff_max));
    core.compute(base + (base ? m_rng() % base : 0));
}

void AtomicsClient::acquire(CoreServices& core, uint64_t lock) {
    const uint64_t me = core.global_id() + 1;
    for (unsigned failures = 0;; ++failures) {
        const uint64_t owner = core.atomic(AtomicOp::cas, lock, me, 0, kWordBytes);
        if (owner == 0) return;
        if (owner == me) {
            SC_REPORT_ERROR(kAtomicsMsgType,
                            (std::string(core.name()) + ": lock_acquire of a lock the core already holds").c_str());
            return;
        }
        back_off(core, failures);
    }
}

void AtomicsClient::release(CoreServices& core, uint64_t lock) {
    const uint64_t me = core.global_id() + 1;
    const uint64_t owner = core.atomic(AtomicOp::swap, lock, 0, 0, kWordBytes);
    if (owner != me) {
        // Put back what was there: the lock was not this core's to free.
        if (owner) core.atomic(AtomicOp::swap, lock, owner, 0, kWordBytes);
        SC_REPORT_ERROR(kAtomicsMsgType,
                        (std::string(core.name()) + ": release of a lock not held by core " +
                         std::to_string(core.global_id()) +
                         (owner ? " (held by core " + std::to_string(owner - 1) + ")" : " (it is free)"))
                            .c_str());
    }
}

void AtomicsClient::barrier(CoreServices& core, uint64_t b, uint64_t participants) {
    // Sense by episode number: read it before arriving, so the last arrival
    // cannot move it on unseen.
    const uint64_t episode = core.load(b + kWordBytes, kWordBytes);
    const uint64_t arrived = core.atomic(AtomicOp::faa, b, 1, 0, kWordBytes) + 1;
    if (arrived >= participants) {
        core.store(b, 0, kWordBytes);                                 // reset for the next episode first,
        core.atomic(AtomicOp::faa, b + kWordBytes, 1, 0, kWordBytes); // then let everyone go
        return;
    }
    for (unsigned failures = 0; core.load(b + kWordBytes, kWordBytes) == episode; ++failures) back_off(core, failures);
}

void AtomicsClient::sem_wait(CoreServices& core, uint64_t s, uint64_t initial) {
    for (unsigned failures = 0;; ++failures) {
        const int64_t delta = static_cast<int64_t>(core.load(s, kWordBytes));
        if (static_cast<int64_t>(initial) + delta > 0 &&
            core.atomic(AtomicOp::cas, s, static_cast<uint64_t>(delta - 1), static_cast<uint64_t>(delta), kWordBytes) ==
                static_cast<uint64_t>(delta))
            return;
        back_off(core, failures);
    }
}

void AtomicsClient::cond_wait(CoreServices& core, uint64_t c, uint64_t lock) {
    // Read the sequence while holding the lock: a signal after the release
    // changes it, so no wake-up is lost.
    const uint64_t seen = core.load(c, kWordBytes);
    release(core, lock);
    for (unsigned failures = 0; core.load(c, kWordBytes) == seen; ++failures) back_off(core, failures);
}

void AtomicsClient::request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) {
    switch (op) {
    case Opcode::lock_acquire_local: acquire(core, var); break;
    case Opcode::lock_release_local: release(core, var); break;
    case Opcode::barrier_wait_local_within_unit:
    case Opcode::barrier_wait_local_across_units: barrier(core, var, info); break;
    case Opcode::sem_wait_local: sem_wait(core, var, info); break;
    case Opcode::sem_post_local: core.atomic(AtomicOp::faa, var, 1, 0, kWordBytes); break;
    case Opcode::cond_wait_local: cond_wait(core, var, info); break;
    case Opcode::cond_signal_local:
    case Opcode::cond_broad_local: core.atomic(AtomicOp::faa, var, 1, 0, kWordBytes); break;
    default:
        SC_REPORT_ERROR(
            kAtomicsMsgType,
            (std::string(core.name()) + ": " + std::string(to_string(op)) + " is not a core request").c_str());
    }
}

uint64_t AtomicsClient::rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) {
    return vault_rmw(core, op, addr, operand, expected);
}

} // namespace syncron
