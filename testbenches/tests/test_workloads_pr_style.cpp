// workload.pr_style=pull (docs/workloads.md): pr as CRONO's pagerank_lock.cc
// synchronizes it, each vertex pulling its neighbours' ranks with no lock,
// one global lock per dangling vertex and four barriers per iteration. Under
// every scheme, LT and AT, on a small R-MAT graph with isolated vertices: the
// ranks match the host reference and the synchronization is exactly the
// cited code's. The reference itself on graphs known by hand.
#include <catch2/catch.hpp>

#include <numeric>

#include "models/schemes/scheme_factory.h"
#include "platforms/config/config.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/stats_in_child.h"
#include "testbenches/workloads/graph/graph_reference.h"

using namespace syncron;
using syncron::test::stats_of;

namespace {

constexpr unsigned kIterations = 2;

SimParams pull(const std::string& scheme, Timing timing) {
    SimParams p = test::small_graph_kernel("pr", scheme, timing);
    p.workload.pr_style = "pull";
    p.workload.ops = kIterations;
    return p;
}

void check_pull(Timing timing) {
    for (const std::string& scheme : scheme_names()) {
        INFO("pr pull under " << scheme << ", " << timing_name(timing));
        const auto s = stats_of(pull(scheme, timing));
        REQUIRE_RUN_OK(s);
        for (const auto& f : s["check"]["failures"]) FAIL_CHECK(f.get<std::string>());
        CHECK(s["check"]["ok"] == true);
        if (timing == Timing::at) CHECK(s["protocol_violations"] == 0);
        const auto& w = s["workload_stats"];
        CHECK(w["pr_style"] == "pull");
        const uint64_t dangling = w["dangling_vertices"];
        CHECK(dangling > 0); // the graph must exercise the global lock
        // One acquisition per dangling vertex and iteration, nothing per edge.
        CHECK(w["lock_acquisitions"].get<uint64_t>() == dangling * kIterations);
        // One barrier before the first iteration, four per iteration, every core.
        const uint64_t cores = s["cores"];
        CHECK(w["barrier_waits"].get<uint64_t>() == cores * (1 + 4 * kIterations));
    }
}

} // namespace

TEST_CASE("pr_style=pull: ranks match the host under every scheme in LT with one lock per dangling vertex",
          "[workloads][applications]") {
    check_pull(Timing::lt);
}

TEST_CASE("pr_style=pull: ranks match the host under every scheme in AT with one lock per dangling vertex",
          "[workloads][applications]") {
    check_pull(Timing::at);
}

TEST_CASE("pr_style=pull: the push style takes a lock per edge end where pull takes one per dangling vertex",
          "[workloads][applications]") {
    SimParams p = pull("syncron", Timing::lt);
    const auto pulled = stats_of(p);
    p.workload.pr_style = "push";
    const auto pushed = stats_of(p);
    REQUIRE_RUN_OK(pulled);
    REQUIRE_RUN_OK(pushed);
    CHECK(pushed["check"]["ok"] == true);
    CHECK_FALSE(pushed["workload_stats"].contains("pr_style")); // the push statistics stay as they were
    const uint64_t edges = pushed["workload_stats"]["edges"];
    CHECK(pushed["workload_stats"]["lock_acquisitions"].get<uint64_t>() == 2 * edges * kIterations);
    CHECK(pulled["workload_stats"]["lock_acquisitions"].get<uint64_t>() <
          pushed["workload_stats"]["lock_acquisitions"].get<uint64_t>() / 10);
}

TEST_CASE("pr_style=pull with workload.use_se_atomics adds the dangling ranks without a lock",
          "[workloads][applications]") {
    SimParams p = pull("syncron", Timing::lt);
    p.workload.use_se_atomics = true;
    const auto s = stats_of(p);
    REQUIRE_RUN_OK(s);
    CHECK(s["check"]["ok"] == true);
    const auto& w = s["workload_stats"];
    CHECK(w["lock_acquisitions"] == 0);
    CHECK(w["atomic_rmws"].get<uint64_t>() >= w["dangling_vertices"].get<uint64_t>() * kIterations);
}

TEST_CASE("pr_style=pull: the reference spreads the dangling rank and agrees with push without it",
          "[workloads][applications]") {
    // A path 0-1-2-3, a triangle 4-5-6, vertex 7 alone.
    const Graph g = Graph::from_edges(8, {{0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 6}, {6, 4}}, "hand");
    const auto ranks = pagerank_pull(g, 1);
    const double d = kPageRankDamping, n = 8;
    // After one step vertex 7 keeps (1 - d)/n plus its own rank spread over all n.
    CHECK(ranks[7] == Approx((1 - d) / n + d * (1 / n) / n));
    // Vertex 0's one neighbour (1, degree 2) gives it half of 1/n.
    CHECK(ranks[0] == Approx((1 - d) / n + d * ((1 / n) / 2 + (1 / n) / n)));
    for (unsigned k : {1u, 5u, 20u}) {
        const auto r = pagerank_pull(g, k);
        CHECK(std::accumulate(r.begin(), r.end(), 0.0) == Approx(1.0));
    }
    // Without dangling vertices the two styles compute the same ranks.
    const Graph k = Graph::from_edges(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}}, "ring");
    const auto a = pagerank(k, 7), b = pagerank_pull(k, 7);
    for (uint32_t v = 0; v < 6; ++v) CHECK(b[v] == Approx(a[v]).epsilon(1e-12));
}
