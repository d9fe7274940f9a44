#pragma once
// Statistics providers (docs/stats.md): every module reports its own group of
// statistics through one interface, and the platform's statistics JSON is a
// walk over the providers, in the spirit of DRAMSys' StatProvider. The layer
// is SystemC-free: the end of the run travels as the kernel's integer time.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace syncron {

/// The moment the statistics describe.
struct StatContext {
    /// End of the measured run as sc_time::value() (exact; models convert it
    /// back with sc_time::from_value): the last client core's finish, or the
    /// kernel's time when the run did not finish.
    uint64_t end_ticks = 0;
    /// The run reached its end (every client core finished).
    bool finished = false;
};

/// A module that reports its own group of statistics.
class StatProvider {
public:
    virtual ~StatProvider() = default;
    /// Writes this module's group into `out` (a JSON object; keys already in
    /// it are kept unless the module writes the same key).
    virtual void report_stats(const StatContext& ctx, nlohmann::json& out) const = 0;
};

/// Adds every number of `part` to the same key of `total`, recursing into
/// objects; keys `total` lacks are copied. Counters of many instances of one
/// module become one group this way. Unsigned + unsigned stays unsigned; a
/// floating-point operand makes the sum double. Throws std::invalid_argument
/// when a key holds a number on one side and something else on the other.
void accumulate_stats(nlohmann::json& total, const nlohmann::json& part);

/// The statistics of one provider as a new JSON object.
nlohmann::json stats_of(const StatProvider& p, const StatContext& ctx);

/// Removes `key` from a provider's group and returns its value, for a walk
/// that places part of a group elsewhere; throws std::out_of_range naming the
/// key when the provider did not report it.
nlohmann::json take_stat(nlohmann::json& group, const std::string& key);

/// The non-zero entries of `counts` as {name_of(i): count} (e.g. messages by
/// opcode name); `name_of` turns an index into something a string is made of.
template <class Counts, class NameOf> nlohmann::json nonzero_counts(const Counts& counts, NameOf name_of) {
    nlohmann::json out = nlohmann::json::object();
    for (size_t i = 0; i < counts.size(); ++i)
        if (counts[i]) out[std::string(name_of(i))] = counts[i];
    return out;
}

} // namespace syncron
