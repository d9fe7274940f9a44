#pragma once
// Workloads by name. The platform runs whatever is registered here; the
// workloads themselves live with the stimulus (testbenches/workloads) and are
// registered by the program that links them (register_builtin_workloads), so
// the platform layer never includes a testbench.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "models/core/workload.h"

namespace syncron {

/// How `--cores N` places client cores when `--units` is not given.
enum class CoreMapping {
    spread,    ///< keep the platform's units, spread the cores evenly (the microbenchmarks)
    fill_units ///< one unit per cores-per-unit clients (15 on hmc4), as the paper scales its data structures
};

/// What the registry knows of a workload besides how to build it.
struct WorkloadInfo {
    std::function<std::unique_ptr<Workload>(const WorkloadParams&)> factory;
    unsigned default_ops = 100; ///< workload.ops when it is unset
    CoreMapping mapping = CoreMapping::spread;
    std::string family; ///< what --help groups it under, e.g. "microbenchmark"
    /// The input files it reads, by their workload key ("graph", "series"):
    /// --graph or --series given to a workload that reads no such file is an error.
    std::vector<std::string> inputs = {};
    /// Reads and checks its input files, and that what they describe fits the
    /// platform, before anything is built (std::invalid_argument naming the
    /// file and line, or the key); empty: it reads none.
    std::function<void(const SimParams&)> check_inputs = {};
    /// Accepts workload.use_se_atomics: it has lock-protected updates of shared
    /// words that it can make with CoreApi::atomic_rmw instead.
    bool se_atomics = false;
};

class WorkloadRegistry {
public:
    using Factory = std::function<std::unique_ptr<Workload>(const WorkloadParams&)>;

    /// The process-wide registry that simulate() and the configuration use.
    static WorkloadRegistry& instance();

    /// Adds (or replaces) `name`.
    void add(const std::string& name, WorkloadInfo info);
    /// Adds (or replaces) `name` with the default WorkloadInfo.
    void add(const std::string& name, Factory factory);
    bool has(const std::string& name) const;
    /// Registered names, in registration order.
    const std::vector<std::string>& names() const { return m_names; }
    /// What is registered for `name`; std::invalid_argument naming the known
    /// workloads when it is not registered.
    const WorkloadInfo& info(const std::string& name) const;
    /// `params` with what is unset filled from the workload's defaults
    /// (workload.ops); the workload fills its own size and mix.
    WorkloadParams resolve(WorkloadParams params) const;
    /// Builds params.name (resolved first); throws std::invalid_argument
    /// naming the known workloads when it is not registered.
    std::unique_ptr<Workload> make(const WorkloadParams& params) const;

private:
    std::vector<std::string> m_names;
    std::map<std::string, WorkloadInfo> m_workloads;
};

} // namespace syncron
