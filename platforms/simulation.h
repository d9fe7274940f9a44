#pragma once
// One simulation run from a validated configuration: elaborate the platform,
// load the workload, simulate, check the workload's invariants, collect
// statistics. Statistics are collected whether or not the run succeeded.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/params.h"
#include "models/core/workload.h"

namespace syncron {

class NdpPlatform;

/// What to record besides statistics (docs/traces.md). Empty paths: off.
struct TraceOptions {
    std::string vcd;            ///< --vcd
    std::string filter = "*";   ///< --trace-filter (VCD signal names, glob, comma-separated)
    std::vector<uint64_t> vars; ///< --trace-var: synchronization variables to show in the VCD
    bool first_var = false;     ///< --trace-var first: also the first variable the workload created
    std::string gtkw;           ///< --gtkw: GTKWave save file for the VCD's signals (needs vcd)
    std::string db;             ///< --trace-db (SQLite)
    std::string json;           ///< --trace-json (trace-event timeline)
    bool progress = true;       ///< progress line on stderr when it is a terminal
    bool any() const { return !vcd.empty() || !db.empty() || !json.empty(); }
};

struct SimulationResult {
    bool ok = false;          ///< finished, no error, invariants hold, every trace file complete
    bool interrupted = false; ///< a stop signal (StopSignals) ended the run early
    /// The error is the user's input (ConfigError: a parameter combination,
    /// a --trace-var or --trace-filter naming nothing of this run), found
    /// before anything was simulated; no trace file was kept.
    bool bad_input = false;
    std::string error; ///< why not
    CheckResult check; ///< the workload's invariant check
    uint64_t operations = 0;
    double simulated_ns = 0;
    double host_seconds = 0;     ///< elaboration + simulation + checks
    double host_run_seconds = 0; ///< sc_start only
    /// sc_start only, CPU time of the process (what syncron-bench divides:
    /// unlike wall time it does not grow when other work shares the host).
    double host_run_cpu_seconds = 0;
    nlohmann::json stats; ///< everything, see docs/stats.md
};

/// SIGINT, SIGTERM and SIGHUP while an object lives: the first of them asks
/// the run to stop at its next check (NdpPlatform::request_stop; simulate()
/// then skips or ends the simulation and still writes statistics and closes
/// the traces), any second one kills the process (default action). Objects
/// may nest; the last one restores the handlers found by the first, except
/// that after a signal the default action stays, so a second signal kills.
class StopSignals {
public:
    StopSignals();
    ~StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    /// The first stop signal received in this process, 0 = none.
    static int received();
    /// "SIGTERM" etc.
    static std::string name(int signal);

private:
    struct Saved;
    std::unique_ptr<Saved> m_saved;
};

/// Runs one simulation. A SystemC kernel elaborates once per process, so
/// call this at most once per process. `before_run` may attach observers.
SimulationResult simulate(const SimParams& params, const std::function<void(NdpPlatform&)>& before_run = {});
/// The same with a workload of the caller's instead of params.workload.name.
SimulationResult simulate(const SimParams& params, std::unique_ptr<Workload> workload,
                          const std::function<void(NdpPlatform&)>& before_run = {});
/// The same with traces; `workload` may be null (then params.workload.name).
/// Trace files are opened before the simulation starts (a bad path is an
/// error with no simulation) and closed on every exit path, SIGINT included.
SimulationResult simulate(const SimParams& params, const TraceOptions& traces,
                          std::unique_ptr<Workload> workload = nullptr,
                          const std::function<void(NdpPlatform&)>& before_run = {});

/// A one-screen summary of a result.
std::string summary(const SimulationResult& r);

} // namespace syncron
