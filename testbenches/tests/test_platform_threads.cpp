// Multi-threaded NDP cores (core.threads, docs/ndp_core.md "Multi-threaded
// cores"): every microbenchmark and data structure keeps its invariants with
// 2 and 4 contexts per core, in LT and AT; the contexts of a core share its
// pipeline (their compute does not overlap), a context waiting on a grant
// leaves the pipeline to another, a switch costs core.switch_cycles, and
// every context has its own bit in the SEs' waiting lists. One forked child
// per simulation.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/common/scheme.h"
#include "platforms/config/config.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;
using Catch::Matchers::Contains;

namespace {

constexpr unsigned kCores = 60; // hardware client cores of the default platform

nlohmann::json run(const SimParams& p) {
    return in_child([p] {
        const SimulationResult r = simulate(p);
        nlohmann::json j = r.stats;
        j["check_ok"] = r.check.ok;
        j["operations"] = r.operations;
        return j;
    });
}

/// What holds for every run with `threads` contexts per core.
void check_contexts(const nlohmann::json& s, const SimParams& p, uint64_t ops_per_context) {
    REQUIRE_RUN_OK(s);
    CHECK(s["check_ok"] == true);
    const unsigned t = p.core.threads;
    CHECK(s["operations"] == uint64_t(kCores) * t * ops_per_context); // one software thread per context
    CHECK(syncron::test::total(s, "indexing_counters_in_use") == 0);
    CHECK(syncron::test::total(s, "rejected_messages") == 0);
    if (p.platform.timing == Timing::at) CHECK(s["protocol_violations"] == 0);
    REQUIRE(s.contains("contexts"));
    CHECK(s["contexts"]["per_core"] == t);
    CHECK(s["contexts"]["per_unit"] == 16 * t); // the waiting lists' bits: one per context
    CHECK(s["contexts"]["pipeline_switches"].get<uint64_t>() > 0);
    CHECK(s["cores_summary"]["context_switches"] == s["contexts"]["pipeline_switches"]);
}

void microbenchmark(const std::string& workload, Timing timing) {
    for (const unsigned t : {2u, 4u}) {
        SimParams p = syncron::test::bench(workload, 64, 1, timing, 10);
        p.core.threads = t;
        INFO(workload << " with " << t << " contexts per core, " << timing_name(timing));
        check_contexts(run(p), p, 10);
    }
}

void data_structure(const std::string& name) {
    for (const Timing timing : {Timing::lt, Timing::at})
        for (const unsigned t : {2u, 4u}) {
            SimParams p;
            p.platform.timing = timing;
            p.check.protocol = timing == Timing::at;
            p.workload.name = name;
            p.workload.elements = 96;
            p.workload.ops = 4;
            p.workload.update_percent = 50; // both inserts and removals, not only Table 6's mix
            p.workload.insert_percent = 50;
            p.core.threads = t;
            INFO(name << " with " << t << " contexts per core, " << timing_name(timing));
            check_contexts(run(p), p, 4);
        }
}

/// Every context computes `cycles` and, if `pair_wait`, the odd context of a
/// core waits on a semaphore its even neighbour posts after its compute.
class Contexts : public Workload {
public:
    Contexts(uint64_t cycles, bool pair_wait) : m_cycles(cycles), m_pair_wait(pair_wait) {}
    std::string name() const override { return "contexts"; }
    void setup(Driver& d) override {
        for (unsigned i = 0; i < d.client_cores() / 2; ++i) m_sems.push_back(d.create_syncvar(i % d.units()));
    }
    void run(CoreApi& c) override {
        const SyncVar sem = m_sems[c.global_id() / 2];
        if (m_pair_wait && c.global_id() % 2 == 1) {
            c.sem_wait(sem, 0); // nothing to take until the neighbour posts
        } else {
            c.compute(m_cycles);
            if (m_pair_wait) c.sem_post(sem);
        }
        ++m_done;
    }
    CheckResult check(Driver&) override { return {}; }
    uint64_t operations() const override { return m_done; }

private:
    uint64_t m_cycles;
    bool m_pair_wait;
    std::vector<SyncVar> m_sems;
    uint64_t m_done = 0;
};

nlohmann::json run_contexts(unsigned threads, unsigned switch_cycles, bool pair_wait, Timing timing) {
    return in_child([=] {
        SimParams p;
        p.platform.timing = timing;
        p.core.threads = threads;
        p.core.switch_cycles = switch_cycles;
        const SimulationResult r = simulate(p, std::make_unique<Contexts>(10000, pair_wait));
        nlohmann::json j = r.stats;
        j["operations"] = r.operations;
        return j;
    });
}

} // namespace

#define THREAD_MICROBENCHMARK(workload)                                                                                \
    TEST_CASE("threads: " workload " keeps its invariants with 2 and 4 contexts per core, LT",                         \
              "[platform][threads]") {                                                                                 \
        microbenchmark(workload, Timing::lt);                                                                          \
    }                                                                                                                  \
    TEST_CASE("threads: " workload " keeps its invariants with 2 and 4 contexts per core, AT",                         \
              "[platform][threads][at]") {                                                                             \
        microbenchmark(workload, Timing::at);                                                                          \
    }

THREAD_MICROBENCHMARK("lock")
THREAD_MICROBENCHMARK("barrier")
THREAD_MICROBENCHMARK("semaphore")
THREAD_MICROBENCHMARK("condvar")

/// Every scheme, every microbenchmark, 2 contexts per core, LT and AT: the
/// same functional result and invariants as with one (a context is a core
/// to the scheme).
void every_microbenchmark(const std::string& scheme) {
    for (const Timing timing : {Timing::lt, Timing::at})
        for (const char* workload : {"lock", "barrier", "semaphore", "condvar"}) {
            SimParams p = syncron::test::bench(workload, 64, 1, timing, 5);
            p.platform.scheme = *scheme_from_string(scheme);
            p.core.threads = 2;
            INFO(workload << " under " << scheme << ", " << timing_name(timing));
            const auto s = run(p);
            REQUIRE_RUN_OK(s);
            CHECK(s["check_ok"] == true);
            CHECK(s["operations"] == uint64_t(kCores) * 2 * 5);
            CHECK(s["contexts"]["per_unit"] == 32);
            if (timing == Timing::at) CHECK(s["protocol_violations"] == 0);
        }
}

#define THREAD_SCHEME(scheme)                                                                                          \
    TEST_CASE("threads: every microbenchmark under " scheme " with 2 contexts per core, LT and AT",                    \
              "[platform][threads]") {                                                                                 \
        every_microbenchmark(scheme);                                                                                  \
    }

THREAD_SCHEME("flat")
THREAD_SCHEME("central")
THREAD_SCHEME("hier")
THREAD_SCHEME("ideal")
THREAD_SCHEME("remote_atomics")
THREAD_SCHEME("syncron_central_ovrfl")
THREAD_SCHEME("syncron_distrib_ovrfl")
THREAD_SCHEME("mesi_lock")

#define THREAD_DATA_STRUCTURE(name)                                                                                    \
    TEST_CASE("threads: " name " checks out with 2 and 4 contexts per core, LT and AT", "[platform][threads]") {       \
        data_structure(name);                                                                                          \
    }

THREAD_DATA_STRUCTURE("stack")
THREAD_DATA_STRUCTURE("queue")
THREAD_DATA_STRUCTURE("array_map")
THREAD_DATA_STRUCTURE("priority_queue")
THREAD_DATA_STRUCTURE("skip_list")
THREAD_DATA_STRUCTURE("hash_table")
THREAD_DATA_STRUCTURE("linked_list")
THREAD_DATA_STRUCTURE("bst_fg")
THREAD_DATA_STRUCTURE("bst_drachsler")

TEST_CASE("threads: the contexts of a core share its pipeline", "[platform][threads]") {
    // 10 000 cycles at 2.5 GHz = 4 us per context: one context finishes in
    // 4 us, two on one core take turns (8 us plus one switch), four 16 us.
    for (const Timing timing : {Timing::lt, Timing::at}) {
        INFO(timing_name(timing));
        const double one = run_contexts(1, 4, false, timing)["simulated_ns"];
        CHECK(one == Approx(4000).margin(1));
        for (const unsigned t : {2u, 4u}) {
            const auto s = run_contexts(t, 4, false, timing);
            REQUIRE_RUN_OK(s);
            CHECK(s["operations"] == kCores * t);
            const double ns = s["simulated_ns"];
            CHECK(ns >= t * 4000.0);
            CHECK(ns <= t * 4000.0 + t * 4 * 0.4 + 1); // and a switch (4 cycles) per turn at most
        }
    }
}

TEST_CASE("threads: a context waiting on a grant leaves the pipeline to another", "[platform][threads]") {
    // The odd context of every core waits on a semaphore that only its even
    // neighbour, on the same core, posts after 4 us of compute. Had the
    // waiting context kept the pipeline, the run could not finish; it does,
    // one grant after the compute.
    for (const Timing timing : {Timing::lt, Timing::at}) {
        INFO(timing_name(timing));
        const auto s = run_contexts(2, 4, true, timing);
        REQUIRE_RUN_OK(s);
        CHECK(s["operations"] == kCores * 2);
        const double ns = s["simulated_ns"];
        CHECK(ns > 4000);
        CHECK(ns < 6000); // not 8 us: the waiting context did not take turns computing
        CHECK(s["cores_summary"]["context_switches"].get<uint64_t>() >= kCores);
    }
}

TEST_CASE("threads: a switch to another context costs core.switch_cycles", "[platform][threads]") {
    for (const Timing timing : {Timing::lt, Timing::at}) {
        INFO(timing_name(timing));
        const auto free = run_contexts(2, 0, false, timing);
        const auto costly = run_contexts(2, 1000, false, timing); // 400 ns per switch
        REQUIRE_RUN_OK(free);
        REQUIRE_RUN_OK(costly);
        CHECK(free["simulated_ns"].get<double>() == Approx(8000).margin(1));
        // Each core switches once (the second context after the first): 400 ns more.
        CHECK(costly["simulated_ns"].get<double>() == Approx(8400).margin(1));
        CHECK(costly["cores_summary"]["context_switches"] == kCores);
        CHECK(costly["cores_summary"]["pipeline_wait_ns_total"].get<double>() ==
              Approx(kCores * 4400.0).margin(kCores));
    }
}

TEST_CASE("threads: one context per core keeps the paper's statistics", "[platform][threads]") {
    const auto s = run(syncron::test::bench("lock", 64, 1, Timing::lt, 10));
    REQUIRE_RUN_OK(s);
    CHECK_FALSE(s.contains("contexts"));
    CHECK_FALSE(s["cores_summary"].contains("context_switches"));
    CHECK(s["operations"] == kCores * 10);
}

TEST_CASE("threads: bad context counts are clear errors", "[platform][threads][config]") {
    SimParams p;
    p.core.threads = 3; // the L1's 128 sets do not split three ways
    CHECK_THROWS_WITH(validate(p), Contains("core.threads") && Contains("128 sets"));
    p.core.threads = 16;
    p.platform.cores_per_unit = 128;
    p.core.l1_bytes = 64 * 1024;
    CHECK_THROWS_WITH(validate(p), Contains("core.threads") && Contains("1024 hardware contexts"));
    p.platform.cores_per_unit = 64;
    CHECK_NOTHROW(validate(p));
}
