#include "platforms/workload_registry.h"

#include <stdexcept>

namespace syncron {

WorkloadRegistry& WorkloadRegistry::instance() {
    static WorkloadRegistry registry;
    return registry;
}

void WorkloadRegistry::add(const std::string& name, WorkloadInfo info) {
    if (m_workloads.count(name) == 0) m_names.push_back(name);
    m_workloads[name] = std::move(info);
}

void WorkloadRegistry::add(const std::string& name, Factory factory) {
    WorkloadInfo info;
    info.factory = std::move(factory);
    add(name, std::move(info));
}

bool WorkloadRegistry::has(const std::string& name) const { return m_workloads.count(name) != 0; }

const WorkloadInfo& WorkloadRegistry::info(const std::string& name) const {
    const auto it = m_workloads.find(name);
    if (it == m_workloads.end()) {
        std::string known;
        for (const std::string& n : m_names) known += (known.empty() ? "" : ", ") + n;
        throw std::invalid_argument("unknown workload '" + name +
                                    "' (known: " + (known.empty() ? "none registered" : known) + ")");
    }
    return it->second;
}

WorkloadParams WorkloadRegistry::resolve(WorkloadParams params) const {
    if (!params.ops) params.ops = info(params.name).default_ops;
    return params;
}

std::unique_ptr<Workload> WorkloadRegistry::make(const WorkloadParams& params) const {
    return info(params.name).factory(resolve(params));
}

} // namespace syncron
