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

class WorkloadRegistry {
public:
    using Factory = std::function<std::unique_ptr<Workload>(const WorkloadParams&)>;

    /// The process-wide registry that simulate() and the configuration use.
    static WorkloadRegistry& instance();

    /// Adds (or replaces) the factory for `name`.
    void add(const std::string& name, Factory factory);
    bool has(const std::string& name) const;
    /// Registered names, in registration order.
    const std::vector<std::string>& names() const { return m_names; }
    /// Builds params.name; throws std::invalid_argument naming the known
    /// workloads when it is not registered.
    std::unique_ptr<Workload> make(const WorkloadParams& params) const;

private:
    std::vector<std::string> m_names;
    std::map<std::string, Factory> m_factories;
};

} // namespace syncron
