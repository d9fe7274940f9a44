#include "platforms/lock_fairness_report.h"

#include <algorithm>
#include <cmath>

namespace syncron {

nlohmann::json lock_fairness_report(const LockFairnessInput& in) {
    using nlohmann::json;
    std::vector<uint64_t> acquisitions, mean_waits; // mean_waits: of the cores that acquired, in ticks
    std::vector<double> p50, p99, max, mean;
    std::vector<uint64_t> unit_acq(in.units, 0);
    uint64_t total = 0;
    const auto ns = [&](uint64_t ticks) { return static_cast<double>(ticks) / in.ticks_per_ns; };
    for (size_t c = 0; c < in.waits.size(); ++c) {
        const LatencySamples& w = *in.waits[c];
        acquisitions.push_back(w.count());
        total += w.count();
        if (c < in.unit_of_core.size() && in.unit_of_core[c] < in.units) unit_acq[in.unit_of_core[c]] += w.count();
        // The mean rounded to whole ticks, as sync_latency prints it.
        const uint64_t m =
            w.count()
                ? static_cast<uint64_t>(std::llround(static_cast<double>(w.sum()) / static_cast<double>(w.count())))
                : 0;
        if (w.count()) mean_waits.push_back(m);
        p50.push_back(ns(w.percentile(50)));
        p99.push_back(ns(w.percentile(99)));
        max.push_back(ns(w.max()));
        mean.push_back(ns(m));
    }
    if (total == 0) return nullptr;
    const auto [lo, hi] = std::minmax_element(acquisitions.begin(), acquisitions.end());
    const double n = static_cast<double>(total);
    json j = {{"acquisitions", acquisitions},
              {"share_min", static_cast<double>(*lo) / n},
              {"share_max", static_cast<double>(*hi) / n},
              {"max_min_ratio", *lo ? json(static_cast<double>(*hi) / static_cast<double>(*lo)) : json()},
              // Over the waits, not the acquisition counts: a workload fixes
              // how often each core acquires, the SEs decide how long it waits.
              {"wait_jain_index", jain_index(mean_waits)},
              {"wait_mean_ns", mean},
              {"wait_p50_ns", p50},
              {"wait_p99_ns", p99},
              {"wait_max_ns", max}};
    json units = json::array();
    uint64_t within = 0, across = 0;
    for (unsigned u = 0; u < in.units; ++u) {
        json unit = {
            {"unit", u}, {"acquisitions", unit_acq[u]}, {"acquisition_share", static_cast<double>(unit_acq[u]) / n}};
        if (!in.ses.empty()) {
            uint64_t w = 0, a = 0;
            for (const SeCoreStats* s : in.ses) {
                w += u < s->lock_handoffs_within.size() ? s->lock_handoffs_within[u] : 0;
                a += u < s->lock_handoffs_across.size() ? s->lock_handoffs_across[u] : 0;
            }
            unit["handoffs_within_unit"] = w;
            unit["handoffs_across_units"] = a;
            within += w;
            across += a;
        }
        units.push_back(unit);
    }
    j["units"] = units;
    if (!in.ses.empty()) {
        uint64_t run = 0;
        for (const SeCoreStats* s : in.ses) run = std::max(run, s->lock_local_run_max);
        j["handoffs_within_unit"] = within;
        j["handoffs_across_units"] = across;
        j["handoff_across_share"] =
            within + across ? static_cast<double>(across) / static_cast<double>(within + across) : 0.0;
        j["local_run_max"] = run;
    }
    return j;
}

} // namespace syncron
