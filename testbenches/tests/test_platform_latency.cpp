// Request-to-grant latency distributions and lock fairness of real runs
// (docs/stats.md, "sync_latency", "lock_fairness"): present for every scheme
// in LT and AT, ordered, and counting exactly the blocking calls made. One
// simulation per test case (a SystemC kernel elaborates once per process).
#include <catch2/catch.hpp>

#include <string>

#include "platforms/simulation.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;
using syncron::test::bench;

namespace {

/// The distribution of one kind of call, checked for order and plausibility.
const nlohmann::json& plausible(const SimulationResult& r, const std::string& call) {
    INFO(r.error);
    REQUIRE(r.ok);
    const auto& all = r.stats.at("sync_latency");
    REQUIRE(all.contains(call));
    const auto& d = all[call];
    const double p50 = d["p50_ns"], p95 = d["p95_ns"], p99 = d["p99_ns"], max = d["max_ns"], mean = d["mean_ns"];
    CHECK(p50 > 0); // every grant here crosses the interconnect
    CHECK(p50 <= p95);
    CHECK(p95 <= p99);
    CHECK(p99 <= max);
    CHECK(mean <= max);
    CHECK(max <= r.simulated_ns);
    return d;
}

} // namespace

TEST_CASE("latency: lock acquisitions under syncron (LT): one sample per acquire, fair shares", "[platform][latency]") {
    const SimParams p = bench("lock", 64, 1, Timing::lt, 20);
    const SimulationResult r = simulate(p);
    const auto& d = plausible(r, "lock_acquire");
    CHECK(d["count"] == 60u * 20u);
    CHECK(r.stats["sync_latency"].size() == 1); // no other blocking call in the lock microbenchmark
    const auto& f = r.stats.at("lock_fairness");
    REQUIRE(f["acquisitions"].size() == 60);
    for (const auto& n : f["acquisitions"]) CHECK(n == 20u);
    const double jain = f["wait_jain_index"]; // over the cores' mean waits, not their (equal) counts
    CHECK(jain > 1.0 / 60);
    CHECK(jain <= 1.0);
    CHECK(f["share_min"].get<double>() == Approx(1.0 / 60));
    CHECK(f["max_min_ratio"].get<double>() == Approx(1.0));
    // The summary shows the distribution and the fairness.
    const std::string s = summary(r);
    CHECK_THAT(s, Catch::Contains("lock acquire") && Catch::Contains("1200 waits, ns: mean"));
    CHECK_THAT(s, Catch::Contains("lock fairness     Jain index of per-core mean waits"));
    CHECK_THAT(s, Catch::Contains("lock wait/core    ns, lowest to highest core: p50"));
    CHECK_THAT(s, Catch::Contains("lock by unit      acquisitions 25.0% 25.0% 25.0% 25.0%; hand-offs"));
}

TEST_CASE("latency: barrier waits under syncron (AT)", "[platform][latency][at]") {
    const SimParams p = bench("barrier", 64, 1, Timing::at, 10);
    const SimulationResult r = simulate(p);
    const auto& d = plausible(r, "barrier_wait_across_units");
    CHECK(d["count"] == 60u * 10u);
    CHECK_FALSE(r.stats.contains("lock_fairness")); // no lock acquired
}

TEST_CASE("latency: lock acquisitions under central (AT)", "[platform][latency][at]") {
    SimParams p = bench("lock", 64, 1, Timing::at, 10);
    p.platform.scheme = Scheme::central;
    const SimulationResult r = simulate(p);
    const auto& d = plausible(r, "lock_acquire");
    CHECK(d["count"] == 60u * 10u);
}

TEST_CASE("latency: semaphore waits under remote_atomics (LT)", "[platform][latency]") {
    SimParams p = bench("semaphore", 64, 1, Timing::lt, 10);
    p.platform.scheme = Scheme::remote_atomics;
    const SimulationResult r = simulate(p);
    const auto& d = plausible(r, "sem_wait");
    CHECK(d["count"] == 30u * 10u); // the even cores wait, the odd ones post
}

TEST_CASE("latency: condition waits under hier (LT) count the whole wait", "[platform][latency]") {
    SimParams p = bench("condvar", 64, 1, Timing::lt, 10);
    p.platform.scheme = Scheme::hier;
    const SimulationResult r = simulate(p);
    const auto& d = plausible(r, "cond_wait");
    CHECK(d["count"].get<uint64_t>() > 0);
    CHECK(r.stats["sync_latency"]["lock_acquire"]["count"] == 60u * 10u); // every operation takes the lock once
    const double jain = r.stats["lock_fairness"]["wait_jain_index"];
    CHECK(jain > 1.0 / 60);
    CHECK(jain <= 1.0);
    CHECK_FALSE(r.stats["lock_fairness"].contains("handoffs_within_unit")); // the SEs served no lock
}
