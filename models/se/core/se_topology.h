#pragma once
// What an SE must know about the system it sits in.
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

namespace syncron {

/// How cores reach the SEs (docs/schemes.md).
enum class SeOrganization : uint8_t {
    /// SynCron: a core talks to its own unit's SE, which talks to the Master SE.
    hierarchical,
    /// SynCron's flat variant: every core sends straight to the Master SE of
    /// the variable; local-level messages carry the core's flat index
    /// (unit * cores_per_unit + local ID) and the waiting lists have one bit
    /// per core of the system.
    flat,
};

/// What an SE does when a variable cannot be buffered in its ST.
enum class OverflowPolicy : uint8_t {
    /// SynCron's integrated scheme (paper §4.3): syncronVar in memory.
    integrated,
    /// MiSAR-style non-integrated scheme (paper §6.7.3): abort the cores,
    /// which fall back to a software server (docs/schemes.md).
    abort,
};

struct SeTopology {
    unsigned units = 4;
    unsigned cores_per_unit = 16;
    /// Client (workload) cores per unit; an across-units barrier whose initial
    /// count equals their sum aggregates per unit, any other count is one-level.
    std::vector<unsigned> client_cores{15, 15, 15, 15};
    /// Unit whose memory holds an address: its SE is the variable's Master SE.
    std::function<unsigned(uint64_t)> home_unit;
    SeOrganization organization = SeOrganization::hierarchical;
    OverflowPolicy overflow = OverflowPolicy::integrated;
    /// OverflowPolicy::abort: the unit whose server core is the software
    /// fallback for a variable (unit 0 for syncron_central_ovrfl, the
    /// variable's home unit for syncron_distrib_ovrfl).
    std::function<unsigned(uint64_t)> fallback_server;
    /// Three-level hierarchy (model extension, docs/protocol.md "Three
    /// levels"): units form groups of this many (0 = two levels). For a
    /// variable homed in another group, a group's SE at the home's position
    /// in the group stands between the group's SEs and the Master SE.
    unsigned units_per_group = 0;

    unsigned total_client_cores() const { return std::accumulate(client_cores.begin(), client_cores.end(), 0u); }
    /// Local ID of a unit's server core: the first core after its clients
    /// (the paper's 16th core).
    unsigned server_core(unsigned unit) const { return client_cores.at(unit); }
    bool three_level() const { return units_per_group > 0 && units_per_group < units; }
    unsigned group_of(unsigned unit) const { return three_level() ? unit / units_per_group : 0; }
    bool same_group(unsigned a, unsigned b) const { return group_of(a) == group_of(b); }
    /// SE `unit` is the group SE of its group for variables homed at `home`.
    bool is_group_se(unsigned unit, unsigned home) const {
        return three_level() && !same_group(unit, home) && unit % units_per_group == home % units_per_group;
    }
    /// The group SE of `unit`'s group for variables homed at `home` (three
    /// levels, `home` in another group).
    unsigned group_se(unsigned unit, unsigned home) const {
        return group_of(unit) * units_per_group + home % units_per_group;
    }
    /// Where SE `unit` sends its global-level requests for a variable homed
    /// at `home`: the Master SE, or its group SE (three levels).
    unsigned parent(unsigned unit, unsigned home) const {
        if (!three_level() || same_group(unit, home) || is_group_se(unit, home)) return home;
        return group_se(unit, home);
    }
    /// Client cores of the group of `unit` (three levels; else of the system).
    unsigned group_clients(unsigned unit) const {
        if (!three_level()) return total_client_cores();
        const unsigned first = group_of(unit) * units_per_group;
        return std::accumulate(client_cores.begin() + first, client_cores.begin() + first + units_per_group, 0u);
    }
    /// The client cores a two-level barrier_wait_global from SE `se` stands
    /// for at the Master SE `home`: its unit's, or its group's from a group SE.
    unsigned aggregate_weight(unsigned se, unsigned home) const {
        return is_group_se(se, home) ? group_clients(se) : client_cores.at(se);
    }
    /// Whether the Master SE `home` confirms SE `se`'s registration on a
    /// condition variable whose lock is homed at `lock_home`: when the lock's
    /// release may travel another path than the registration (the lock homed
    /// elsewhere; three levels: any SE of another group, whose registration
    /// goes through its group SE).
    bool confirms_registration(unsigned se, unsigned home, unsigned lock_home) const {
        return lock_home != home || (three_level() && !same_group(se, home));
    }
    /// Flat index of core (unit, local ID): its bit in flat waiting lists.
    unsigned flat_index(unsigned unit, unsigned core) const { return unit * cores_per_unit + core; }
};

} // namespace syncron
