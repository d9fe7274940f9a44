#pragma once
// One workload under several synchronization schemes, side by side
// (syncron-sim --compare; docs/schemes.md). Every scheme runs in its own
// forked process (a SystemC kernel elaborates once per process) from the same
// configuration and seed, so the runs differ only in the scheme.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/params.h"

namespace syncron {

/// The baseline of the speedup column (the paper normalizes to Central).
inline constexpr const char* kComparisonBaseline = "central";

/// Runs `base` once per scheme. Returns
///   {"workload", "timing", "cores", "interval", "baseline",
///    "rows": [{"scheme", "status", "error", "simulated_ns", "operations",
///              "throughput_ops_per_us", "speedup_over_baseline",
///              "bytes_within_units", "bytes_across_links", "sync_messages",
///              "server_busy_fraction"}...],
///    "runs": {scheme: the run's full statistics}}
/// A scheme whose configuration is invalid or whose run fails keeps its row
/// with status "error" and the reason.
nlohmann::json compare_schemes(const SimParams& base, const std::vector<std::string>& schemes);

/// The rows as a text table.
std::string comparison_table(const nlohmann::json& comparison);

/// True when every row ran cleanly.
bool comparison_ok(const nlohmann::json& comparison);

} // namespace syncron
