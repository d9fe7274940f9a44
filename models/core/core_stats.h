#pragma once
// An NDP core's statistics (docs/stats.md, "cores"): counted by the core and
// by its parts (coherent L1, bus, reply slot), reported by NdpCore.
#include <array>
#include <cstdint>

#include <systemc>

#include "models/common/latency_samples.h"
#include "models/protocol/coherence.h"
#include "models/protocol/opcode.h"

namespace syncron {

/// The Table 2 calls that block until a grant; the core samples each one's
/// request-to-grant latency (docs/stats.md, "sync_latency").
enum class BlockingCall : unsigned {
    lock_acquire,
    barrier_wait_within_unit,
    barrier_wait_across_units,
    sem_wait,
    cond_wait, ///< the whole call: the wait and the lock's re-acquisition
    count
};
constexpr unsigned kBlockingCalls = static_cast<unsigned>(BlockingCall::count);
const char* blocking_call_name(BlockingCall c);

struct CoreStats {
    uint64_t instructions = 0; ///< compute() instructions + one per load/store/Table 2 message
    uint64_t loads = 0;
    uint64_t stores = 0;
    uint64_t l1_hits = 0;
    uint64_t l1_misses = 0;
    uint64_t l1_writebacks = 0;
    std::array<uint64_t, kOpcodeCount> messages_sent{};     ///< indexed by Opcode
    std::array<uint64_t, kOpcodeCount> messages_received{}; ///< mailbox, indexed by Opcode
    uint64_t sync_ops = 0;                                  ///< Table 2 calls completed (cond_wait counts once)
    std::array<uint64_t, 3> atomics{};                      ///< atomics issued, indexed by AtomicOp
    /// Coherence (docs/coherence.md): requests sent and probes answered,
    /// indexed by CoherenceMsg; probes held until the access they raced
    /// with was performed; atomics performed in the L1.
    std::array<uint64_t, kCoherenceMsgCount> coherence_sent{};
    std::array<uint64_t, kCoherenceMsgCount> coherence_probes{};
    uint64_t coherence_deferred = 0;
    uint64_t coherent_atomics = 0;
    uint64_t cas_failures = 0;                              ///< compare-and-swaps that found another value
    sc_core::sc_time ack_wait_time = sc_core::SC_ZERO_TIME; ///< issue-to-ACK time of every req_sync
    sc_core::sc_time finish_time = sc_core::SC_ZERO_TIME;
    /// Request-to-grant latency of every blocking call, indexed by BlockingCall:
    /// from the core's local time at the call to its local time at the grant.
    std::array<LatencySamples, kBlockingCalls> sync_latency{};
    /// Multi-threaded cores (docs/ndp_core.md): time this context waited for
    /// its core's pipeline (switches included) and times it took the
    /// pipeline over from another context.
    sc_core::sc_time pipeline_wait = sc_core::SC_ZERO_TIME;
    uint64_t context_switches = 0;

    uint64_t messages(Opcode op) const { return messages_sent[static_cast<unsigned>(op)]; }
};

} // namespace syncron
