// The 4-unit platform end to end: every microbenchmark on 60 cores with its
// invariant checked in simulated memory, with the default ST, with no ST at
// all and with a small ST under many variables; bad runs report and still
// produce statistics. One simulation per test case (one per process).
#include <catch2/catch.hpp>

#include "platforms/config/config.h"
#include "platforms/ndp_platform.h"
#include "platforms/simulation.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;

using syncron::test::bench;
using syncron::test::total;

namespace {

void expect_clean_run(const SimulationResult& r, const SimParams& p) {
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(r.check.ok);
    CHECK(r.stats["status"] == "ok");
    CHECK(r.stats["cores"] == 60);
    CHECK(r.stats["units"] == 4);
    CHECK(r.simulated_ns > 0);
    CHECK(r.stats["throughput_ops_per_us"].get<double>() > 0);
    // Every core ran all its operations (semaphore and condvar: in pairs).
    CHECK(r.operations == 60ull * *p.workload.ops);
    // Synchronization crossed the links: 45 of the 60 cores are remote.
    CHECK(r.stats["bytes_across_links"].get<uint64_t>() > 0);
    // Nothing is left served through memory once every core is done.
    CHECK(total(r.stats, "indexing_counters_in_use") == 0);
    CHECK(total(r.stats, "rejected_messages") == 0);
}

void run_default_st(const std::string& w) {
    const SimParams p = bench(w, 64);
    const SimulationResult r = simulate(p);
    expect_clean_run(r, p);
    CHECK(total(r.stats, "overflow_requests") == 0);
    CHECK(total(r.stats, "messages_processed") > 0);
}

void run_no_st(const std::string& w) {
    const SimParams p = bench(w, 0);
    const SimulationResult r = simulate(p);
    expect_clean_run(r, p);
    CHECK(total(r.stats, "overflow_requests") > 0);
    CHECK(total(r.stats, "syncronvar_memory_accesses") > 0);
}

void run_small_st_many_vars(const std::string& w) {
    const SimParams p = bench(w, 2, 16);
    const SimulationResult r = simulate(p);
    expect_clean_run(r, p);
    if (w != "barrier") // one barrier at a time never fills an ST of 2
        CHECK(total(r.stats, "overflow_requests") > 0);
    for (const auto& se : r.stats["se"]) CHECK(se["st_occupancy_max"].get<unsigned>() <= 2);
}

} // namespace

TEST_CASE("platform: lock on 60 cores, default ST", "[platform]") { run_default_st("lock"); }
TEST_CASE("platform: barrier on 60 cores, default ST", "[platform]") { run_default_st("barrier"); }
TEST_CASE("platform: semaphore on 60 cores, default ST", "[platform]") { run_default_st("semaphore"); }
TEST_CASE("platform: condvar on 60 cores, default ST", "[platform]") { run_default_st("condvar"); }

TEST_CASE("platform: lock with no ST entries goes through overflow", "[platform][overflow]") { run_no_st("lock"); }
TEST_CASE("platform: barrier with no ST entries goes through overflow", "[platform][overflow]") {
    run_no_st("barrier");
}
TEST_CASE("platform: semaphore with no ST entries goes through overflow", "[platform][overflow]") {
    run_no_st("semaphore");
}
TEST_CASE("platform: condvar with no ST entries goes through overflow", "[platform][overflow]") {
    run_no_st("condvar");
}

TEST_CASE("platform: lock, small ST and 16 variables", "[platform][overflow]") { run_small_st_many_vars("lock"); }
TEST_CASE("platform: barrier, small ST and 16 variables", "[platform][overflow]") { run_small_st_many_vars("barrier"); }
TEST_CASE("platform: semaphore, small ST and 16 variables", "[platform][overflow]") {
    run_small_st_many_vars("semaphore");
}
TEST_CASE("platform: condvar, small ST and 16 variables", "[platform][overflow]") { run_small_st_many_vars("condvar"); }

TEST_CASE("platform: overflow costs time but not correctness", "[platform][overflow]") {
    // Same workload, serving every request from memory is slower.
    const SimParams p = bench("lock", 0);
    const SimulationResult r = simulate(p);
    REQUIRE(r.ok);
    // 30 acquisitions per core at 200 instructions (80 ns) apart take at
    // least 30 x 80 ns; the memory path adds DRAM accesses per request.
    CHECK(r.simulated_ns > 30 * 80.0);
    CHECK(r.stats["memory"]["writes"].get<uint64_t>() > 0);
}

TEST_CASE("platform: releasing a lock that is not held stops the run with a clear error", "[platform][errors]") {
    SimParams p;
    const SimulationResult r = simulate(p, std::make_unique<syncron::test::BadRelease>());
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.error, Catch::Contains("release of a lock"));
    CHECK_THAT(r.error, Catch::Contains("not held"));
    // Statistics are still there.
    CHECK(r.stats["status"] == "error");
    CHECK(r.stats.contains("se"));
    CHECK(r.stats["se"].size() == 4);
}

namespace {
/// Two cores of unit 0 wait at a barrier that expects three: nobody comes.
class StuckBarrier : public Workload {
public:
    std::string name() const override { return "stuck_barrier"; }
    void setup(Driver& d) override { m_b = d.create_syncvar(0); }
    void run(CoreApi& c) override {
        if (c.unit() == 0 && c.local_id() < 2) c.barrier_wait_within_unit(m_b, 3);
    }
    CheckResult check(Driver&) override { return {}; }
    uint64_t operations() const override { return 0; }

private:
    SyncVar m_b = 0;
};
} // namespace

TEST_CASE("platform: a run where cores wait forever reports them instead of hanging", "[platform][errors]") {
    const SimulationResult r = simulate(SimParams{}, std::make_unique<StuckBarrier>());
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.error, Catch::Contains("2 cores never finished"));
    CHECK(r.stats["cores_summary"]["unfinished"] == 2);
}

TEST_CASE("platform: 16 units of 64 cores elaborate and run a barrier", "[platform][scale]") {
    SimParams p;
    p.platform.units = 16;
    p.platform.cores_per_unit = 64;
    p.platform.client_cores = 1024;
    p.memory.unit_bytes = 1ull << 28;
    p.workload.name = "barrier";
    p.workload.ops = 3;
    const SimulationResult r = simulate(p);
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(r.operations == 1024 * 3);
    CHECK(r.stats["se"].size() == 16);
}

#include "platforms/run_in_child.h"
#include "testbenches/tests/child_result.h"

TEST_CASE("platform: the lock fairness threshold moves the lock between units more often", "[platform][fairness]") {
    const auto run = [](unsigned threshold) {
        return syncron::in_child([threshold] {
            SimParams p = bench("lock", 64);
            p.se.lock_fairness_threshold = threshold;
            return simulate(p).stats;
        });
    };
    const auto off = run(0), on = run(4);
    REQUIRE_RUN_OK(off);
    REQUIRE_RUN_OK(on); // still exclusive: the in-memory counter is exact
    const auto grants_global = [](const nlohmann::json& j) {
        uint64_t n = 0;
        for (const auto& se : j["se"]) n += se["messages"].value("lock_grant_global", 0ull);
        return n;
    };
    CHECK(grants_global(on) > 2 * grants_global(off));
}
