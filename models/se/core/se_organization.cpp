#include "models/se/core/se_organization.h"

#include "models/se/core/flat_organization.h"
#include "models/se/core/hierarchical_organization.h"

namespace syncron {

std::unique_ptr<SeOrganizationIF> make_se_organization(const SeTopology& topology) {
    switch (topology.organization) {
    case SeOrganization::flat: return std::make_unique<FlatOrganization>(topology);
    default: return std::make_unique<HierarchicalOrganization>(topology);
    }
}

} // namespace syncron
