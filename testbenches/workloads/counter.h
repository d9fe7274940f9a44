#pragma once
// The counter microbenchmark (docs/workloads.md; the model extension of paper
// §6, an ALU in the SE): every client core adds 1 to shared counters, by an
// SE read-modify-write, under a lock, or with a vault atomic.
#include <memory>

#include "models/common/params.h"
#include "models/core/workload.h"

namespace syncron {

/// Updates per core when workload.ops is unset.
constexpr unsigned kCounterOps = 100;

/// Builds it; throws std::invalid_argument for a bad workload.counter_update.
std::unique_ptr<Workload> make_counter(const WorkloadParams& params);

} // namespace syncron
