#pragma once
// The mesi_lock scheme (docs/schemes.md): the primitives in software on
// coherent atomics, as a multicore without synchronization hardware runs
// them. The variable's syncronVar is one coherent, cacheable line (the MESI
// directory of docs/coherence.md keeps it); every word below is in it:
//   lock       word 0: 0 when free, else the owner's global ID + 1
//              (test-and-test-and-set with back-off, libslock's ttas.c)
//   barrier    word 0: arrivals in this episode, word 1: sense (0 / 1)
//              (sense-reversing centralized barrier, Mellor-Crummey & Scott 1991)
//   semaphore  word 0: posts minus grants (two's complement); a wait succeeds
//              while initial resources + word 0 > 0
//   condvar    word 0: signal sequence number
// Waiters spin on plain loads (which hit in the L1 in S under coherence);
// only a load that sees the variable free is followed by an atomic. A failed
// atomic backs off as libslock does: a random delay below a per-variable
// limit that doubles per failure up to mesi_lock.backoff_max and is never
// reset. cond_signal wakes every waiter of that moment (they re-check their
// predicate, as after any spurious wake-up). One client per core.
#include <cstdint>
#include <random>
#include <unordered_map>

#include "models/common/params.h"
#include "models/core/sync_client.h"

namespace syncron {

class CoreServices;
enum class AtomicOp : uint8_t;

class MesiLockClient final : public SyncClient {
public:
    /// What the client issued (docs/stats.md, "mesi_lock").
    struct Stats {
        uint64_t loads = 0, stores = 0;
        uint64_t cas = 0, swap = 0, faa = 0;
        uint64_t failed_attempts = 0; ///< atomics that did not take the variable (each backed off)
        uint64_t spin_loads = 0;      ///< spin iterations: loads that saw the variable still taken / unchanged
        uint64_t backoff_cycles = 0;  ///< cycles spent backing off
    };

    MesiLockClient(const MesiLockParams& params, uint64_t seed, unsigned core_id);

    void request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) override;
    /// core.atomic: a coherent atomic in the L1 for a coherent line, else the vault's.
    uint64_t rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) override;

    const Stats& stats() const { return m_stats; }

private:
    void acquire(CoreServices& core, uint64_t lock);
    void release(CoreServices& core, uint64_t lock);
    void barrier(CoreServices& core, uint64_t b, uint64_t participants);
    void sem_wait(CoreServices& core, uint64_t s, uint64_t initial);
    void cond_wait(CoreServices& core, uint64_t c, uint64_t lock);
    /// libslock's back-off after a failed atomic on `var`.
    void back_off(CoreServices& core, uint64_t var);
    /// One failed spin iteration besides its load (the compare-and-branch).
    void spin(CoreServices& core);

    uint64_t load(CoreServices& core, uint64_t addr);
    void store(CoreServices& core, uint64_t addr, uint64_t value);
    uint64_t atomic(CoreServices& core, AtomicOp op, uint64_t addr, uint64_t operand, uint64_t compare);

    MesiLockParams m_params;
    std::mt19937_64 m_rng;
    /// Back-off limit per variable (libslock keeps one per thread and lock).
    std::unordered_map<uint64_t, uint64_t> m_limits;
    /// Local sense per barrier (the processor-private local_sense of MCS).
    std::unordered_map<uint64_t, bool> m_sense;
    Stats m_stats;
};

} // namespace syncron
