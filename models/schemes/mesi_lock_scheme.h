#pragma once
// Spin-waiting on coherent atomics (docs/schemes.md, "mesi_lock"): every core
// gets its own MesiLockClient; no SE and no server is used. The platform
// makes the syncronVars coherent and cacheable lines (docs/coherence.md). The
// statistics add what the clients issued.
#include <memory>
#include <vector>

#include "models/schemes/mesi_lock_client.h"
#include "models/schemes/sync_scheme.h"

namespace syncron {

class MesiLockScheme final : public SyncScheme {
public:
    Scheme kind() const override { return Scheme::mesi_lock; }
    bool uses_ses() const override { return false; }
    /// The synchronization variables are coherent, cacheable lines.
    bool coherent_syncvars() const override { return true; }
    void build(SchemePlatform& platform) override;
    /// "mesi_lock": loads, stores and atomics by kind, failed attempts, spin
    /// loads, back-off cycles.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;

private:
    std::vector<std::unique_ptr<MesiLockClient>> m_clients; ///< one per client core
};

} // namespace syncron
