#pragma once
// SynCron's flat variant (docs/protocol.md, "Flat organization"): every core
// sends local-level requests straight to the Master SE of the variable,
// naming itself by flat index (unit * cores_per_unit + local ID); own-core
// waiting lists have one bit per core of the system. A holder's release may
// be relayed by another SE (its cond_wait there) and arrive after its next
// acquire, which then queues behind it. Also the fallback servers of the
// abort overflow policy, which get releases relayed by the Master SEs.
#include <functional>

#include "models/se/core/se_organization.h"

namespace syncron {

class FlatOrganization : public SeOrganizationIF {
public:
    explicit FlatOrganization(const SeTopology& topology)
        : m_units(topology.units), m_cores(topology.cores_per_unit), m_home(topology.home_unit) {}

    SeOrganization kind() const override { return SeOrganization::flat; }
    unsigned own_cores() const override { return m_units * m_cores; }
    CoreRef core(unsigned id, unsigned) const override { return {id / m_cores, id % m_cores}; }
    std::string validate(const SeValidator& rules, const Message& m, unsigned home) const override;
    bool release_may_trail() const override { return true; }
    /// A lock homed at another SE gets the core's release there, as the core
    /// would have sent it.
    unsigned release_relay(uint64_t lock, unsigned unit) const override;

private:
    unsigned m_units;
    unsigned m_cores;
    std::function<unsigned(uint64_t)> m_home;
};

} // namespace syncron
