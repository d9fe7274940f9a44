#include "models/schemes/ideal_scheme.h"

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "models/schemes/scheme_platform.h"

namespace syncron {

void IdealScheme::build(SchemePlatform& platform) {
    const unsigned cpu = platform.params().platform.cores_per_unit;
    m_cores.assign(size_t(platform.params().platform.units) * cpu, nullptr);
    for (unsigned i = 0; i < platform.client_cores(); ++i) {
        NdpCore& c = platform.client_core(i);
        m_cores.at(c.unit() * cpu + c.local_id()) = &c;
    }
    m_hub = std::make_unique<IdealHub>(platform.topology(), [this](unsigned i) -> CoreServices& {
        CoreServices* core = m_cores.at(i);
        if (!core) throw std::out_of_range("ideal: no client core has flat index " + std::to_string(i));
        return *core;
    });
    m_client = std::make_unique<IdealClient>(*m_hub);
    inject_everywhere(platform, *m_client);
}

void IdealScheme::report_stats(const StatContext&, nlohmann::json& out) const {
    if (m_hub) out["ideal"] = {{"requests", m_hub->requests()}};
}

} // namespace syncron
