#pragma once
// One software server for the whole system (docs/schemes.md, "central"): the
// first free core of unit 0 runs a SyncServer (flat, uncached table by
// default); every client sends its requests to that core's mailbox, naming
// itself by its flat index. The SEs receive nothing.
#include <memory>

#include "models/schemes/message_client.h"
#include "models/schemes/server_scheme.h"

namespace syncron {

class CentralScheme final : public ServerScheme {
public:
    CentralScheme() : ServerScheme(SyncServer::Role::central, false) {}
    Scheme kind() const override { return Scheme::central; }
    bool uses_ses() const override { return false; }

private:
    void build_clients(SchemePlatform& platform) override;

    std::unique_ptr<MessageClient> m_client; ///< one for every core
};

} // namespace syncron
