#pragma once
// The remote_atomics scheme (docs/schemes.md): no synchronization hardware
// besides read-modify-write units in the vault controllers; every primitive
// is a spin-wait on the variable's words at its home vault (what GPUs and
// HMC offer instead of SynCron). The variable's syncronVar bytes hold:
//   lock       word 0: 0 when free, else the owner's global ID + 1
//   barrier    word 0: arrivals in this episode, word 1: episode number
//   semaphore  word 0: posts minus grants (two's complement); a wait succeeds
//              while initial resources + word 0 > 0
//   condvar    word 0: signal sequence number
// A failed attempt backs off exponentially (atomics.backoff_min doubling up
// to atomics.backoff_max instructions, plus a seeded jitter below it) before
// retrying. cond_signal wakes every waiter of that moment (they re-check
// their predicate, as after any spurious wake-up). One client per core.
#include <cstdint>
#include <random>

#include "models/common/params.h"
#include "models/core/sync_client.h"

namespace syncron {

class CoreServices;

class AtomicsClient final : public SyncClient {
public:
    AtomicsClient(const AtomicsParams& params, uint64_t seed, unsigned core_id);

    void request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) override;
    /// the vault's atomic (min/max: a compare-and-swap loop there).
    uint64_t rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) override;

    uint64_t failed_attempts() const { return m_failed; }

private:
    void acquire(CoreServices& core, uint64_t lock);
    void release(CoreServices& core, uint64_t lock);
    void barrier(CoreServices& core, uint64_t b, uint64_t participants);
    void sem_wait(CoreServices& core, uint64_t s, uint64_t initial);
    void cond_wait(CoreServices& core, uint64_t c, uint64_t lock);
    /// Backs off after the `failures`-th failed attempt of one call.
    void back_off(CoreServices& core, unsigned failures);

    AtomicsParams m_params;
    std::mt19937_64 m_rng;
    uint64_t m_failed = 0;
};

} // namespace syncron
