#include "platforms/comparison.h"

#include <cstdio>
#include <sstream>

#include "platforms/config/config.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"

namespace syncron {

using nlohmann::json;

json compare_schemes(const SimParams& base, const std::vector<std::string>& schemes) {
    json out = {{"workload", base.workload.name},
                {"timing", timing_name(base.platform.timing)},
                {"cores", base.platform.client_cores},
                {"units", base.platform.units},
                {"interval", base.workload.interval},
                {"ops_per_core", base.workload.ops},
                {"seed", base.workload.seed},
                {"baseline", kComparisonBaseline}};
    json rows = json::array(), runs = json::object();
    for (const auto& scheme : schemes) {
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
        json row = {{"scheme", scheme},
                    {"status", stats.value("status", "error")},
                    {"simulated_ns", stats.value("simulated_ns", 0.0)},
                    {"operations", stats.value("operations", uint64_t(0))},
                    {"throughput_ops_per_us", stats.value("throughput_ops_per_us", 0.0)},
                    {"bytes_within_units", stats.value("bytes_within_units", uint64_t(0))},
                    {"bytes_across_links", stats.value("bytes_across_links", uint64_t(0))},
                    {"sync_messages", stats.value("sync_messages", uint64_t(0))},
                    {"server_busy_fraction", stats.value("server_busy_fraction", 0.0)}};
        if (stats.contains("error")) row["error"] = stats["error"];
        rows.push_back(row);
        runs[scheme] = std::move(stats);
    }
    double baseline = 0;
    for (const auto& r : rows)
        if (r["scheme"] == kComparisonBaseline && r["status"] == "ok") baseline = r["throughput_ops_per_us"];
    for (auto& r : rows)
        r["speedup_over_baseline"] = baseline > 0 && r["status"] == "ok"
                                         ? json(r["throughput_ops_per_us"].get<double>() / baseline)
                                         : json();
    out["rows"] = rows;
    out["runs"] = runs;
    return out;
}

std::string comparison_table(const json& c) {
    std::ostringstream os;
    char line[320];
    os << "Scheme comparison: workload " << c.value("workload", "") << ", " << c.value("timing", "") << ", "
       << c.value("cores", 0u) << " cores, interval " << c.value("interval", 0u) << ", "
       << c.value("ops_per_core", 0u) << " operations per core\n";
    std::snprintf(line, sizeof line, "  %-22s %-6s %12s %10s %10s %12s %12s %10s %7s\n", "scheme", "status",
                  "time (us)", "ops/us", "vs central", "unit KB", "link KB", "messages", "server");
    os << line;
    for (const auto& r : c["rows"]) {
        const bool ok = r["status"] == "ok";
        char speed[32] = "-";
        if (r["speedup_over_baseline"].is_number())
            std::snprintf(speed, sizeof speed, "%.2fx", r["speedup_over_baseline"].get<double>());
        char busy[32] = "-";
        if (r["server_busy_fraction"].get<double>() > 0)
            std::snprintf(busy, sizeof busy, "%.0f%%", 100 * r["server_busy_fraction"].get<double>());
        std::snprintf(line, sizeof line, "  %-22s %-6s %12.2f %10.3f %10s %12.1f %12.1f %10llu %7s\n",
                      r["scheme"].get<std::string>().c_str(), ok ? "ok" : "ERROR",
                      r["simulated_ns"].get<double>() / 1000.0, r["throughput_ops_per_us"].get<double>(), speed,
                      r["bytes_within_units"].get<uint64_t>() / 1024.0,
                      r["bytes_across_links"].get<uint64_t>() / 1024.0,
                      static_cast<unsigned long long>(r["sync_messages"].get<uint64_t>()), busy);
        os << line;
    }
    for (const auto& r : c["rows"])
        if (r["status"] != "ok") os << "  " << r["scheme"].get<std::string>() << ": " << r.value("error", "") << "\n";
    return os.str();
}

bool comparison_ok(const json& c) {
    for (const auto& r : c["rows"])
        if (r["status"] != "ok") return false;
    return true;
}

} // namespace syncron
