#pragma once
// The programming interface a workload sees on an NDP core: computation,
// loads and stores on simulated memory, and the SynCron calls of paper Table 2.
// Workloads are written once against it; every synchronization scheme plugs in
// behind it.
#include <cstdint>

#include "models/protocol/rmw.h"

namespace syncron {

using SyncVar = uint64_t; ///< opaque pointer returned by create_syncvar (its address)

/// The widest load or store: one 64-bit word.
inline constexpr unsigned kWordBytes = 8;

class CoreApi {
public:
    virtual ~CoreApi() = default;

    virtual unsigned unit() const = 0;      ///< NDP unit of this core
    virtual unsigned local_id() const = 0;  ///< ID within the unit
    virtual unsigned global_id() const = 0; ///< index among all client cores

    /// Run n non-memory instructions (in order, 1 IPC).
    virtual void compute(uint64_t instructions) = 0;
    /// Loads and stores of 1..8 bytes, little-endian.
    virtual uint64_t load(uint64_t addr, unsigned size) = 0;
    virtual void store(uint64_t addr, uint64_t value, unsigned size) = 0;

    // Table 2. Acquire-type calls return when the local SE's ACK arrives.
    virtual void lock_acquire(SyncVar lock) = 0;
    virtual void lock_release(SyncVar lock) = 0;
    virtual void barrier_wait_within_unit(SyncVar barrier, unsigned initial_cores) = 0;
    virtual void barrier_wait_across_units(SyncVar barrier, unsigned initial_cores) = 0;
    virtual void sem_wait(SyncVar sem, unsigned initial_resources) = 0;
    virtual void sem_post(SyncVar sem) = 0;
    /// Releases `lock`, waits for a signal, re-acquires `lock` before returning.
    virtual void cond_wait(SyncVar cond, SyncVar lock) = 0;
    virtual void cond_signal(SyncVar cond) = 0;
    virtual void cond_broadcast(SyncVar cond) = 0;

    /// Model extension (paper §6): an atomic read-modify-write of the 8-byte
    /// aligned word at `addr` (RmwOp; `expected` for cas only), carried out
    /// by the scheme (docs/schemes.md: SynCron's SEs execute it at the
    /// word's Master SE). Returns the word's old value.
    virtual uint64_t atomic_rmw(uint64_t addr, RmwOp op, uint64_t operand, uint64_t expected = 0) = 0;
    /// The same operation at the word's home vault (the remote_atomics
    /// scheme's atomic units; min/max as a compare-and-swap loop there),
    /// whatever the scheme. Returns the word's old value.
    virtual uint64_t vault_rmw(uint64_t addr, RmwOp op, uint64_t operand, uint64_t expected = 0) = 0;
};

} // namespace syncron
