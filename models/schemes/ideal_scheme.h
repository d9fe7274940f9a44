#pragma once
// Synchronization that costs no time and no traffic but keeps its semantics
// (docs/schemes.md, "ideal"): one IdealHub answers every request by a direct
// call. The SEs receive nothing; the statistics add the hub's requests.
#include <memory>
#include <vector>

#include "models/schemes/ideal_client.h"
#include "models/schemes/ideal_hub.h"
#include "models/schemes/sync_scheme.h"

namespace syncron {

class IdealScheme final : public SyncScheme {
public:
    Scheme kind() const override { return Scheme::ideal; }
    bool uses_ses() const override { return false; }
    void build(SchemePlatform& platform) override;
    /// "ideal": the requests the hub served.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;

private:
    std::vector<CoreServices*> m_cores; ///< by flat index (unit * cores_per_unit + local ID)
    std::unique_ptr<IdealHub> m_hub;
    std::unique_ptr<IdealClient> m_client; ///< one for every core
};

} // namespace syncron
