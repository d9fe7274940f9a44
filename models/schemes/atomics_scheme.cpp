#include "models/schemes/atomics_scheme.h"

#include <nlohmann/json.hpp>

#include "models/schemes/scheme_platform.h"

namespace syncron {

void AtomicsScheme::build(SchemePlatform& platform) {
    m_platform = &platform;
    for (unsigned i = 0; i < platform.client_cores(); ++i) {
        NdpCore& c = platform.client_core(i);
        m_clients.push_back(
            std::make_unique<AtomicsClient>(platform.params().atomics, platform.params().workload.seed, c.global_id()));
        c.set_sync_client(m_clients.back().get());
    }
}

void AtomicsScheme::report_stats(const StatContext&, nlohmann::json& out) const {
    uint64_t ops[3] = {0, 0, 0}, failures = 0, attempts_failed = 0;
    for (unsigned i = 0; i < m_platform->client_cores(); ++i) {
        const NdpCore::Stats& s = m_platform->client_core(i).stats();
        for (unsigned k = 0; k < 3; ++k) ops[k] += s.atomics[k];
        failures += s.cas_failures;
    }
    for (const auto& c : m_clients) attempts_failed += c->failed_attempts();
    out["atomics"] = {{"cas", ops[0]},
                      {"swap", ops[1]},
                      {"faa", ops[2]},
                      {"cas_failures", failures},
                      {"failed_attempts", attempts_failed}};
}

} // namespace syncron
