#pragma once
// The core side of the MiSAR-style schemes (syncron_central_ovrfl,
// syncron_distrib_ovrfl; docs/schemes.md, docs/protocol.md "MiSAR-style
// abort overflow", "The core's side"). Every request goes to the core's SE
// as under SynCron; an acquire-type request may come back as abort_local
// instead of its grant:
//  - kRetry: the variable is busy in hardware but this unit's SE cannot
//    buffer it: back off misar.retry_backoff instructions and send again;
//  - cond_wait: a spurious wake-up (the lock is given up and taken again);
//  - otherwise the Master SE has diverted the operation to software: send the
//    same request to the fallback server core and wait for its grant there.
//    Once the operation is finished in software (a barrier or semaphore wait
//    at its grant, a lock once released through the SE) the core notifies
//    its own SE with decrease_indexing_counter, unless that SE is the
//    variable's Master SE (which hears from the server instead).
// Releases always go through the SE, which routes them to the server while
// the variable is in software. One client per core (it remembers the locks
// it owes a notification for).
#include <cstdint>
#include <functional>
#include <unordered_set>

#include "models/core/sync_client.h"

namespace syncron {

class AddressMap;
class CoreServices;
struct Message;

class MisarClient final : public SyncClient {
public:
    /// fallback_unit(var): the unit whose server core serves `var` in
    /// software; server_core(unit): that core's local ID.
    MisarClient(const AddressMap& map, std::function<unsigned(uint64_t)> fallback_unit,
                std::function<unsigned(unsigned)> server_core, unsigned retry_backoff);

    void request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) override;
    /// As syncron: the own SE relays it to the Master SE, which never aborts
    /// an rmw (it needs no ST entry).
    uint64_t rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) override;

    uint64_t fallbacks() const { return m_fallbacks; }
    uint64_t retries() const { return m_retries; }

private:
    uint64_t server_of(uint64_t var) const;
    /// decrease_indexing_counter to the core's own SE, unless it is the Master SE of `var`.
    void notify(CoreServices& core, uint64_t var);
    /// A lock taken from the server has now been released through the SE.
    void released(CoreServices& core, uint64_t lock);

    const AddressMap& m_map;
    std::function<unsigned(uint64_t)> m_fallback_unit;
    std::function<unsigned(unsigned)> m_server_core;
    unsigned m_retry_backoff;
    std::unordered_set<uint64_t> m_software_locks; ///< taken from the server, notification owed
    uint64_t m_fallbacks = 0;
    uint64_t m_retries = 0;
};

} // namespace syncron
