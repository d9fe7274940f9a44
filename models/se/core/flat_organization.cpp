#include "models/se/core/flat_organization.h"

#include "models/se/core/se_validator.h"

namespace syncron {

std::string FlatOrganization::validate(const SeValidator& rules, const Message& m, unsigned home) const {
    return rules.flat(m, home);
}

unsigned FlatOrganization::release_relay(uint64_t lock, unsigned unit) const {
    const unsigned home = m_home(lock);
    return home < m_units && home != unit ? home : kNone;
}

} // namespace syncron
