#pragma once
// SynCron with MiSAR-style overflow (docs/schemes.md,
// "syncron_central_ovrfl / syncron_distrib_ovrfl"): hierarchical SEs that
// abort what their ST cannot hold to a software fallback server, in unit 0
// (central) or in the variable's home unit (distrib). Every core gets its
// own MisarClient; the statistics add the aborts, fallbacks and retries.
#include <memory>
#include <vector>

#include "models/schemes/misar_client.h"
#include "models/schemes/server_scheme.h"

namespace syncron {

class MisarScheme final : public ServerScheme {
public:
    /// `kind`: syncron_central_ovrfl or syncron_distrib_ovrfl.
    explicit MisarScheme(Scheme kind)
        : ServerScheme(SyncServer::Role::fallback, kind == Scheme::syncron_distrib_ovrfl), m_kind(kind) {}
    Scheme kind() const override { return m_kind; }
    bool uses_ses() const override { return true; }
    void configure(SeTopology& topology) const override;
    /// The servers', then "misar".
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;

private:
    void build_clients(SchemePlatform& platform) override;

    Scheme m_kind;
    std::vector<std::unique_ptr<MisarClient>> m_clients; ///< one per client core
};

} // namespace syncron
