#include "models/se/core/hierarchical_organization.h"

#include "models/se/core/se_validator.h"

namespace syncron {

std::string HierarchicalOrganization::validate(const SeValidator& rules, const Message& m, unsigned home) const {
    return rules.hierarchical(m, home);
}

} // namespace syncron
