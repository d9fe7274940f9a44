#include "models/schemes/sync_scheme.h"

#include <stdexcept>
#include <string>

#include "models/core/ndp_core.h"
#include "models/schemes/scheme_platform.h"

namespace syncron {

void SyncScheme::adopt_server(std::unique_ptr<NdpCore> core) {
    throw std::logic_error(std::string("scheme ") + to_string(kind()) + " runs no server core, was given " +
                           core->name());
}

void SyncScheme::inject_everywhere(SchemePlatform& platform, SyncClient& client) {
    for (unsigned i = 0; i < platform.client_cores(); ++i) platform.client_core(i).set_sync_client(&client);
}

} // namespace syncron
