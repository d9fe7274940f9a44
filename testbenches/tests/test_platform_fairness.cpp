// Lock fairness, measured (docs/stats.md, "lock_fairness"): the local grant
// threshold (paper §4 and §6) on the lock microbenchmark with 4 units, 60
// cores, and the statistics that show it, checked against plain
// recomputations from the per-core numbers. One forked child per simulation.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "platforms/lock_fairness_report.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;
using syncron::test::bench;

namespace {

nlohmann::json run_lock(unsigned threshold, Timing timing) {
    return in_child([threshold, timing] {
        SimParams p = bench("lock", 64, 1, timing, 30);
        p.se.lock_fairness_threshold = threshold;
        const SimulationResult r = simulate(p);
        nlohmann::json j = r.stats;
        j["check_ok"] = r.check.ok;
        return j;
    });
}

/// The statistics agree with each other and with plain recomputations.
void check_consistent(const nlohmann::json& j) {
    CHECK(j["check_ok"] == true); // the counter incremented under the lock is exact: mutual exclusion held
    const auto& f = j.at("lock_fairness");
    const auto acq = f["acquisitions"].get<std::vector<uint64_t>>();
    REQUIRE(acq.size() == 60);
    uint64_t total = 0;
    std::vector<uint64_t> per_unit(4, 0);
    for (size_t c = 0; c < acq.size(); ++c) {
        total += acq[c];
        per_unit[c / 15] += acq[c]; // 15 client cores per unit, by global ID
    }
    CHECK(total == 60u * 30u);
    REQUIRE(f["units"].size() == 4);
    double shares = 0;
    uint64_t within = 0, across = 0;
    for (unsigned u = 0; u < 4; ++u) {
        const auto& unit = f["units"][u];
        CHECK(unit["acquisitions"] == per_unit[u]);
        shares += unit["acquisition_share"].get<double>();
        within += unit["handoffs_within_unit"].get<uint64_t>();
        across += unit["handoffs_across_units"].get<uint64_t>();
    }
    CHECK(shares == Approx(1.0));
    CHECK(f["handoffs_within_unit"] == within);
    CHECK(f["handoffs_across_units"] == across);
    CHECK(within + across <= total - 1); // a hand-off passes the lock from one acquisition to the next
    CHECK(within + across >= total / 2); // the cores contend: most grants are hand-offs
    CHECK(f["handoff_across_share"].get<double>() == Approx(double(across) / double(within + across)));
    // Per core: p50 <= p99 <= max, mean <= max; the index over the means.
    const auto mean = f["wait_mean_ns"].get<std::vector<double>>();
    const auto p50 = f["wait_p50_ns"].get<std::vector<double>>();
    const auto p99 = f["wait_p99_ns"].get<std::vector<double>>();
    const auto max = f["wait_max_ns"].get<std::vector<double>>();
    double sum = 0, squares = 0, worst = 0;
    for (size_t c = 0; c < 60; ++c) {
        CHECK(p50[c] > 0);
        CHECK(p50[c] <= p99[c]);
        CHECK(p99[c] <= max[c]);
        CHECK(mean[c] <= max[c]);
        sum += mean[c];
        squares += mean[c] * mean[c];
        worst = std::max(worst, max[c]);
    }
    CHECK(f["wait_jain_index"].get<double>() == Approx(sum * sum / (60 * squares)).epsilon(1e-6));
    CHECK(worst == Approx(j["sync_latency"]["lock_acquire"]["max_ns"].get<double>()));
}

void check_thresholds(Timing timing) {
    const auto off = run_lock(0, timing), one = run_lock(1, timing), four = run_lock(4, timing);
    REQUIRE_RUN_OK(off);
    REQUIRE_RUN_OK(one);
    REQUIRE_RUN_OK(four);
    for (const auto* j : {&off, &one, &four}) check_consistent(*j);
    const auto run_max = [](const nlohmann::json& j) { return j["lock_fairness"]["local_run_max"].get<uint64_t>(); };
    const auto across = [](const nlohmann::json& j) {
        return j["lock_fairness"]["handoff_across_share"].get<double>();
    };
    // Threshold T: no more than T consecutive grants inside a unit while
    // another unit waits; off, a unit keeps the lock while its cores ask.
    CHECK(run_max(one) <= 1);
    CHECK(run_max(four) <= 4);
    CHECK(run_max(off) > 4);
    // Cross-unit hand-offs grow as the threshold shrinks.
    INFO("cross-unit share: off " << across(off) << ", 4 " << across(four) << ", 1 " << across(one));
    CHECK(across(off) < across(four));
    CHECK(across(four) < across(one));
    CHECK(across(one) > 0.9);
    CHECK(across(four) == Approx(0.25).margin(0.05)); // one in four grants leaves the unit
    // The trade: the worst wait shrinks, so does the throughput.
    const auto worst = [](const nlohmann::json& j) {
        return j["sync_latency"]["lock_acquire"]["max_ns"].get<double>();
    };
    CHECK(worst(four) < worst(off));
    CHECK(off["throughput_ops_per_us"].get<double>() > one["throughput_ops_per_us"].get<double>());
}

} // namespace

TEST_CASE("fairness: local grant threshold 0 vs 1 vs 4 on the lock microbenchmark with 4 units (LT)",
          "[platform][fairness]") {
    check_thresholds(Timing::lt);
}

TEST_CASE("fairness: local grant threshold 0 vs 1 vs 4 on the lock microbenchmark with 4 units (AT)",
          "[platform][fairness][at]") {
    check_thresholds(Timing::at);
}

TEST_CASE("fairness: the report of hand-made waits and hand-offs", "[platform][fairness]") {
    // Core 0 (unit 0) waited 100 and 300 ticks, core 1 (unit 1) 200, core 2 (unit 1) never acquired.
    LatencySamples a, b, none;
    a.add(100);
    a.add(300);
    b.add(200);
    SeCoreStats se0, se1;
    se0.lock_handoffs_within = {3, 0};
    se0.lock_handoffs_across = {1, 0};
    se1.lock_handoffs_within = {0, 1};
    se1.lock_handoffs_across = {2, 4};
    se1.lock_local_run_max = 3;
    LockFairnessInput in;
    in.waits = {&a, &b, &none};
    in.unit_of_core = {0, 1, 1};
    in.units = 2;
    in.ses = {&se0, &se1};
    in.ticks_per_ns = 10;
    const nlohmann::json f = lock_fairness_report(in);
    CHECK(f["acquisitions"] == std::vector<uint64_t>{2, 1, 0});
    CHECK(f["wait_mean_ns"] == std::vector<double>{20, 20, 0});
    CHECK(f["wait_p50_ns"] == std::vector<double>{10, 20, 0});
    CHECK(f["wait_max_ns"] == std::vector<double>{30, 20, 0});
    CHECK(f["wait_jain_index"].get<double>() == 1.0); // both cores that acquired waited 200 ticks on average
    CHECK(f["units"][0]["acquisition_share"].get<double>() == Approx(2.0 / 3));
    CHECK(f["units"][1]["acquisition_share"].get<double>() == Approx(1.0 / 3));
    CHECK(f["units"][0]["handoffs_within_unit"] == 3u);
    CHECK(f["units"][0]["handoffs_across_units"] == 3u);
    CHECK(f["units"][1]["handoffs_within_unit"] == 1u);
    CHECK(f["units"][1]["handoffs_across_units"] == 4u);
    CHECK(f["handoff_across_share"].get<double>() == Approx(7.0 / 11));
    CHECK(f["local_run_max"] == 3u);
    in.ses.clear(); // a scheme without SEs: no hand-off counts
    const nlohmann::json g = lock_fairness_report(in);
    CHECK_FALSE(g.contains("handoffs_within_unit"));
    CHECK_FALSE(g["units"][0].contains("handoffs_within_unit"));
    in.waits = {&none};
    in.unit_of_core = {0};
    CHECK(lock_fairness_report(in).is_null()); // no lock acquired: no section
}
