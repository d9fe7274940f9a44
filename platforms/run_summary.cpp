#include "platforms/run_summary.h"

#include <algorithm>
#include <stdexcept>

namespace syncron {

const nlohmann::json& stat_at(const nlohmann::json& stats, const std::string& key, const std::string& where) {
    const auto it = stats.find(key);
    if (it == stats.end()) throw std::out_of_range("statistics: " + where + " lacks '" + key + "'");
    return *it;
}

namespace {
template <class T> T get(const nlohmann::json& j, const std::string& key, const std::string& where) {
    return stat_at(j, key, where).get<T>();
}
} // namespace

RunSummary RunSummary::from_stats(const nlohmann::json& j) {
    RunSummary s;
    const std::string run = "the run";
    s.scheme = get<std::string>(j, "scheme", run);
    s.workload = get<std::string>(j, "workload", run);
    s.timing = get<std::string>(j, "timing", run);
    s.cores = get<unsigned>(j, "cores", run);
    s.units = get<unsigned>(j, "units", run);
    s.throughput_ops_per_us = get<double>(j, "throughput_ops_per_us", run);
    if (!j.contains("simulated_ns")) return s; // no platform: nothing below was measured
    s.bytes_within_units = get<uint64_t>(j, "bytes_within_units", run);
    s.bytes_across_links = get<uint64_t>(j, "bytes_across_links", run);
    s.sync_messages = get<uint64_t>(j, "sync_messages", run);
    {
        const auto& e = stat_at(j, "energy", run);
        const std::string where = "energy";
        s.energy =
            Energy{get<double>(e, "cores", where), get<double>(e, "caches", where), get<double>(e, "network", where),
                   get<double>(e, "links", where), get<double>(e, "memory", where), get<double>(e, "se", where),
                   get<double>(e, "total", where)};
        const auto& d = stat_at(j, "data_movement", run);
        const auto& within = stat_at(d, "within_units", "data_movement");
        const auto& across = stat_at(d, "across_links", "data_movement");
        s.data_movement = DataMovement{get<uint64_t>(within, "data", "data_movement.within_units"),
                                       get<uint64_t>(within, "sync", "data_movement.within_units"),
                                       get<uint64_t>(across, "data", "data_movement.across_links"),
                                       get<uint64_t>(across, "sync", "data_movement.across_links")};
    }
    for (const auto& v : stat_at(j, "sync_variables", run)) s.sync_variables.push_back(v.get<std::string>());
    for (const auto& [call, d] : stat_at(j, "sync_latency", run).items()) {
        const std::string where = "sync_latency." + call;
        s.latency.push_back({call, get<uint64_t>(d, "count", where), get<double>(d, "mean_ns", where),
                             get<double>(d, "p50_ns", where), get<double>(d, "p95_ns", where),
                             get<double>(d, "p99_ns", where), get<double>(d, "max_ns", where)});
    }
    if (j.contains("lock_fairness")) {
        const auto& f = j["lock_fairness"];
        const std::string where = "lock_fairness";
        Fairness fair;
        fair.share_min = get<double>(f, "share_min", where);
        fair.share_max = get<double>(f, "share_max", where);
        fair.wait_jain_index = get<double>(f, "wait_jain_index", where);
        const auto range = [&](const char* key, double& lo, double& hi) {
            const auto v = stat_at(f, key, where).get<std::vector<double>>();
            if (v.empty()) return;
            const auto [a, b] = std::minmax_element(v.begin(), v.end());
            lo = *a;
            hi = *b;
        };
        range("wait_p50_ns", fair.p50_lo, fair.p50_hi);
        range("wait_p99_ns", fair.p99_lo, fair.p99_hi);
        range("wait_max_ns", fair.max_lo, fair.max_hi);
        for (const auto& u : stat_at(f, "units", where))
            fair.unit_shares.push_back(get<double>(u, "acquisition_share", "lock_fairness.units[]"));
        if (f.contains("handoffs_within_unit")) {
            fair.handoffs_within = get<uint64_t>(f, "handoffs_within_unit", where);
            fair.handoffs_across = get<uint64_t>(f, "handoffs_across_units", where);
        }
        s.fairness = fair;
    }
    if (get<bool>(j, "se_used", run))
        for (const auto& e : stat_at(j, "se", run)) {
            const std::string where = "se[]";
            Se se;
            se.unit = get<unsigned>(e, "unit", where);
            for (const auto& n : stat_at(e, "messages", where)) se.messages += n.get<uint64_t>();
            se.st_occupancy_avg = get<double>(e, "st_occupancy_avg", where);
            se.st_occupancy_max = get<unsigned>(e, "st_occupancy_max", where);
            se.st_entries = get<unsigned>(e, "st_entries", where);
            se.overflow_requests = get<uint64_t>(e, "overflow_requests", where);
            s.ses.push_back(se);
        }
    if (j.contains("servers"))
        for (const auto& e : j["servers"]) {
            const std::string where = "servers[]";
            s.servers.push_back({get<unsigned>(e, "unit", where), get<uint64_t>(e, "messages_handled", where),
                                 get<double>(e, "busy_fraction", where)});
        }
    if (j.contains("atomics")) {
        const auto& a = j["atomics"];
        const std::string where = "atomics";
        s.atomics = Atomics{get<uint64_t>(a, "cas", where), get<uint64_t>(a, "cas_failures", where),
                            get<uint64_t>(a, "swap", where), get<uint64_t>(a, "faa", where)};
    }
    if (j.contains("misar")) {
        const auto& m = j["misar"];
        const std::string where = "misar";
        s.misar = Misar{get<uint64_t>(m, "aborts", where), get<uint64_t>(m, "fallbacks", where),
                        get<uint64_t>(m, "retries", where)};
    }
    return s;
}

} // namespace syncron
