#pragma once
// Cores built without a platform: a test injects the scheme the platform
// would (docs/schemes.md, "How a scheme plugs in").
#include <memory>

#include "models/core/ndp_core.h"
#include "models/schemes/message_client.h"

namespace syncron::test {

/// Gives `core` the SynCron client (every request to its unit's SE), as the
/// platform does under platform.scheme = syncron. Keep the result alive for
/// the whole simulation.
inline std::unique_ptr<SyncClient> inject_syncron(NdpCore& core) {
    auto client = MessageClient::syncron(core.address_map());
    core.set_sync_client(client.get());
    return client;
}

} // namespace syncron::test
