#include "models/schemes/server_scheme.h"

#include <nlohmann/json.hpp>

#include "models/schemes/scheme_platform.h"

namespace syncron {

namespace {
constexpr uint64_t kSlotBytes = 64; ///< one table entry per 64 B line
} // namespace

void ServerScheme::adopt_server(std::unique_ptr<NdpCore> core) {
    core->set_server_mailbox(true);
    m_cores.push_back(std::move(core));
}

void ServerScheme::build(SchemePlatform& platform) {
    m_platform = &platform;
    // The lambdas outlive this call: they hold the platform's map and topology.
    const AddressMap* map = &platform.address_map();
    const SeTopology* topology = &platform.topology();
    const SimParams& params = platform.params();
    const unsigned cpu = params.platform.cores_per_unit;
    const auto server_core = [topology](unsigned u) { return topology->server_core(u); };
    for (auto& sc : m_cores) {
        const unsigned u = sc->unit();
        SyncServer::Config c;
        c.unit = u;
        c.params = params.server;
        c.role = m_role;
        c.cached = m_per_unit ? params.server.per_unit_cached : params.server.central_cached;
        c.table_base = platform.allocate(u, uint64_t(params.server.table_entries) * kSlotBytes,
                                         c.cached ? Sharing::private_data : Sharing::shared);
        c.topology = *topology;
        c.topology.overflow = OverflowPolicy::integrated;
        if (m_role == SyncServer::Role::hier) {
            c.topology.organization = SeOrganization::hierarchical;
            c.address_of = [map, u, server_core](const Outgoing& o) {
                return o.dest == Outgoing::Dest::core ? map->mailbox_address(u, o.id)
                                                      : map->mailbox_address(o.id, server_core(o.id));
            };
        } else {
            // Every client is the server's own core; every variable is its own.
            c.topology.organization = SeOrganization::flat;
            c.topology.home_unit = [u](uint64_t) { return u; };
            // Central's clients reach it by one path (SyncServer gives it a
            // SinglePathOrganization); a fallback server also gets releases
            // relayed by the Master SEs.
            c.address_of = [map, cpu, server_core](const Outgoing& o) {
                switch (o.dest) {
                case Outgoing::Dest::core: return map->mailbox_address(o.id / cpu, o.id % cpu);
                case Outgoing::Dest::server: return map->mailbox_address(o.id, server_core(o.id));
                default: return map->se_address(o.id);
                }
            };
        }
        c.master_se_of = [map](uint64_t var) { return map->se_address(map->is_memory(var) ? map->home_unit(var) : 0); };
        m_servers.push_back(std::make_unique<SyncServer>(std::move(c)));
        SyncServer* server = m_servers.back().get();
        NdpCore* core = sc.get();
        core->set_program([server, core](CoreApi&) { server->run(*core); });
    }
    build_clients(platform);
}

std::vector<NdpCore*> ServerScheme::server_cores() const {
    std::vector<NdpCore*> out;
    for (const auto& c : m_cores) out.push_back(c.get());
    return out;
}

void ServerScheme::report_stats(const StatContext&, nlohmann::json& out) const {
    if (m_servers.empty()) return;
    const sc_core::sc_time finish = m_platform->finish_time();
    nlohmann::json servers = nlohmann::json::array();
    double busy_sum = 0;
    for (size_t i = 0; i < m_servers.size(); ++i) {
        const SyncServer& sv = *m_servers[i];
        const NdpCore& core = *m_cores[i];
        const double busy_ns = sv.stats().busy.to_seconds() * 1e9;
        const double frac = finish > sc_core::SC_ZERO_TIME ? busy_ns / (finish.to_seconds() * 1e9) : 0.0;
        busy_sum += frac;
        nlohmann::json sj = {{"unit", sv.unit()},
                             {"core", core.local_id()},
                             {"messages_handled", sv.stats().handled},
                             {"busy_ns", busy_ns},
                             {"busy_fraction", frac},
                             {"instructions", core.stats().instructions},
                             {"table_occupancy", sv.se_core().table().occupancy()}};
        if (sv.role() == SyncServer::Role::fallback) {
            sj["reports"] = sv.stats().reports;
            sj["diverted_served"] = sv.stats().diverted_served;
            sj["unreported"] = sv.unreported();
        }
        servers.push_back(sj);
    }
    out["servers"] = servers;
    out["server_busy_fraction"] = busy_sum / m_servers.size();
}

} // namespace syncron
