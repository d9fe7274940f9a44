#pragma once
// SynCron without the local level (docs/schemes.md, "flat"): every core
// sends its requests straight to the variable's Master SE, naming itself by
// its flat index; the SEs run the flat organization. No server cores.
#include <memory>

#include "models/schemes/message_client.h"
#include "models/schemes/sync_scheme.h"

namespace syncron {

class FlatScheme final : public SyncScheme {
public:
    Scheme kind() const override { return Scheme::flat; }
    bool uses_ses() const override { return true; }
    void configure(SeTopology& topology) const override { topology.organization = SeOrganization::flat; }
    void build(SchemePlatform& platform) override;

private:
    std::unique_ptr<MessageClient> m_client; ///< one for every core
};

} // namespace syncron
