#include "models/schemes/syncron_scheme.h"

#include "models/schemes/scheme_platform.h"

namespace syncron {

void SyncronScheme::build(SchemePlatform& platform) {
    m_client = MessageClient::syncron(platform.address_map());
    inject_everywhere(platform, *m_client);
}

} // namespace syncron
