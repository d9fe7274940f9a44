#include "models/schemes/misar_scheme.h"

#include <nlohmann/json.hpp>

#include "models/schemes/scheme_platform.h"

namespace syncron {

void MisarScheme::configure(SeTopology& topology) const {
    topology.overflow = OverflowPolicy::abort;
    if (per_unit())
        topology.fallback_server = topology.home_unit;
    else
        topology.fallback_server = [](uint64_t) { return 0u; };
}

void MisarScheme::build_clients(SchemePlatform& platform) {
    const SeTopology* topology = &platform.topology();
    for (unsigned i = 0; i < platform.client_cores(); ++i) {
        m_clients.push_back(std::make_unique<MisarClient>(
            platform.address_map(), topology->fallback_server,
            [topology](unsigned u) { return topology->server_core(u); }, platform.params().misar.retry_backoff));
        platform.client_core(i).set_sync_client(m_clients.back().get());
    }
}

void MisarScheme::report_stats(const StatContext& ctx, nlohmann::json& out) const {
    ServerScheme::report_stats(ctx, out);
    uint64_t fallbacks = 0, retries = 0;
    for (const auto& c : m_clients) fallbacks += c->fallbacks(), retries += c->retries();
    out["misar"] = {
        {"aborts", platform().messages_sent(Opcode::abort_local)}, {"fallbacks", fallbacks}, {"retries", retries}};
}

} // namespace syncron
