#pragma once
// The synchronization schemes the platform can be built with (platform.scheme;
// docs/schemes.md). What each scheme is and needs lives in models/schemes/
// (one SyncScheme per scheme, made by make_scheme); the JSON form of the enum
// is in models/common/params_json.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
    mesi_lock,             ///< spin-waiting on coherent atomics in the L1s (MESI directory)
};

/// Every scheme's name, in the order above (what --scheme accepts).
const std::vector<std::string>& scheme_names();
const char* to_string(Scheme s);
std::optional<Scheme> scheme_from_string(const std::string& name);

} // namespace syncron
