#pragma once
// The part every scheme with software server cores shares (central, hier
// and the MiSAR-style fallbacks; docs/schemes.md): it owns the server cores
// the platform built for it, gives each a SyncServer program with its
// software table, and reports the servers' statistics. A subclass says
// where the servers are and builds the clients.
#include <memory>
#include <vector>

#include "models/schemes/sync_scheme.h"
#include "models/schemes/sync_server.h"

namespace syncron {

class ServerScheme : public SyncScheme {
public:
    unsigned servers_in(unsigned unit) const override { return m_per_unit || unit == 0 ? 1 : 0; }
    void adopt_server(std::unique_ptr<NdpCore> core) override;
    /// The server programs, then build_clients().
    void build(SchemePlatform& platform) override;
    std::vector<NdpCore*> server_cores() const override;
    /// "servers" (one entry per server core) and "server_busy_fraction".
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;

protected:
    /// `per_unit`: one server in every unit (else one, in unit 0).
    ServerScheme(SyncServer::Role role, bool per_unit) : m_role(role), m_per_unit(per_unit) {}
    virtual void build_clients(SchemePlatform& platform) = 0;
    bool per_unit() const { return m_per_unit; }
    /// The platform built into (statistics).
    const SchemePlatform& platform() const { return *m_platform; }

private:
    SyncServer::Role m_role;
    bool m_per_unit;
    const SchemePlatform* m_platform = nullptr;
    std::vector<std::unique_ptr<NdpCore>> m_cores;
    std::vector<std::unique_ptr<SyncServer>> m_servers; ///< the program of m_cores[i]
};

} // namespace syncron
