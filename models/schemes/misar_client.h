#pragma once
// The core side of the MiSAR-style schemes (syncron_central_ovrfl,
// syncron_distrib_ovrfl; docs/schemes.md, docs/protocol.md "MiSAR-style
// abort overflow"). Requests go to the core's SE as under SynCron; an
// acquire-type request may come back as abort_local instead of its grant:
//  - kRetry: the variable is busy in hardware but this unit's SE cannot
//    buffer it: back off misar.retry_backoff instructions and send again;
//  - otherwise the Master SE has diverted the variable to software: send the
//    same request to the fallback server core, wait for its grant there, then
//    notify with decrease_indexing_counter (to the server, which reports to
//    the Master SE once the variable is idle in software, and to the core's
//    own SE when that SE counted the diversion too).
// An aborted cond_wait is a spurious wake-up: the core returns holding its
// lock again (NdpCore re-acquires it next). Locks taken from the server are
// released at the server. One client per core (it remembers those locks).
#include <cstdint>
#include <functional>
#include <unordered_set>

#include "models/core/sync_client.h"

namespace syncron {

class AddressMap;
class NdpCore;
struct Message;

class MisarClient final : public SyncClient {
public:
    /// fallback_unit(var): the unit whose server core serves `var` in
    /// software; server_core(unit): that core's local ID.
    MisarClient(const AddressMap& map, std::function<unsigned(uint64_t)> fallback_unit,
                std::function<unsigned(unsigned)> server_core, unsigned retry_backoff);

    void request(NdpCore& core, Opcode op, uint64_t var, uint64_t info) override;

    uint64_t fallbacks() const { return m_fallbacks; }
    uint64_t retries() const { return m_retries; }

private:
    uint64_t server_of(uint64_t var) const;
    Message to_server(const NdpCore& core, Opcode op, uint64_t var, uint64_t info) const;
    void notify(NdpCore& core, uint64_t var);

    const AddressMap& m_map;
    std::function<unsigned(uint64_t)> m_fallback_unit;
    std::function<unsigned(unsigned)> m_server_core;
    unsigned m_retry_backoff;
    std::unordered_set<uint64_t> m_software_locks; ///< held through the server
    uint64_t m_fallbacks = 0;
    uint64_t m_retries = 0;
};

} // namespace syncron
