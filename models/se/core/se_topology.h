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

    unsigned total_client_cores() const { return std::accumulate(client_cores.begin(), client_cores.end(), 0u); }
    /// Local ID of a unit's server core: the first core after its clients
    /// (the paper's 16th core).
    unsigned server_core(unsigned unit) const { return client_cores.at(unit); }
    /// Flat index of core (unit, local ID): its bit in flat waiting lists.
    unsigned flat_index(unsigned unit, unsigned core) const { return unit * cores_per_unit + core; }
};

} // namespace syncron
