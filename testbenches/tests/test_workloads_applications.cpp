// The applications (bfs, cc, sssp, pr, tf, tc, ts) under every scheme, in LT
// and AT, on small inputs (shipped under testbenches/inputs or generated):
// each run completes and passes its functional check against the host
// reference. Also the references themselves on graphs small enough to know
// by hand, the statistics the applications add, and METIS partitioning.
#include <catch2/catch.hpp>

#include "models/schemes/scheme_factory.h"
#include "platforms/config/config.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "platforms/workload_registry.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/stats_in_child.h"
#include "testbenches/workloads/graph/graph_reference.h"
#include "testbenches/workloads/graph/partition.h"
#include "testbenches/workloads/graph/rmat.h"
#include "testbenches/workloads/timeseries/matrix_profile.h"

using namespace syncron;
using Catch::Matchers::Contains;

namespace {

const std::string kInputs = std::string(SYNCRON_SOURCE_DIR) + "/testbenches/inputs/";

/// A small run of `name`: the graph applications on `graph` (empty: R-MAT
/// scale 6, edge factor 4), ts on the shipped 96-value series, window 8.
SimParams small(const std::string& name, const std::string& graph, Timing timing) {
    SimParams p;
    p.platform.timing = timing;
    p.check.protocol = timing == Timing::at;
    p.check.coherence = true; // mesi_lock: the coherence invariants at every step
    p.workload.name = name;
    p.workload.graph = graph.empty() ? "" : kInputs + graph;
    p.workload.rmat_scale = 6;
    p.workload.rmat_edge_factor = 4;
    p.workload.ops = 3; // pr: iterations
    p.workload.series = kInputs + "series.txt";
    p.workload.window = 8;
    return p;
}

using syncron::test::stats_of;

std::string describe(const nlohmann::json& s) {
    std::string out = s.value("error", s.value("child_error", std::string("no error")));
    if (s.contains("check"))
        for (const auto& f : s["check"]["failures"]) out += "; " + f.get<std::string>();
    return out;
}

void run_matrix(const std::string& name, const std::string& graph) {
    REQUIRE(WorkloadRegistry::instance().has(name));
    CHECK(WorkloadRegistry::instance().info(name).family == "applications");
    for (const Timing timing : {Timing::lt, Timing::at})
        for (const std::string& scheme : scheme_names()) {
            SimParams p = small(name, graph, timing);
            p.platform.scheme = *scheme_from_string(scheme);
            const auto s = stats_of(p);
            INFO(name << " on " << (graph.empty() ? "R-MAT" : graph) << " under " << scheme << ", "
                      << timing_name(timing) << ": " << describe(s));
            REQUIRE_RUN_OK(s);
            CHECK(s["check"]["ok"] == true);
            CHECK(s["workload_stats"]["application"] == name);
            CHECK(s["workload_stats"]["lock_acquisitions"].get<uint64_t>() > 0);
            CHECK(s["operations"].get<uint64_t>() > 0);
            if (timing == Timing::at) CHECK(s["protocol_violations"] == 0);
        }
}

} // namespace

#define APPLICATION_MATRIX(name, graph)                                                                                \
    TEST_CASE("applications: " name " on " graph " checks out under every scheme, LT and AT",                          \
              "[workloads][applications]") {                                                                           \
        run_matrix(name, graph);                                                                                       \
    }

APPLICATION_MATRIX("bfs", "small.snap")
APPLICATION_MATRIX("cc", "small.snap")
APPLICATION_MATRIX("sssp", "small.mtx")
APPLICATION_MATRIX("pr", "")
APPLICATION_MATRIX("tf", "small.snap")
APPLICATION_MATRIX("tc", "small.mtx")
APPLICATION_MATRIX("ts", "")

TEST_CASE("applications: the references on graphs known by hand", "[workloads][applications]") {
    // A path 0-1-2-3 and a triangle 4-5-6 joined to nothing, vertex 7 alone.
    const Graph g = Graph::from_edges(8, {{0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 6}, {6, 4}}, "hand");
    const auto levels = bfs_levels(g, 1);
    CHECK(levels == std::vector<uint64_t>{1, 0, 1, 2, kUnreached, kUnreached, kUnreached, kUnreached});
    CHECK(component_labels(g) == std::vector<uint64_t>{0, 0, 0, 0, 4, 4, 4, 7});
    CHECK(triangles(g) == std::vector<uint64_t>{0, 0, 0, 0, 1, 1, 1, 0});
    const auto dist = shortest_distances(g, 0, 1);
    CHECK(dist[1] == edge_weight(0, 1, 1));
    CHECK(dist[3] == edge_weight(0, 1, 1) + edge_weight(1, 2, 1) + edge_weight(2, 3, 1));
    CHECK(dist[4] == kUnreached);
    CHECK(edge_weight(2, 1, 1) == edge_weight(1, 2, 1));
    // K4 has 4 triangles, each vertex in 3.
    const Graph k4 = Graph::from_edges(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}, "K4");
    CHECK(triangles(k4) == std::vector<uint64_t>{3, 3, 3, 3});
    // PageRank of a regular graph stays uniform.
    for (double r : pagerank(k4, 5)) CHECK(r == Approx(0.25));
    const auto tf = teen_followers(k4, 1);
    for (uint32_t v = 0; v < 4; ++v) {
        uint64_t teens = 0;
        for (uint32_t w = 0; w < 4; ++w) teens += w != v && is_teen(vertex_age(w, 1));
        CHECK(tf[v] == teens);
    }
}

TEST_CASE("applications: the matrix profile finds a repeated pattern", "[workloads][applications]") {
    // Noise with the same 8-value motif at 10 and 40: their distance is 0.
    std::vector<double> x(64);
    for (size_t i = 0; i < x.size(); ++i) x[i] = double((i * 37) % 11) - 5.0 + 0.1 * double(i % 3);
    const double motif[8] = {0, 3, 1, 4, 1, 5, 9, 2};
    for (unsigned t = 0; t < 8; ++t) x[10 + t] = x[40 + t] = motif[t];
    const MatrixProfile p = matrix_profile(x, 8);
    CHECK(p.distance[10] == Approx(0).margin(1e-6));
    CHECK(p.index[10] == 40);
    CHECK(p.index[40] == 10);
    CHECK(pair_distance(x, 8, 40, 10) == pair_distance(x, 8, 10, 40));
    CHECK(exclusion_zone(8) == 2);
}

TEST_CASE("applications: statistics report the graph, the locks and remote accesses", "[workloads][applications]") {
    const auto s = stats_of(small("cc", "small.snap", Timing::lt));
    REQUIRE_RUN_OK(s);
    const auto& w = s["workload_stats"];
    CHECK(w["vertices"] == 48);
    CHECK(w["edges"] == 106);
    CHECK(w["partition"] == "contiguous");
    CHECK(w["partition_units"] == 4);
    CHECK(w["iterations"].get<uint64_t>() >= 2);
    CHECK(w["barrier_waits"] == 60 * w["iterations"].get<uint64_t>());
    CHECK(s["operations"] == w["lock_acquisitions"].get<uint64_t>() + w["barrier_waits"].get<uint64_t>());
    const double remote = w["remote_access_fraction"];
    CHECK(remote > 0.0);
    CHECK(remote < 1.0);
    // Every SE reports its ST occupancy as a percentage of its entries.
    for (const auto& se : s["se"]) {
        CHECK(se["st_occupancy_max_pct"].get<double>() ==
              Approx(100.0 * se["st_occupancy_max"].get<double>() / se["st_entries"].get<double>()));
        CHECK(se["st_occupancy_avg_pct"].get<double>() <= se["st_occupancy_max_pct"].get<double>() + 1e-9);
    }
}

TEST_CASE("applications: bad inputs are clear errors before the simulation", "[workloads][applications]") {
    SimParams p = small("bfs", "", Timing::lt);
    p.workload.graph = "/nonexistent/graph.txt";
    auto s = stats_of(p);
    REQUIRE(s["status"] == "error");
    CHECK_THAT(s["error"].get<std::string>(), Contains("/nonexistent/graph.txt") && Contains("cannot be opened"));
    CHECK(s["simulated_ns"] == 0.0);
    p = small("ts", "", Timing::lt);
    p.workload.window = 64; // 96 values < 2 x 64
    s = stats_of(p);
    REQUIRE(s["status"] == "error");
    CHECK_THAT(s["error"].get<std::string>(), Contains("fewer than twice workload.window"));
    // Configuration keys are checked with the configuration.
    SimParams q = small("bfs", "", Timing::lt);
    q.workload.graph_format = "csv";
    CHECK_THROWS_WITH(validate(q), Contains("workload.graph_format"));
    q = small("bfs", "", Timing::lt);
    q.workload.partition = "random";
    CHECK_THROWS_WITH(validate(q), Contains("workload.partition"));
}

TEST_CASE("applications: METIS partitioning, when built in", "[workloads][applications]") {
    RmatParams r;
    r.scale = 7;
    r.edge_factor = 4;
    const Graph g = rmat_graph(r);
    if (!metis_available()) {
        CHECK_THROWS_WITH(partition_vertices(g, 4, "metis"), Contains("libmetis-dev"));
        SimParams p = small("cc", "", Timing::lt);
        p.workload.partition = "metis";
        const auto s = stats_of(p);
        CHECK(s["status"] == "error");
        CHECK_THAT(s["error"].get<std::string>(), Contains("libmetis-dev"));
        return;
    }
    const auto parts = partition_vertices(g, 4, "metis");
    REQUIRE(parts.size() == g.vertices);
    for (unsigned p : parts) CHECK(p < 4);
    SimParams p = small("cc", "", Timing::lt);
    p.workload.rmat_scale = 7;
    p.workload.partition = "metis";
    const auto metis = stats_of(p);
    p.workload.partition = "contiguous";
    const auto contiguous = stats_of(p);
    INFO(describe(metis));
    REQUIRE_RUN_OK(metis);
    CHECK(metis["check"]["ok"] == true);
    CHECK(metis["workload_stats"]["partition"] == "metis");
    // METIS minimises the edges cut between units; contiguous ranges of a permuted R-MAT cut about 3/4.
    CHECK(metis["workload_stats"]["cut_edges"].get<uint64_t>() <
          contiguous["workload_stats"]["cut_edges"].get<uint64_t>());
}

TEST_CASE("applications: workload.edge_instructions adds work per neighbour read, nothing else",
          "[workloads][applications]") {
    // bfs locking every neighbour (no test before the lock) reads each
    // neighbour once per lock acquisition, so the extra instructions are
    // exactly edge_instructions x the acquisitions; the result and the
    // synchronization are the same.
    SimParams p = small("bfs", "small.snap", Timing::lt);
    p.platform.scheme = *scheme_from_string("ideal");
    p.workload.test_before_lock = false;
    const auto plain = stats_of(p);
    p.workload.edge_instructions = 50;
    const auto heavy = stats_of(p);
    REQUIRE_RUN_OK(plain);
    REQUIRE_RUN_OK(heavy);
    CHECK(heavy["check"]["ok"] == true);
    const uint64_t locks = heavy["workload_stats"]["lock_acquisitions"];
    CHECK(locks == plain["workload_stats"]["lock_acquisitions"].get<uint64_t>());
    CHECK(heavy["cores_summary"]["instructions"].get<uint64_t>() -
              plain["cores_summary"]["instructions"].get<uint64_t>() ==
          50 * locks);
    CHECK(heavy["simulated_ns"].get<double>() > plain["simulated_ns"].get<double>());
    // Out of range: an error naming the key and its range.
    nlohmann::json cfg = to_json(SimParams{});
    CHECK_THROWS_WITH(apply_set(cfg, "workload.edge_instructions=2000000"), Contains("workload.edge_instructions"));
}
