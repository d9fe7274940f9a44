#pragma once
// The synchronization schemes the platform can be built with
// (platform.scheme; docs/schemes.md) and what each needs from the platform.
#include <optional>
#include <string>
#include <vector>

#include "models/se/core/se_topology.h"

namespace syncron {

enum class Scheme : uint8_t {
    syncron,               ///< hierarchical SEs, integrated overflow (the paper's design)
    flat,                  ///< SEs without the local level
    central,               ///< one software server core for the system
    hier,                  ///< one software server core per unit, hierarchical
    ideal,                 ///< free synchronization with its semantics
    remote_atomics,        ///< spin-waiting on vault read-modify-write units
    syncron_central_ovrfl, ///< SynCron, MiSAR-style overflow to one server core
    syncron_distrib_ovrfl, ///< SynCron, MiSAR-style overflow to per-unit server cores
};

/// Every scheme's name, in the order above (what --scheme accepts).
const std::vector<std::string>& scheme_names();
const char* to_string(Scheme s);
std::optional<Scheme> scheme_from_string(const std::string& name);

/// Whether cores send their requests to the SEs (otherwise the SEs idle).
bool uses_ses(Scheme s);
SeOrganization se_organization(Scheme s);
OverflowPolicy se_overflow(Scheme s);
/// Whether `unit` runs a server core (its first core after the clients).
bool has_server(Scheme s, unsigned unit);
/// Whether the scheme has any server core.
bool has_servers(Scheme s);
/// The per-unit servers (hier, syncron_distrib_ovrfl) rather than one for the system.
bool per_unit_servers(Scheme s);

} // namespace syncron
