#pragma once
// The "lock_fairness" statistics of a run (docs/stats.md): how the lock
// acquisitions and the waits for them spread over the client cores and the
// units, and, when the SEs served the locks, how often a hand-off kept the
// lock inside a unit or moved it to another (the local grant threshold,
// paper §4 and §6, trades the one against the other).
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/latency_samples.h"
#include "models/se/core/se_core_stats.h"

namespace syncron {

struct LockFairnessInput {
    /// Per client core, by global ID: its lock_acquire request-to-grant samples.
    std::vector<const LatencySamples*> waits;
    std::vector<unsigned> unit_of_core; ///< per client core
    unsigned units = 0;
    /// The SEs' counters when the SEs served the locks; empty otherwise (no hand-off counts).
    std::vector<const SeCoreStats*> ses;
    double ticks_per_ns = 1000;
};

/// The lock_fairness object; null when no core acquired a lock.
nlohmann::json lock_fairness_report(const LockFairnessInput& in);

} // namespace syncron
