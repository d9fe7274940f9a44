#pragma once
// A flat organization that every core reaches over one path: the central
// software server (scheme central) and the ideal hub. No release can trail
// its holder's next acquire, so a holder's second acquire is always an error.
// They pass it to SeCore explicitly; no SeTopology value selects it.
#include "models/se/core/flat_organization.h"

namespace syncron {

class SinglePathOrganization final : public FlatOrganization {
public:
    using FlatOrganization::FlatOrganization;
    bool release_may_trail() const override { return false; }
};

} // namespace syncron
