// Three-level hierarchy (platform.units_per_group, docs/protocol.md "Three
// levels"): the four primitives keep their invariants at 16 x 64 and 64 x 16
// cores in LT and AT, also when the group SEs' STs overflow; a group SE
// sends one message per group to the Master SE; bad group sizes are clear
// errors. One forked child per simulation.
#include <catch2/catch.hpp>

#include <string>

#include "models/common/scheme.h"
#include "platforms/config/config.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;
using Catch::Matchers::Contains;

namespace {

nlohmann::json run(const SimParams& p) {
    return in_child([p] {
        const SimulationResult r = simulate(p);
        nlohmann::json j = r.stats;
        j["check_ok"] = r.check.ok;
        j["check_failures"] = r.check.failures;
        j["operations"] = r.operations;
        return j;
    });
}

/// `units` x `cores` hardware cores, one per unit left free (as the paper's
/// 16th core), in groups of `group` units.
SimParams shape(const std::string& workload, unsigned units, unsigned cores, unsigned group, Timing timing,
                unsigned ops, unsigned st_entries = 64) {
    SimParams p = syncron::test::bench(workload, st_entries, units, timing, ops); // a variable homed in every unit
    p.platform.units = units;
    p.platform.cores_per_unit = cores;
    p.platform.client_cores = units * (cores - 1);
    p.platform.units_per_group = group;
    return p;
}

/// What holds for every run: the check, every operation done, nothing left
/// in the SEs, no malformed message, the AT protocol clean.
void check_run(const nlohmann::json& s, const SimParams& p) {
    REQUIRE_RUN_OK(s);
    INFO(s["check_failures"].dump());
    CHECK(s["check_ok"] == true);
    CHECK(s["operations"] == uint64_t(p.platform.client_cores) * *p.workload.ops);
    CHECK(syncron::test::total(s, "indexing_counters_in_use") == 0);
    CHECK(syncron::test::total(s, "rejected_messages") == 0);
    if (p.platform.timing == Timing::at) CHECK(s["protocol_violations"] == 0);
    CHECK(s["se"][0].contains("group_relays") == (p.platform.units_per_group > 0));
}

void invariants(const std::string& workload, Timing timing) {
    // ST 1 and 0: the group SEs pass requests on (the barrier, one variable
    // live at a time, only with 0), the Master SEs overflow.
    uint64_t relays = 0;
    for (const unsigned st : {64u, 1u, 0u}) {
        SimParams p = shape(workload, 16, 64, 4, timing, 3, st);
        INFO(workload << " at 16 x 64, groups of 4, ST " << st << ", " << timing_name(timing));
        const auto s = run(p);
        check_run(s, p);
        if (st < 64) relays += syncron::test::total(s, "group_relays");
    }
    CHECK(relays > 0);
}

uint64_t received(const nlohmann::json& se, const char* op) {
    return se["messages"].contains(op) ? se["messages"][op].get<uint64_t>() : 0;
}

} // namespace

#define THREE_LEVEL(workload)                                                                                          \
    TEST_CASE("three levels: " workload " keeps its invariants at 16 x 64 cores, LT", "[platform][three_level]") {     \
        invariants(workload, Timing::lt);                                                                              \
    }                                                                                                                  \
    TEST_CASE("three levels: " workload " keeps its invariants at 16 x 64 cores, AT", "[platform][three_level][at]") { \
        invariants(workload, Timing::at);                                                                              \
    }

THREE_LEVEL("lock")
THREE_LEVEL("barrier")
THREE_LEVEL("semaphore")
THREE_LEVEL("condvar")

TEST_CASE("three levels: the four primitives at 64 x 16 cores in groups of 8, LT and AT", "[platform][three_level]") {
    for (const Timing timing : {Timing::lt, Timing::at})
        for (const char* workload : {"lock", "barrier", "semaphore", "condvar"}) {
            SimParams p = shape(workload, 64, 16, 8, timing, 2);
            INFO(workload << ", " << timing_name(timing));
            check_run(run(p), p);
        }
}

TEST_CASE("three levels: a condition variable homed apart from its lock, LT and AT", "[platform][three_level]") {
    for (const Timing timing : {Timing::lt, Timing::at})
        for (const unsigned st : {64u, 1u}) {
            SimParams p = shape("condvar", 8, 16, 2, timing, 5, st);
            p.workload.condvar_apart = true;
            INFO(timing_name(timing) << ", ST " << st);
            check_run(run(p), p);
        }
}

TEST_CASE("three levels: the Master SE gets one barrier arrival per group", "[platform][three_level]") {
    // One barrier homed in unit 0 at 16 x 64: two levels, each of the other
    // 15 SEs sends an arrival per episode; three levels in groups of 4, the
    // 3 other SEs of unit 0's group and the 3 group SEs (units 4, 8, 12:
    // position 0 of each group) do.
    for (const Timing timing : {Timing::lt, Timing::at}) {
        INFO(timing_name(timing));
        constexpr unsigned kEpisodes = 4;
        for (const unsigned group : {0u, 4u}) {
            SimParams p = shape("barrier", 16, 64, group, timing, kEpisodes);
            p.workload.variables = 1;
            const auto s = run(p);
            check_run(s, p);
            CHECK(received(s["se"][0], "barrier_wait_global") == (group ? 6u : 15u) * kEpisodes);
            if (!group) continue;
            for (const unsigned gse : {4u, 8u, 12u}) // each group SE: its 3 members' arrivals, 1 departure
                CHECK(received(s["se"][gse], "barrier_wait_global") == 3 * kEpisodes);
            CHECK(received(s["se"][5], "barrier_wait_global") == 0); // a member: nothing to aggregate
            CHECK(received(s["se"][5], "barrier_depart_global") == kEpisodes);
        }
    }
}

TEST_CASE("three levels: units_per_group is checked before anything runs", "[platform][three_level][config]") {
    SimParams p;
    p.platform.units_per_group = 3; // does not divide 4 units
    CHECK_THROWS_WITH(validate(p), Contains("platform.units_per_group") && Contains("divisor"));
    p.platform.units_per_group = 4; // one group: the same as two levels
    CHECK_THROWS_WITH(validate(p), Contains("platform.units_per_group"));
    p.platform.units_per_group = 2;
    CHECK_NOTHROW(validate(p));
    p.platform.scheme = Scheme::central;
    CHECK_THROWS_WITH(validate(p), Contains("platform.units_per_group") && Contains("syncron only"));
}

TEST_CASE("three levels: two levels add no statistic", "[platform][three_level]") {
    const auto s = run(syncron::test::bench("lock", 64, 1, Timing::lt, 5));
    REQUIRE_RUN_OK(s);
    CHECK_FALSE(s["se"][0].contains("group_relays"));
}
