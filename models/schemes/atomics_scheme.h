#pragma once
// Spin-waiting on remote atomics (docs/schemes.md, "remote_atomics"): every
// core gets its own AtomicsClient; no SE and no server is used. The
// statistics add the atomics issued and the failed attempts.
#include <memory>
#include <vector>

#include "models/schemes/atomics_client.h"
#include "models/schemes/sync_scheme.h"

namespace syncron {

class AtomicsScheme final : public SyncScheme {
public:
    Scheme kind() const override { return Scheme::remote_atomics; }
    bool uses_ses() const override { return false; }
    void build(SchemePlatform& platform) override;
    /// "atomics": by operation, compare-and-swap failures, failed attempts.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;

private:
    SchemePlatform* m_platform = nullptr;
    std::vector<std::unique_ptr<AtomicsClient>> m_clients; ///< one per client core
};

} // namespace syncron
