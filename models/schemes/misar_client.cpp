#include "models/schemes/misar_client.h"

#include "models/common/address_map.h"
#include "models/core/ndp_core.h"

namespace syncron {

MisarClient::MisarClient(const AddressMap& map, std::function<unsigned(uint64_t)> fallback_unit,
                         std::function<unsigned(unsigned)> server_core, unsigned retry_backoff)
    : m_map(map), m_fallback_unit(std::move(fallback_unit)), m_server_core(std::move(server_core)),
      m_retry_backoff(retry_backoff) {}

uint64_t MisarClient::server_of(uint64_t var) const {
    const unsigned u = m_fallback_unit(var);
    return m_map.mailbox_address(u, m_server_core(u));
}

Message MisarClient::to_server(const NdpCore& core, Opcode op, uint64_t var, uint64_t info) const {
    // The fallback server knows every core by its flat index.
    Message m = core.message(op, var, info);
    m.core = static_cast<uint16_t>(core.unit() * m_map.cores_per_unit() + core.local_id());
    return m;
}

void MisarClient::notify(NdpCore& core, uint64_t var) {
    core.post(server_of(var), to_server(core, Opcode::decrease_indexing_counter, var, 1));
    // A non-Master SE counted the redirect that led here (the Master SE's own
    // cores were counted at the Master SE only, which hears from the server).
    if (!m_map.is_memory(var) || m_map.home_unit(var) != core.unit())
        core.post(m_map.se_address(core.unit()), core.message(Opcode::decrease_indexing_counter, var, 1));
}

void MisarClient::request(NdpCore& core, Opcode op, uint64_t var, uint64_t info) {
    const uint64_t se = m_map.se_address(core.unit());
    if (op == Opcode::lock_release_local && m_software_locks.erase(var)) {
        core.post(server_of(var), to_server(core, op, var, info));
        return;
    }
    if (!is_sync_request(op)) { // release-type: the Master SE forwards it if need be
        core.post(se, core.message(op, var, info));
        return;
    }
    for (;;) {
        const auto reply = core.exchange(se, core.message(op, var, info), grant_of(op), Opcode::abort_local);
        if (!reply) return; // rejected (reported)
        if (reply->op != Opcode::abort_local) { // granted in hardware
            // The SE released cond_wait's lock, through the server if it was
            // held there.
            if (op == Opcode::cond_wait_local) m_software_locks.erase(info);
            return;
        }
        const uint64_t flags = reply->info;
        const bool retry = flags & abort_info::kRetry;
        if (op == Opcode::cond_wait_local) {
            // A spurious wake-up. Unless the SE already released the lock, the
            // core gives it up here, so that the re-acquisition that follows
            // every cond_wait finds it free to compete for.
            if (flags & abort_info::kLockReleased)
                m_software_locks.erase(info);
            else
                request(core, Opcode::lock_release_local, info, 0);
            if (!retry) notify(core, var);
            return;
        }
        if (retry) {
            ++m_retries;
            core.compute(m_retry_backoff);
            continue;
        }
        ++m_fallbacks;
        const Message m = to_server(core, op, var, info);
        if (!core.exchange(server_of(var), m, grant_of(op), grant_of(op))) return;
        if (op == Opcode::lock_acquire_local) m_software_locks.insert(var);
        notify(core, var);
        return;
    }
}

} // namespace syncron
