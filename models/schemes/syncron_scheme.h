#pragma once
// The paper's design (docs/schemes.md, "syncron"): every core sends its
// requests to its own unit's SE, which talks to the Master SE; hierarchical
// SEs with the integrated overflow scheme. No server cores.
#include <memory>

#include "models/schemes/message_client.h"
#include "models/schemes/sync_scheme.h"

namespace syncron {

class SyncronScheme final : public SyncScheme {
public:
    Scheme kind() const override { return Scheme::syncron; }
    bool uses_ses() const override { return true; }
    void build(SchemePlatform& platform) override;

private:
    std::unique_ptr<MessageClient> m_client; ///< one for every core
};

} // namespace syncron
