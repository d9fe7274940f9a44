#pragma once
// One simulation run from a validated configuration: elaborate the platform,
// load the workload, simulate, check the workload's invariants, collect
// statistics. Statistics are collected whether or not the run succeeded.
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "models/common/params.h"
#include "testbenches/workloads/workload.h"

namespace syncron {

class NdpPlatform;

struct SimulationResult {
    bool ok = false;          ///< finished, no error, invariants hold
    std::string error;        ///< why not
    CheckResult check;        ///< the workload's invariant check
    uint64_t operations = 0;
    double simulated_ns = 0;
    double host_seconds = 0;      ///< elaboration + simulation + checks
    double host_run_seconds = 0;  ///< sc_start only
    nlohmann::json stats;     ///< everything, see docs/stats.md
};

/// Runs one simulation. A SystemC kernel elaborates once per process, so
/// call this at most once per process. `before_run` may attach observers.
SimulationResult simulate(const SimParams& params,
                          const std::function<void(NdpPlatform&)>& before_run = {});
/// The same with a workload of the caller's instead of params.workload.name.
SimulationResult simulate(const SimParams& params, std::unique_ptr<Workload> workload,
                          const std::function<void(NdpPlatform&)>& before_run = {});

/// A one-screen summary of a result.
std::string summary(const SimulationResult& r);

} // namespace syncron
