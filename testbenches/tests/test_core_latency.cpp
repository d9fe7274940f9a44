// Latency distributions (docs/stats.md, "Latency distributions"): the
// percentile method against hand-computed cases, the summary's exact ns, and
// Jain's fairness index.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
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
    CHECK(a.exact());
    CHECK(a.percentile(50) == 5);
    const auto j = LatencySamples{}.to_json(1000.0);
    CHECK(j["count"] == 0u);
    CHECK(j["max_ns"].get<double>() == 0.0);
}

TEST_CASE("latency: a long run keeps bounded memory and percentiles within the stated resolution", "[latency]") {
    // Samples spread over five octaves (1 ns .. 32 ns in 1 ps ticks, and a
    // few far larger), more than one distribution keeps exactly.
    std::vector<uint64_t> all;
    LatencySamples s;
    uint64_t x = 12345;
    const size_t n = 4 * LatencySamples::kExactSamples + 17;
    for (size_t i = 0; i < n; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const uint64_t ticks = i % 1000 == 0 ? (x >> 20) : 1000 + (x >> 33) % 31000;
        all.push_back(ticks);
        s.add(ticks);
    }
    CHECK_FALSE(s.exact());
    CHECK(s.count() == n);
    CHECK(s.max() == *std::max_element(all.begin(), all.end()));
    uint64_t sum = 0;
    for (const uint64_t t : all) sum += t;
    CHECK(s.sum() == sum);
    for (const double p : {1.0, 50.0, 95.0, 99.0, 99.9, 100.0}) {
        const auto exact = static_cast<double>(percentile_nearest_rank(all, p));
        INFO("p" << p);
        CHECK(std::abs(static_cast<double>(s.percentile(p)) - exact) <=
              exact * LatencySamples::histogram_resolution() + 0.5);
    }
    const auto j = s.to_json(1000.0);
    CHECK(j["percentile_resolution"].get<double>() == LatencySamples::histogram_resolution());
    CHECK(j["count"] == n);
    // Values below 2^kSubBucketBits ticks keep a bucket each: exact.
    LatencySamples small;
    for (size_t i = 0; i <= LatencySamples::kExactSamples; ++i) small.add(i % 7 == 0 ? 3000 : 17);
    CHECK_FALSE(small.exact());
    CHECK(small.percentile(50) == 17);
    CHECK(small.percentile(100) == 3000);
}

TEST_CASE("latency: merging exact parts stays exact, any histogram part makes a histogram", "[latency]") {
    LatencySamples a, b, big;
    for (uint64_t t = 1; t <= 100; ++t) a.add(t * 1000);
    for (uint64_t t = 101; t <= 200; ++t) b.add(t * 1000);
    a.merge(b);
    CHECK(a.exact());
    CHECK(a.percentile(50) == 100000);
    CHECK_FALSE(a.to_json(1000.0).contains("percentile_resolution"));
    for (size_t i = 0; i <= LatencySamples::kExactSamples; ++i) big.add(300000);
    a.merge(big);
    CHECK_FALSE(a.exact());
    CHECK(a.count() == 200 + LatencySamples::kExactSamples + 1);
    // Rank ceil(1% of 16 585) = 166: the 166th smallest, 166 000 ticks.
    CHECK(a.percentile(1) == Approx(166000).epsilon(LatencySamples::histogram_resolution()));
    CHECK(a.percentile(99) == Approx(300000).epsilon(LatencySamples::histogram_resolution()));
    // The other way round: an exact distribution merged into a histogram.
    LatencySamples c;
    for (size_t i = 0; i <= LatencySamples::kExactSamples; ++i) c.add(5000);
    LatencySamples d;
    d.add(1);
    c.merge(d);
    CHECK(c.count() == LatencySamples::kExactSamples + 2);
    CHECK(c.percentile(0.001) == 1);
}

TEST_CASE("latency: Jain's fairness index", "[latency]") {
    CHECK(jain_index({30, 30, 30, 30}) == 1.0);
    CHECK(jain_index({4, 0, 0, 0}) == 0.25);
    // (1 + 2 + 3)^2 / (3 * (1 + 4 + 9)) = 36 / 42
    CHECK(jain_index({1, 2, 3}) == Approx(36.0 / 42.0));
    CHECK(jain_index({}) == 1.0);
}
