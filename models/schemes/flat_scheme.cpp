#include "models/schemes/flat_scheme.h"

#include "models/schemes/scheme_platform.h"

namespace syncron {

void FlatScheme::build(SchemePlatform& platform) {
    m_client = MessageClient::flat(platform.address_map());
    inject_everywhere(platform, *m_client);
}

} // namespace syncron
