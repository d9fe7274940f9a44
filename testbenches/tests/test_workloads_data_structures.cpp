// Every data structure under every scheme, in LT and AT, at reduced sizes:
// the run completes and its functional check (the replay of the operation
// log against the contents read back from simulated memory) passes. Each run
// elaborates its own platform in a forked child.
#include <catch2/catch.hpp>

#include "models/schemes/scheme_factory.h"
#include "platforms/config/config.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "platforms/workload_registry.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/stats_in_child.h"
#include "testbenches/workloads/data_structures/table6.h"

using namespace syncron;
using Catch::Matchers::Contains;

namespace {

SimParams small(const std::string& name, Timing timing) {
    SimParams p;
    p.platform.timing = timing;
    p.check.protocol = timing == Timing::at; // AT runs under the TLM protocol checker
    p.check.coherence = true;                // mesi_lock: the coherence invariants at every step
    p.workload.name = name;
    p.workload.elements = 96;
    p.workload.ops = 6;
    return p;
}

using syncron::test::stats_of;

std::string describe(const nlohmann::json& s) {
    return s.value("error", s.value("child_error", std::string("no error")));
}

/// Table 6's mix and a mixed one (half updates, half of them inserts), each
/// under all schemes and both timing styles.
void run_matrix(const std::string& name) {
    REQUIRE(WorkloadRegistry::instance().has(name));
    for (const Timing timing : {Timing::lt, Timing::at})
        for (const std::string& scheme : scheme_names())
            for (const bool mixed : {false, true}) {
                SimParams p = small(name, timing);
                p.platform.scheme = *scheme_from_string(scheme);
                if (mixed) {
                    p.workload.update_percent = 50;
                    p.workload.insert_percent = 50;
                }
                const auto s = stats_of(p);
                INFO(name << " under " << scheme << ", " << timing_name(timing) << (mixed ? ", mixed" : ", Table 6 mix")
                          << ": " << describe(s));
                REQUIRE_RUN_OK(s);
                CHECK(s["check"]["ok"] == true);
                CHECK(s["operations"] == 60 * 6);
                CHECK(s["workload_stats"]["elements"] == 96);
                if (timing == Timing::at) CHECK(s["protocol_violations"] == 0);
            }
}

} // namespace

#define DATA_STRUCTURE_MATRIX(name)                                                                                    \
    TEST_CASE("data structures: " name " completes and checks out under every scheme, LT and AT",                      \
              "[workloads][data_structures]") {                                                                        \
        run_matrix(name);                                                                                              \
    }

DATA_STRUCTURE_MATRIX("stack")
DATA_STRUCTURE_MATRIX("queue")
DATA_STRUCTURE_MATRIX("array_map")
DATA_STRUCTURE_MATRIX("priority_queue")
DATA_STRUCTURE_MATRIX("skip_list")
DATA_STRUCTURE_MATRIX("hash_table")
DATA_STRUCTURE_MATRIX("linked_list")
DATA_STRUCTURE_MATRIX("bst_fg")
DATA_STRUCTURE_MATRIX("bst_drachsler")

TEST_CASE("data structures: the defaults are the paper's Table 6", "[workloads][data_structures]") {
    const auto& s = data_structure_shape("stack");
    CHECK(s.elements == 100000);
    CHECK(s.update_percent == 100);
    CHECK(s.insert_percent == 100);
    CHECK(data_structure_shape("queue").insert_percent == 0);
    CHECK(data_structure_shape("array_map").elements == 10);
    CHECK(data_structure_shape("priority_queue").elements == 20000);
    CHECK(data_structure_shape("skip_list").elements == 5000);
    CHECK(data_structure_shape("hash_table").elements == 1000);
    CHECK(data_structure_shape("linked_list").update_percent == 0);
    CHECK(data_structure_shape("bst_fg").elements == 20000);
    CHECK(data_structure_shape("bst_drachsler").elements == 10000);
    CHECK_THROWS_WITH(data_structure_shape("tree"), Contains("'tree' is not a data-structure workload"));
}

TEST_CASE("data structures: a stack push costs one load, three stores and two synchronization requests",
          "[workloads][data_structures]") {
    SimParams p = small("stack", Timing::lt); // Table 6: 100% push
    const auto s = stats_of(p);
    INFO(describe(s));
    REQUIRE_RUN_OK(s);
    CHECK(s["per_operation"]["core_loads"] == 1.0);
    CHECK(s["per_operation"]["core_stores"] == 3.0);
    CHECK(s["per_operation"]["sync_requests"] == 2.0);
    // No ST overflow with four locks: the SEs never touch memory.
    CHECK(s["per_operation"]["memory_accesses"] == 4.0);
    CHECK(s["overflow_fraction"] == 0.0);
    CHECK(s["workload_stats"]["inserts"] == 360);
}

TEST_CASE("data structures: initialisation is not timed", "[workloads][data_structures]") {
    // 10x the elements, the same operations: about the same simulated time
    // (other keys, so other partitions); building 960 elements with timed
    // stores would alone take 960 x 3 accesses of tens of ns each.
    SimParams small_stack = small("stack", Timing::lt), big_stack = small_stack;
    big_stack.workload.elements = 960;
    const auto a = stats_of(small_stack), b = stats_of(big_stack);
    REQUIRE_RUN_OK(a);
    REQUIRE_RUN_OK(b);
    CHECK(b["simulated_ns"].get<double>() < 1.1 * a["simulated_ns"].get<double>());
}

TEST_CASE("data structures: bad sizes are clear errors before the simulation", "[workloads][data_structures]") {
    SECTION("more elements than the memory holds") {
        SimParams p = small("stack", Timing::lt);
        p.workload.elements = uint64_t(1) << 30; // 16 GiB of nodes in 1 GiB units
        const auto s = stats_of(p);
        REQUIRE(s["status"] == "error");
        CHECK_THAT(s["error"].get<std::string>(), Contains("workload stack") && Contains("do not fit"));
        CHECK(s["simulated_ns"] == 0.0);
    }
    SECTION("elements past the key space") {
        SimParams p = small("stack", Timing::lt);
        p.workload.elements = uint64_t(1) << 41;
        const auto s = stats_of(p);
        REQUIRE(s["status"] == "error");
        CHECK_THAT(s["error"].get<std::string>(), Contains("workload.elements"));
    }
}
