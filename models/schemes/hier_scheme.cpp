#include "models/schemes/hier_scheme.h"

#include "models/schemes/scheme_platform.h"

namespace syncron {

void HierScheme::build_clients(SchemePlatform& platform) {
    const SeTopology* topology = &platform.topology();
    m_client = MessageClient::hier(platform.address_map(), [topology](unsigned u) { return topology->server_core(u); });
    inject_everywhere(platform, *m_client);
}

} // namespace syncron
