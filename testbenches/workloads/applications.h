#pragma once
// The paper's real applications (docs/workloads.md): six graph kernels in
// the push style of the Crono suite and the SCRIMP matrix profile.
#include <memory>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "models/core/workload.h"

namespace syncron {

class WorkloadRegistry;

/// bfs, cc, sssp, pr, tf, tc, ts in the order --help lists them.
const std::vector<std::string>& application_names();
/// Registers every application (family "applications").
void register_applications(WorkloadRegistry& registry);

std::unique_ptr<Workload> make_bfs(const WorkloadParams& p);
std::unique_ptr<Workload> make_cc(const WorkloadParams& p);
std::unique_ptr<Workload> make_sssp(const WorkloadParams& p);
std::unique_ptr<Workload> make_pr(const WorkloadParams& p);
/// pr with workload.pr_style=pull (CRONO's pagerank_lock.cc); make_pr chooses it.
std::unique_ptr<Workload> make_pr_pull(const WorkloadParams& p);
std::unique_ptr<Workload> make_tf(const WorkloadParams& p);
std::unique_ptr<Workload> make_tc(const WorkloadParams& p);
std::unique_ptr<Workload> make_ts(const WorkloadParams& p);

/// workload.ops when unset: PageRank's iterations (the others run to completion).
constexpr unsigned kApplicationOps = 10;

} // namespace syncron
