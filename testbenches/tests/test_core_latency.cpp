// Latency distributions (docs/stats.md, "Latency distributions"): the
// percentile method against hand-computed cases, the summary's exact ns, and
// Jain's fairness index.
#include <catch2/catch.hpp>

#include <vector>

#include "models/common/latency_samples.h"

using namespace syncron;

TEST_CASE("latency: nearest-rank percentiles of a small shuffled set", "[latency]") {
    // Sorted: 1..10. Rank ceil(p/100 * 10): p50 -> 5th, p90 -> 9th, p95 and p99 -> 10th.
    const std::vector<uint64_t> v{7, 3, 9, 1, 5, 10, 2, 8, 4, 6};
    CHECK(percentile_nearest_rank(v, 50) == 5);
    CHECK(percentile_nearest_rank(v, 90) == 9);
    CHECK(percentile_nearest_rank(v, 95) == 10);
    CHECK(percentile_nearest_rank(v, 99) == 10);
    CHECK(percentile_nearest_rank(v, 100) == 10);
    CHECK(percentile_nearest_rank(v, 1) == 1);
    // Four values: p50 is the 2nd smallest (no interpolation between 2 and 3).
    CHECK(percentile_nearest_rank({4, 1, 3, 2}, 50) == 2);
    // Twenty values 1..20: p95 is exactly the 19th, p99 the 20th.
    std::vector<uint64_t> twenty;
    for (uint64_t i = 20; i >= 1; --i) twenty.push_back(i);
    CHECK(percentile_nearest_rank(twenty, 95) == 19);
    CHECK(percentile_nearest_rank(twenty, 99) == 20);
    CHECK(percentile_nearest_rank({}, 50) == 0);
    CHECK(percentile_nearest_rank({42}, 99) == 42);
}

TEST_CASE("latency: the summary in ns from integer ticks, without float noise", "[latency]") {
    LatencySamples s;
    for (const uint64_t ps : {46400u, 10000u, 20000u, 30000u, 90001u}) s.add(ps);
    const auto j = s.to_json(1000.0); // 1 ps ticks
    CHECK(j["count"] == 5u);
    CHECK(j["p50_ns"].get<double>() == 30.0);
    CHECK(j["p95_ns"].get<double>() == 90.001);
    CHECK(j["max_ns"].get<double>() == 90.001);
    CHECK(j.dump().find("46.4000") == std::string::npos);
    // Mean 196401 / 5 = 39280.2 ps, rounded to the picosecond: 39.28 ns.
    CHECK(j["mean_ns"].get<double>() == 39.28);
    LatencySamples one;
    one.add(46400);
    CHECK(one.to_json(1000.0)["p99_ns"].dump() == "46.4");
}

TEST_CASE("latency: merging keeps count, sum and max exact", "[latency]") {
    LatencySamples a, b;
    a.add(5);
    a.add(1);
    b.add(9);
    a.merge(b);
    CHECK(a.count() == 3);
    CHECK(a.sum() == 15);
    CHECK(a.max() == 9);
    CHECK(percentile_nearest_rank(a.kept(), 50) == 5);
    const auto j = LatencySamples{}.to_json(1000.0);
    CHECK(j["count"] == 0u);
    CHECK(j["max_ns"].get<double>() == 0.0);
}

TEST_CASE("latency: Jain's fairness index", "[latency]") {
    CHECK(jain_index({30, 30, 30, 30}) == 1.0);
    CHECK(jain_index({4, 0, 0, 0}) == 0.25);
    // (1 + 2 + 3)^2 / (3 * (1 + 4 + 9)) = 36 / 42
    CHECK(jain_index({1, 2, 3}) == Approx(36.0 / 42.0));
    CHECK(jain_index({}) == 1.0);
}
