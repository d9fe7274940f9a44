#pragma once
// One software server per unit, hierarchical (docs/schemes.md, "hier"): the
// first free core of every unit runs a SyncServer; a client sends to its own
// unit's server, which talks to the server of the variable's home unit as an
// SE talks to the Master SE. The SEs receive nothing.
#include <memory>

#include "models/schemes/message_client.h"
#include "models/schemes/server_scheme.h"

namespace syncron {

class HierScheme final : public ServerScheme {
public:
    HierScheme() : ServerScheme(SyncServer::Role::hier, true) {}
    Scheme kind() const override { return Scheme::hier; }
    bool uses_ses() const override { return false; }

private:
    void build_clients(SchemePlatform& platform) override;

    std::unique_ptr<MessageClient> m_client; ///< one for every core
};

} // namespace syncron
