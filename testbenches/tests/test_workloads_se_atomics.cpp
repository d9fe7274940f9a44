// workload.use_se_atomics (docs/workloads.md): the graph applications make
// their per-vertex updates with CoreApi::atomic_rmw instead of a lock. Each
// kernel runs on a small R-MAT graph with the key off and on, under SynCron
// and other schemes, LT and AT: both versions pass the workload's own check
// against the host reference (graph_reference.h), the rmw version takes no
// lock and issues the updates as rmws (as many as the lock version took
// locks, where that count does not depend on timing).
#include <catch2/catch.hpp>

#include "models/schemes/scheme_factory.h"
#include "platforms/config/config.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "platforms/workload_registry.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/platform_test_helpers.h"
#include "testbenches/tests/stats_in_child.h"

using namespace syncron;
using Catch::Matchers::Contains;

namespace {

SimParams small(const std::string& name, const std::string& scheme, Timing timing, bool rmw) {
    SimParams p = test::small_graph_kernel(name, scheme, timing);
    p.workload.use_se_atomics = rmw;
    return p;
}

using syncron::test::stats_of;

uint64_t count(const nlohmann::json& j, const char* key) { return j.value(key, uint64_t(0)); }

/// The kernel's lock and rmw versions side by side under one scheme and timing.
void compare(const std::string& name, const std::string& scheme, Timing timing) {
    INFO(name << " under " << scheme << ", " << timing_name(timing));
    const auto locked = stats_of(small(name, scheme, timing, false));
    const auto atomic = stats_of(small(name, scheme, timing, true));
    REQUIRE_RUN_OK(locked);
    REQUIRE_RUN_OK(atomic);
    // The workload's own check, against the host reference, passes in both.
    for (const auto* s : {&locked, &atomic}) {
        for (const auto& f : (*s)["check"]["failures"]) FAIL_CHECK(f.get<std::string>());
        CHECK((*s)["check"]["ok"] == true);
        if (timing == Timing::at) CHECK((*s)["protocol_violations"] == 0);
    }
    const auto& lw = locked["workload_stats"];
    const auto& aw = atomic["workload_stats"];
    CHECK_FALSE(lw.contains("atomic_rmws")); // the lock version's statistics are as they were
    const uint64_t locks = count(lw, "lock_acquisitions"), rmws = count(aw, "atomic_rmws");
    CHECK(locks > 0);
    CHECK(count(aw, "lock_acquisitions") == 0);
    CHECK(rmws > 0);
    CHECK(atomic["operations"] == rmws + count(aw, "barrier_waits"));
    // Counts that do not depend on timing: every push (pr: plus its compare-and-swap
    // retries) and every triangle's three increments.
    if (name == "pr") CHECK(rmws == locks + count(aw, "cas_retries"));
    if (name == "tc" || name == "tf") CHECK(rmws == locks);
    if (name == "tc") CHECK(aw["triangles"] == lw["triangles"]);
    // SynCron: each rmw executed once, by the word's Master SE.
    if (scheme == "syncron") {
        uint64_t executed = 0;
        for (const auto& se : atomic["se"]) executed += count(se, "rmw_executed");
        CHECK(executed == rmws);
    }
    // The message schemes carried them as rmw requests, answered one each.
    if (scheme == "syncron" || scheme == "central") CHECK(count(atomic["messages_by_kind"], "rmw_reply_local") == rmws);
}

} // namespace

#define SE_ATOMICS(name, scheme)                                                                                       \
    TEST_CASE("se_atomics: " name " under " scheme " checks out with the rmw and without, LT and AT",                  \
              "[workloads][applications][rmw]") {                                                                      \
        compare(name, scheme, Timing::lt);                                                                             \
        compare(name, scheme, Timing::at);                                                                             \
    }

SE_ATOMICS("pr", "syncron")
SE_ATOMICS("pr", "central")
SE_ATOMICS("pr", "remote_atomics")
SE_ATOMICS("cc", "syncron")
SE_ATOMICS("cc", "central")
SE_ATOMICS("cc", "remote_atomics")
SE_ATOMICS("tc", "syncron")
SE_ATOMICS("tc", "central")
SE_ATOMICS("tc", "remote_atomics")
SE_ATOMICS("bfs", "syncron")
SE_ATOMICS("sssp", "syncron")
SE_ATOMICS("tf", "syncron")

TEST_CASE("se_atomics: the key is for the graph applications only", "[workloads][applications][config]") {
    for (const char* name : {"bfs", "cc", "sssp", "pr", "tf", "tc"}) {
        INFO(name);
        CHECK(WorkloadRegistry::instance().info(name).se_atomics);
        CHECK_NOTHROW(validate(small(name, "syncron", Timing::lt, true)));
    }
    // ts's profile entry is a pair that changes together; the others have no shared value under a lock.
    for (const char* name : {"ts", "lock", "counter", "stack"}) {
        INFO(name);
        CHECK_FALSE(WorkloadRegistry::instance().info(name).se_atomics);
        CHECK_THROWS_WITH(validate(small(name, "syncron", Timing::lt, true)),
                          Contains("'workload.use_se_atomics'") && Contains(std::string("workload ") + name) &&
                              Contains("bfs, cc, sssp, pr, tf, tc"));
        CHECK_NOTHROW(validate(small(name, "syncron", Timing::lt, false)));
    }
}
