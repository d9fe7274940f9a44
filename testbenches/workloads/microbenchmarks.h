#pragma once
// The Figure 10 microbenchmarks (docs/workloads.md): lock, barrier,
// semaphore and condvar, written against CoreApi.
#include <memory>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "models/core/workload.h"

namespace syncron {

/// Operations per core when workload.ops is unset (docs/results.md: the
/// Figure 10 runs use 100).
constexpr unsigned kMicrobenchmarkOps = 100;

/// Their names, in the order --help lists them.
const std::vector<std::string>& microbenchmark_names();
/// Builds one by params.name; throws std::invalid_argument for another name
/// or a bad parameter.
std::unique_ptr<Workload> make_microbenchmark(const WorkloadParams& params);

} // namespace syncron
