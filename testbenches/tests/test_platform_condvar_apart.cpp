// The condvar microbenchmark with every condition variable homed one unit
// after its lock (workload.condvar_apart): the waiter's registration and the
// lock's release then take different paths, and no wake-up may be lost under
// any scheme, loosely or approximately timed, with several seeds, with the
// ST large or tiny (overflow). docs/protocol.md, "Condition variable".
#include <catch2/catch.hpp>

#include "models/schemes/scheme_factory.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;

using syncron::test::total;

namespace {

constexpr unsigned kOps = 20;

uint64_t messages_of(const nlohmann::json& stats, const char* op) {
    return stats.contains("messages_by_kind") ? stats["messages_by_kind"].value(op, uint64_t(0)) : 0;
}

/// One simulation in a child process (a SystemC kernel elaborates once per
/// process): what the tests look at.
nlohmann::json run_one(const SimParams& p) {
    return syncron::in_child([p] {
        const SimulationResult r = simulate(p);
        return nlohmann::json{{"ok", r.ok},
                              {"error", r.error},
                              {"check_ok", r.check.ok},
                              {"failures", r.check.failures},
                              {"operations", r.operations},
                              {"stats", r.stats}};
    });
}

/// Runs seeds 1..3 and returns the cond_registered_global messages seen.
uint64_t run_apart(const std::string& scheme, Timing timing, unsigned st_entries, bool apart = true) {
    uint64_t confirmations = 0;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        SimParams p = syncron::test::bench("condvar", st_entries, 8, timing, kOps);
        p.platform.scheme = *scheme_from_string(scheme);
        p.workload.condvar_apart = apart;
        p.workload.seed = seed;
        INFO(scheme << " seed " << seed << " st " << st_entries);
        const nlohmann::json r = run_one(p);
        INFO(r.value("error", r.value("child_error", std::string("(the child reported nothing)"))));
        REQUIRE(r.value("ok", false)); // a lost wake-up leaves a waiter blocked: "cores never finished"
        for (const auto& f : r.value("failures", nlohmann::json::array())) UNSCOPED_INFO(f.get<std::string>());
        CHECK(r.value("check_ok", false)); // lock exclusive, tokens taken = given, token word back at 0
        CHECK(r.value("operations", uint64_t(0)) == 60ull * kOps);
        const nlohmann::json& s = r.at("stats");
        if (s.contains("se")) {
            CHECK(total(s, "indexing_counters_in_use") == 0);
            CHECK(total(s, "rejected_messages") == 0);
        }
        if (timing == Timing::at) CHECK(s.value("protocol_violations", uint64_t(1)) == 0);
        confirmations += messages_of(s, "cond_registered_global");
    }
    return confirmations;
}

} // namespace

#define APART_CASES(scheme)                                                                                            \
    TEST_CASE("condvar apart: " scheme ", LT, 3 seeds", "[platform][condvar_apart]") {                                 \
        run_apart(scheme, Timing::lt, 64);                                                                             \
    }                                                                                                                  \
    TEST_CASE("condvar apart: " scheme ", AT, 3 seeds", "[platform][condvar_apart][at]") {                             \
        run_apart(scheme, Timing::at, 64);                                                                             \
    }

APART_CASES("syncron")
APART_CASES("flat")
APART_CASES("central")
APART_CASES("hier")
APART_CASES("ideal")
APART_CASES("remote_atomics")
APART_CASES("syncron_central_ovrfl")
APART_CASES("syncron_distrib_ovrfl")
APART_CASES("mesi_lock")

TEST_CASE("condvar apart: syncron confirms registrations only when the lock is homed elsewhere",
          "[platform][condvar_apart]") {
    CHECK(run_apart("syncron", Timing::lt, 64, true) > 0);
    CHECK(run_apart("syncron", Timing::lt, 64, false) == 0); // co-located: the FIFO path orders them
}

TEST_CASE("condvar apart: SynCron with a 1-entry ST (integrated overflow), LT and AT", "[platform][condvar_apart]") {
    run_apart("syncron", Timing::lt, 1);
    run_apart("syncron", Timing::at, 1);
}

TEST_CASE("condvar apart: the MiSAR-style schemes with a 1-entry ST (aborts), LT and AT",
          "[platform][condvar_apart][misar]") {
    for (const char* scheme : {"syncron_central_ovrfl", "syncron_distrib_ovrfl"}) {
        run_apart(scheme, Timing::lt, 1);
        run_apart(scheme, Timing::at, 1);
    }
}

TEST_CASE("condvar apart: a one-unit platform is a clear error", "[platform][condvar_apart][errors]") {
    SimParams p = syncron::test::bench("condvar", 64, 1, Timing::lt, kOps);
    p.platform.units = 1;
    p.platform.client_cores = 8;
    p.workload.condvar_apart = true;
    const nlohmann::json r = run_one(p);
    CHECK_FALSE(r.value("ok", true));
    CHECK(r.value("error", std::string()).find("condvar_apart needs at least 2 units") != std::string::npos);
}
