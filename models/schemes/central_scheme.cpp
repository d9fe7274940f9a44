#include "models/schemes/central_scheme.h"

#include "models/schemes/scheme_platform.h"

namespace syncron {

void CentralScheme::build_clients(SchemePlatform& platform) {
    m_client = MessageClient::central(platform.address_map(), 0, platform.topology().server_core(0));
    inject_everywhere(platform, *m_client);
}

} // namespace syncron
