#include "models/schemes/misar_client.h"

#include "models/common/address_map.h"
#include "models/core/core_services.h"
#include "models/schemes/message_client.h"

namespace syncron {

MisarClient::MisarClient(const AddressMap& map, std::function<unsigned(uint64_t)> fallback_unit,
                         std::function<unsigned(unsigned)> server_core, unsigned retry_backoff)
    : m_map(map), m_fallback_unit(std::move(fallback_unit)), m_server_core(std::move(server_core)),
      m_retry_backoff(retry_backoff) {}

uint64_t MisarClient::server_of(uint64_t var) const {
    const unsigned u = m_fallback_unit(var);
    return m_map.mailbox_address(u, m_server_core(u));
}

void MisarClient::notify(CoreServices& core, uint64_t var) {
    if (m_map.is_memory(var) && m_map.home_unit(var) == core.unit()) return; // the Master SE counted nothing here
    core.post(m_map.se_address(core.unit()), core.message(Opcode::decrease_indexing_counter, var, 1));
}

void MisarClient::released(CoreServices& core, uint64_t lock) {
    // After the release on the same core-to-SE channel, so the SE keeps
    // redirecting until the lock is really back.
    if (m_software_locks.erase(lock)) notify(core, lock);
}

uint64_t MisarClient::rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) {
    Message m = core.message(rmw_local_opcode(op), addr, operand);
    m.expected = expected;
    return MessageClient::exchange_rmw(core, m_map.se_address(core.unit()), m);
}

void MisarClient::request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) {
    const uint64_t se = m_map.se_address(core.unit());
    if (!is_sync_request(op)) { // release-type: the SEs route it to the server if need be
        core.post(se, core.message(op, var, info));
        if (op == Opcode::lock_release_local) released(core, var);
        return;
    }
    for (;;) {
        const auto reply = core.exchange(se, core.message(op, var, info), grant_of(op), Opcode::abort_local);
        if (!reply) return;                                          // rejected (reported)
        if (reply->op != Opcode::abort_local) {                      // granted in hardware
            if (op == Opcode::cond_wait_local) released(core, info); // the SE released the lock inside
            return;
        }
        const uint64_t flags = reply->info;
        if (op == Opcode::cond_wait_local) {
            // A spurious wake-up: the core gives the lock up (unless the SE
            // already did) and NdpCore re-acquires it next, so that a
            // signaller can get in. Never counted, never notified.
            if (flags & abort_info::kLockReleased)
                released(core, info);
            else
                request(core, Opcode::lock_release_local, info, 0);
            return;
        }
        if (flags & abort_info::kRetry) {
            ++m_retries;
            core.compute(m_retry_backoff);
            continue;
        }
        // Diverted: the same request, to the fallback server (which knows
        // every core by its flat index).
        ++m_fallbacks;
        Message m = core.message(op, var, info);
        m.core = static_cast<uint16_t>(core.unit() * m_map.cores_per_unit() + core.local_id());
        if (!core.exchange(server_of(var), m, grant_of(op), grant_of(op))) return;
        if (op == Opcode::lock_acquire_local)
            m_software_locks.insert(var); // notified once released
        else
            notify(core, var);
        return;
    }
}

} // namespace syncron
