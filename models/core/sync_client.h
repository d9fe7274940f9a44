#pragma once
// How a core carries out the Table 2 calls under one synchronization scheme
// (docs/schemes.md). NdpCore turns every CoreApi synchronization call into
// one request() with the call's local-level opcode (cond_wait is two:
// cond_wait_local, then lock_acquire_local on its lock); the scheme's client
// decides what that costs: messages to an SE or a server core, spinning on
// remote atomics, or nothing at all (ideal), through the core's
// CoreServices. The platform injects a scheme's client into every core;
// workloads never see it.
#include <cstdint>

#include "models/protocol/opcode.h"
#include "models/protocol/rmw.h"

namespace syncron {

class CoreServices;

class SyncClient {
public:
    virtual ~SyncClient() = default;
    /// Performs one request for `core`, in that core's thread. `op` is one of
    /// the core requests of Table 3 (is_core_request); `info` its
    /// MessageInfo (barrier: initial cores, semaphore: initial resources,
    /// cond_wait: the lock). Returns when the call may commit: on the grant
    /// for acquire-type requests, once issued for release-type ones.
    virtual void request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) = 0;
    /// CoreApi::atomic_rmw for `core` (address checked by the core): the
    /// scheme's natural read-modify-write (docs/schemes.md). Returns the old value.
    virtual uint64_t rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) = 0;
};

} // namespace syncron
