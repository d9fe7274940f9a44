// workload.test_before_lock (docs/workloads.md): bfs, cc and sssp read a
// neighbour's word before locking it and lock only when an update is due, as
// CRONO's bfs and sssp do. Each kernel runs on a small R-MAT graph with the
// key off and on, under every scheme, LT and AT: both pass the workload's own
// check against the host reference and the test takes fewer locks. On one
// core, where nothing races, bfs takes exactly one lock per vertex reached.
#include <catch2/catch.hpp>

#include "models/schemes/scheme_factory.h"
#include "platforms/config/config.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/stats_in_child.h"
#include "testbenches/workloads/graph/graph_loader.h"
#include "testbenches/workloads/graph/graph_reference.h"

using namespace syncron;

namespace {

SimParams small(const std::string& name, const std::string& scheme, Timing timing, bool test) {
    SimParams p = test::small_graph_kernel(name, scheme, timing);
    p.workload.test_before_lock = test;
    return p;
}

using syncron::test::stats_of;

uint64_t locks_of(const nlohmann::json& s) { return s["workload_stats"].value("lock_acquisitions", uint64_t(0)); }

void compare(const std::string& name, Timing timing) {
    for (const std::string& scheme : scheme_names()) {
        INFO(name << " under " << scheme << ", " << timing_name(timing));
        const auto every = stats_of(small(name, scheme, timing, false));
        const auto tested = stats_of(small(name, scheme, timing, true));
        REQUIRE_RUN_OK(every);
        REQUIRE_RUN_OK(tested);
        for (const auto* s : {&every, &tested}) {
            for (const auto& f : (*s)["check"]["failures"]) FAIL_CHECK(f.get<std::string>());
            CHECK((*s)["check"]["ok"] == true);
            if (timing == Timing::at) CHECK((*s)["protocol_violations"] == 0);
        }
        CHECK(locks_of(tested) > 0);
        CHECK(locks_of(tested) < locks_of(every));
    }
}

} // namespace

#define TEST_BEFORE_LOCK(name)                                                                                         \
    TEST_CASE("test_before_lock: " name " checks out under every scheme with fewer locks in LT and AT",                \
              "[workloads][applications]") {                                                                           \
        compare(name, Timing::lt);                                                                                     \
        compare(name, Timing::at);                                                                                     \
    }

TEST_BEFORE_LOCK("bfs")
TEST_BEFORE_LOCK("cc")
TEST_BEFORE_LOCK("sssp")

TEST_CASE("test_before_lock: bfs on one core locks each vertex it reaches once", "[workloads][applications]") {
    const std::string file = std::string(SYNCRON_SOURCE_DIR) + "/testbenches/inputs/small.snap";
    const Graph g = load_graph(file, "");
    uint32_t source = 0; // the workload's: highest degree, lowest ID on ties
    for (uint32_t v = 1; v < g.vertices; ++v)
        if (g.degree(v) > g.degree(source)) source = v;
    const auto levels = bfs_levels(g, source);
    uint64_t reached = 0, rows = 0; // vertices reached; neighbours read from their rows
    for (uint32_t v = 0; v < g.vertices; ++v)
        if (levels[v] != kUnreached) {
            ++reached;
            rows += g.degree(v);
        }
    REQUIRE(reached > 2);
    for (const Timing timing : {Timing::lt, Timing::at}) {
        INFO(timing_name(timing));
        SimParams p = small("bfs", "ideal", timing, true);
        p.platform.units = 1;
        p.platform.cores_per_unit = 1;
        p.platform.client_cores = 1;
        p.workload.graph = file;
        const auto s = stats_of(p);
        REQUIRE_RUN_OK(s);
        CHECK(s["check"]["ok"] == true);
        CHECK(locks_of(s) == reached - 1); // the source starts at level 0
        p.workload.test_before_lock = false;
        const auto every = stats_of(p);
        REQUIRE_RUN_OK(every);
        CHECK(locks_of(every) == rows); // without the test: every neighbour of every vertex reached
    }
}
