#pragma once
// SynCron's organization: a core talks to its own unit's SE, which talks to
// the Master SE of the variable (local, global and overflow levels).
#include "models/se/core/se_organization.h"

namespace syncron {

class HierarchicalOrganization final : public SeOrganizationIF {
public:
    explicit HierarchicalOrganization(const SeTopology& topology) : m_cores(topology.cores_per_unit) {}

    SeOrganization kind() const override { return SeOrganization::hierarchical; }
    unsigned own_cores() const override { return m_cores; }
    CoreRef core(unsigned id, unsigned unit) const override { return {unit, id}; }
    std::string validate(const SeValidator& rules, const Message& m, unsigned home) const override;
    bool release_may_trail() const override { return false; }
    unsigned release_relay(uint64_t, unsigned) const override { return kNone; }

private:
    unsigned m_cores;
};

} // namespace syncron
