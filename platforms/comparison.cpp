#include "platforms/comparison.h"

#include <cstdio>
#include <sstream>
#include <type_traits>

#include "platforms/build_info.h"
#include "platforms/config/config.h"
#include "platforms/ndp_platform.h"
#include "platforms/run_in_child.h"
#include "platforms/run_summary.h"
#include "platforms/simulation.h"
#include "platforms/workload_registry.h"

namespace syncron {

using nlohmann::json;

SchemeRow SchemeRow::from_stats(const std::string& scheme, const json& stats) {
    SchemeRow r;
    const std::string where = "the " + scheme + " run";
    r.scheme = scheme;
    r.status = stat_at(stats, "status", where).get<std::string>();
    if (stats.contains("error")) r.error = stats["error"].get<std::string>();
    // A failed run may have stopped before a figure existed.
    const auto figure = [&](const char* key, auto& field) {
        if (r.ok() || stats.contains(key))
            field = stat_at(stats, key, where).get<std::remove_reference_t<decltype(field)>>();
    };
    figure("simulated_ns", r.simulated_ns);
    figure("operations", r.operations);
    figure("throughput_ops_per_us", r.throughput_ops_per_us);
    figure("bytes_within_units", r.bytes_within_units);
    figure("bytes_across_links", r.bytes_across_links);
    figure("sync_messages", r.sync_messages);
    if (r.ok() || stats.contains("energy"))
        r.energy_pj = stat_at(stat_at(stats, "energy", where), "total", where).get<double>();
    if (stats.contains("server_busy_fraction")) r.server_busy_fraction = stats["server_busy_fraction"].get<double>();
    if (stats.contains("sync_latency")) {
        uint64_t most = 0;
        for (const auto& [call, d] : stats["sync_latency"].items()) {
            const std::string at = where + ", sync_latency." + call;
            const auto count = stat_at(d, "count", at).get<uint64_t>();
            if (count <= most) continue;
            most = count;
            r.wait_call = call;
            r.wait_p99_ns = stat_at(d, "p99_ns", at).get<double>();
        }
    }
    return r;
}

json SchemeRow::to_json() const {
    json row = {{"scheme", scheme},
                {"status", status},
                {"simulated_ns", simulated_ns},
                {"operations", operations},
                {"throughput_ops_per_us", throughput_ops_per_us},
                {"bytes_within_units", bytes_within_units},
                {"bytes_across_links", bytes_across_links},
                {"sync_messages", sync_messages},
                {"energy_pj", energy_pj},
                {"server_busy_fraction", server_busy_fraction},
                {"speedup_over_baseline", speedup_over_baseline ? json(*speedup_over_baseline) : json()},
                {"wait_call", wait_call},
                {"wait_p99_ns", wait_p99_ns}};
    if (error) row["error"] = *error;
    return row;
}

bool Comparison::ok() const {
    for (const auto& r : rows)
        if (!r.ok()) return false;
    return true;
}

json Comparison::to_json() const {
    json out = {{"workload", workload}, {"timing", timing},     {"cores", cores},
                {"units", units},       {"interval", interval}, {"ops_per_core", ops_per_core},
                {"seed", seed},         {"baseline", baseline}};
    json rs = json::array();
    for (const auto& r : rows) rs.push_back(r.to_json());
    out["rows"] = rs;
    out["runs"] = runs;
    out["build"] = {{"version", build_version()}, {"commit", build_commit()}};
    return out;
}

Comparison compare_schemes(const SimParams& base, const std::vector<std::string>& schemes) {
    Comparison c;
    c.workload = base.workload.name;
    c.timing = timing_name(base.platform.timing);
    c.cores = base.platform.client_cores;
    c.units = base.platform.units;
    c.interval = base.workload.interval;
    const WorkloadRegistry& registry = WorkloadRegistry::instance();
    c.ops_per_core = registry.has(base.workload.name) ? registry.resolve(base.workload).ops.value_or(0)
                                                      : base.workload.ops.value_or(0);
    c.seed = base.workload.seed;
    for (const auto& scheme : schemes) {
        if (NdpPlatform::stop_requested()) {
            // A stop signal (StopSignals) ends the comparison: the schemes not yet started are not run.
            const std::string why = "interrupted (" + StopSignals::name(StopSignals::received()) + ") before it ran";
            const json stats = {{"status", "interrupted"}, {"error", why}};
            c.rows.push_back(SchemeRow::from_stats(scheme, stats));
            c.runs[scheme] = stats;
            continue;
        }
        SimParams p = base;
        p.platform.scheme = *scheme_from_string(scheme); // names checked by the command line
        json stats = in_child([p]() -> json {
            try {
                validate(p);
            } catch (const std::exception& e) {
                return {{"status", "error"}, {"error", std::string("configuration: ") + e.what()}};
            }
            return simulate(p).stats;
        });
        if (stats.contains("child_error")) stats = {{"status", "error"}, {"error", stats["child_error"]}};
        c.rows.push_back(SchemeRow::from_stats(scheme, stats));
        c.runs[scheme] = std::move(stats);
    }
    // A speedup is the baseline's time over the run's: every scheme runs the same
    // work, but not always the same count of synchronization operations (a
    // graph kernel that tests before it locks takes as many locks as its races
    // make it), so a ratio of throughputs would not be one.
    double baseline = 0;
    for (const auto& r : c.rows)
        if (r.scheme == c.baseline && r.ok()) baseline = r.simulated_ns;
    for (auto& r : c.rows)
        if (baseline > 0 && r.ok() && r.simulated_ns > 0) r.speedup_over_baseline = baseline / r.simulated_ns;
    return c;
}

std::string comparison_table(const Comparison& c) {
    std::ostringstream os;
    char line[320];
    os << "Scheme comparison: workload " << c.workload << ", " << c.timing << ", " << c.cores << " cores, interval "
       << c.interval << ", " << c.ops_per_core << " operations per core\n";
    std::snprintf(line, sizeof line, "  %-22s %-6s %12s %10s %10s %12s %12s %10s %7s %12s %12s %9s\n", "scheme",
                  "status", "time (us)", "ops/us", "vs central", "unit KB", "link KB", "messages", "server",
                  "p99 wait ns", "energy (uJ)", "nJ/op");
    os << line;
    for (const auto& r : c.rows) {
        char speed[32] = "-";
        if (r.speedup_over_baseline) std::snprintf(speed, sizeof speed, "%.2fx", *r.speedup_over_baseline);
        char busy[32] = "-";
        if (r.server_busy_fraction > 0) std::snprintf(busy, sizeof busy, "%.0f%%", 100 * r.server_busy_fraction);
        char wait[32] = "-";
        if (!r.wait_call.empty()) std::snprintf(wait, sizeof wait, "%.1f", r.wait_p99_ns);
        const double nj_per_op = r.operations ? r.energy_pj * 1e-3 / static_cast<double>(r.operations) : 0.0;
        std::snprintf(line, sizeof line, "  %-22s %-6s %12.2f %10.3f %10s %12.1f %12.1f %10llu %7s %12s %12.3f %9.2f\n",
                      r.scheme.c_str(), r.ok() ? "ok" : "ERROR", r.simulated_ns / 1000.0, r.throughput_ops_per_us,
                      speed, r.bytes_within_units / 1024.0, r.bytes_across_links / 1024.0,
                      static_cast<unsigned long long>(r.sync_messages), busy, wait, r.energy_pj * 1e-6, nj_per_op);
        os << line;
    }
    std::string call;
    for (const auto& r : c.rows)
        if (!r.wait_call.empty() && call.empty()) call = r.wait_call;
    if (!call.empty())
        os << "  p99 wait: request-to-grant latency of the run's most frequent blocking call (" << call
           << "; docs/stats.md)\n";
    for (const auto& r : c.rows)
        if (!r.ok()) os << "  " << r.scheme << ": " << r.error.value_or("") << "\n";
    return os.str();
}

} // namespace syncron
