#include "platforms/workload_registry.h"

#include <stdexcept>

namespace syncron {

WorkloadRegistry& WorkloadRegistry::instance() {
    static WorkloadRegistry registry;
    return registry;
}

void WorkloadRegistry::add(const std::string& name, Factory factory) {
    if (m_factories.count(name) == 0) m_names.push_back(name);
    m_factories[name] = std::move(factory);
}

bool WorkloadRegistry::has(const std::string& name) const { return m_factories.count(name) != 0; }

std::unique_ptr<Workload> WorkloadRegistry::make(const WorkloadParams& params) const {
    const auto it = m_factories.find(params.name);
    if (it == m_factories.end()) {
        std::string known;
        for (const std::string& n : m_names) known += (known.empty() ? "" : ", ") + n;
        throw std::invalid_argument("unknown workload '" + params.name +
                                    "' (known: " + (known.empty() ? "none registered" : known) + ")");
    }
    return it->second(params);
}

} // namespace syncron
