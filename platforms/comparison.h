#pragma once
// One workload under several synchronization schemes, side by side
// (syncron-sim --compare; docs/schemes.md). Every scheme runs in its own
// forked process (a SystemC kernel elaborates once per process) from the same
// configuration and seed, so the runs differ only in the scheme.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/params.h"

namespace syncron {

/// The baseline of the speedup column (the paper normalizes to Central).
inline constexpr const char* kComparisonBaseline = "central";

/// One scheme's row of the table, read once from its run's statistics.
struct SchemeRow {
    std::string scheme;
    std::string status;               ///< "ok" or "error"
    std::optional<std::string> error; ///< the reason, when the run has one
    double simulated_ns = 0;
    uint64_t operations = 0;
    double throughput_ops_per_us = 0;
    uint64_t bytes_within_units = 0;
    uint64_t bytes_across_links = 0;
    uint64_t sync_messages = 0;
    double energy_pj = 0;                        ///< energy.total (docs/energy.md)
    double server_busy_fraction = 0;             ///< 0 for schemes without server cores
    std::optional<double> speedup_over_baseline; ///< none when this run or the baseline failed
    /// The run's most frequent blocking call (sync_latency, docs/stats.md) and
    /// its p99 request-to-grant latency; empty and 0 when it made none.
    std::string wait_call;
    double wait_p99_ns = 0;

    bool ok() const { return status == "ok"; }
    /// A clean run must hold every figure (std::out_of_range otherwise); a
    /// failed run has the figures it got that far, the others are 0.
    static SchemeRow from_stats(const std::string& scheme, const nlohmann::json& stats);
    nlohmann::json to_json() const;
};

struct Comparison {
    std::string workload, timing;
    unsigned cores = 0, units = 0, interval = 0, ops_per_core = 0;
    uint64_t seed = 0;
    std::string baseline = kComparisonBaseline;
    std::vector<SchemeRow> rows;
    nlohmann::json runs = nlohmann::json::object(); ///< scheme -> the run's full statistics

    /// True when every row ran cleanly.
    bool ok() const;
    /// {"workload", "timing", "cores", "units", "interval", "ops_per_core", "seed",
    ///  "baseline", "rows": [SchemeRow::to_json()...], "runs": {scheme: statistics}}
    nlohmann::json to_json() const;
};

/// Runs `base` once per scheme. A scheme whose configuration is invalid or
/// whose run fails keeps its row with status "error" and the reason.
Comparison compare_schemes(const SimParams& base, const std::vector<std::string>& schemes);

/// The rows as a text table.
std::string comparison_table(const Comparison& comparison);

} // namespace syncron
