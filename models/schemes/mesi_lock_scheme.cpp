#include "models/schemes/mesi_lock_scheme.h"

#include <nlohmann/json.hpp>

#include "models/schemes/scheme_platform.h"

namespace syncron {

void MesiLockScheme::build(SchemePlatform& platform) {
    for (unsigned i = 0; i < platform.client_cores(); ++i) {
        NdpCore& c = platform.client_core(i);
        m_clients.push_back(std::make_unique<MesiLockClient>(platform.params().mesi_lock,
                                                             platform.params().workload.seed, c.global_id()));
        c.set_sync_client(m_clients.back().get());
    }
}

void MesiLockScheme::report_stats(const StatContext&, nlohmann::json& out) const {
    MesiLockClient::Stats sum;
    for (const auto& c : m_clients) {
        const MesiLockClient::Stats& s = c->stats();
        sum.loads += s.loads;
        sum.stores += s.stores;
        sum.cas += s.cas;
        sum.swap += s.swap;
        sum.faa += s.faa;
        sum.failed_attempts += s.failed_attempts;
        sum.spin_loads += s.spin_loads;
        sum.backoff_cycles += s.backoff_cycles;
    }
    out["mesi_lock"] = {{"loads", sum.loads},
                        {"stores", sum.stores},
                        {"cas", sum.cas},
                        {"swap", sum.swap},
                        {"faa", sum.faa},
                        {"failed_attempts", sum.failed_attempts},
                        {"spin_loads", sum.spin_loads},
                        {"backoff_cycles", sum.backoff_cycles}};
}

} // namespace syncron
