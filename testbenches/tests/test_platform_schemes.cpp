// Every microbenchmark under every synchronization scheme, loosely and
// approximately timed: each run must finish with its invariants checked in
// simulated memory and the same functional result (all operations done), and
// show the traffic its scheme is made of. The MiSAR-style schemes are also
// driven into overflow, where they must abort, fall back to their servers and
// end with every indexing counter back at zero. One simulation per test case.
#include <catch2/catch.hpp>

#include "platforms/config/config.h"
#include "platforms/simulation.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;

using syncron::test::total;

namespace {

constexpr unsigned kOps = 20;

SimParams scheme_bench(const std::string& scheme, const std::string& workload, Timing timing) {
    SimParams p = syncron::test::bench(workload, 64, 1, timing, kOps);
    p.platform.scheme = scheme;
    return p;
}

uint64_t messages_of(const nlohmann::json& stats, const char* op) {
    return stats["messages_by_kind"].value(op, uint64_t(0));
}

uint64_t se_processed(const nlohmann::json& stats) { return total(stats, "messages_processed"); }

void expect_clean(const SimulationResult& r, const SimParams& p) {
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(r.check.ok);
    CHECK(r.stats["scheme"] == p.platform.scheme);
    CHECK(r.operations == 60ull * p.workload.ops); // the same functional result under every scheme
    CHECK(total(r.stats, "indexing_counters_in_use") == 0);
    CHECK(total(r.stats, "rejected_messages") == 0);
    if (p.platform.timing == Timing::at) CHECK(r.stats["protocol_violations"] == 0);
}

void run_scheme(const std::string& scheme, const std::string& workload, Timing timing) {
    const SimParams p = scheme_bench(scheme, workload, timing);
    const SimulationResult r = simulate(p);
    expect_clean(r, p);
    const auto& s = r.stats;
    const bool servers = s.contains("servers");
    if (scheme == "syncron" || scheme == "syncron_central_ovrfl" || scheme == "syncron_distrib_ovrfl") {
        CHECK(se_processed(s) > 0);
        CHECK_FALSE(servers == (scheme == "syncron")); // the MiSAR-style schemes have their fallback servers
        if (servers)
            for (const auto& sv : s["servers"]) CHECK(sv["messages_handled"] == 0); // one variable never overflows
        CHECK(messages_of(s, "abort_local") == 0);
    } else if (scheme == "flat") {
        // One variable, homed in unit 0: only the Master SE works, and only
        // local-level messages exist.
        CHECK(s["se"][0]["messages_processed"].get<uint64_t>() > 0);
        for (unsigned u = 1; u < 4; ++u) CHECK(s["se"][u]["messages_processed"] == 0);
        for (const auto& kv : s["messages_by_kind"].items()) {
            INFO(kv.key());
            CHECK(kv.key().find("_global") == std::string::npos);
        }
        CHECK(s["bytes_across_links"].get<uint64_t>() > 0);
    } else if (scheme == "central") {
        REQUIRE(servers);
        REQUIRE(s["servers"].size() == 1);
        CHECK(s["servers"][0]["unit"] == 0);
        CHECK(s["servers"][0]["messages_handled"].get<uint64_t>() > 0);
        const double busy = s["servers"][0]["busy_fraction"];
        CHECK(busy > 0.0);
        CHECK(busy <= 1.0);
        CHECK(se_processed(s) == 0);
        CHECK(s["bytes_across_links"].get<uint64_t>() > 0); // 45 clients are remote
    } else if (scheme == "hier") {
        REQUIRE(servers);
        REQUIRE(s["servers"].size() == 4);
        for (const auto& sv : s["servers"]) CHECK(sv["messages_handled"].get<uint64_t>() > 0);
        CHECK(se_processed(s) == 0);
    } else if (scheme == "ideal") {
        CHECK(s["sync_messages"] == 0);
        CHECK(s["ideal"]["requests"].get<uint64_t>() > 0);
        CHECK(se_processed(s) == 0);
    } else if (scheme == "remote_atomics") {
        CHECK(s["sync_messages"] == 0);
        CHECK(se_processed(s) == 0);
        const auto& a = s["atomics"];
        CHECK(a["cas"].get<uint64_t>() + a["faa"].get<uint64_t>() + a["swap"].get<uint64_t>() > 0);
    }
}

} // namespace

#define SCHEME_CASES(scheme)                                                                                  \
    TEST_CASE("schemes: " scheme ", lock, LT", "[platform][schemes]") { run_scheme(scheme, "lock", Timing::lt); } \
    TEST_CASE("schemes: " scheme ", barrier, LT", "[platform][schemes]") {                                    \
        run_scheme(scheme, "barrier", Timing::lt);                                                            \
    }                                                                                                         \
    TEST_CASE("schemes: " scheme ", semaphore, LT", "[platform][schemes]") {                                  \
        run_scheme(scheme, "semaphore", Timing::lt);                                                          \
    }                                                                                                         \
    TEST_CASE("schemes: " scheme ", condvar, LT", "[platform][schemes]") {                                    \
        run_scheme(scheme, "condvar", Timing::lt);                                                            \
    }                                                                                                         \
    TEST_CASE("schemes: " scheme ", lock, AT", "[platform][schemes][at]") { run_scheme(scheme, "lock", Timing::at); } \
    TEST_CASE("schemes: " scheme ", barrier, AT", "[platform][schemes][at]") {                                \
        run_scheme(scheme, "barrier", Timing::at);                                                            \
    }                                                                                                         \
    TEST_CASE("schemes: " scheme ", semaphore, AT", "[platform][schemes][at]") {                              \
        run_scheme(scheme, "semaphore", Timing::at);                                                          \
    }                                                                                                         \
    TEST_CASE("schemes: " scheme ", condvar, AT", "[platform][schemes][at]") {                                \
        run_scheme(scheme, "condvar", Timing::at);                                                            \
    }

SCHEME_CASES("syncron")
SCHEME_CASES("flat")
SCHEME_CASES("central")
SCHEME_CASES("hier")
SCHEME_CASES("ideal")
SCHEME_CASES("remote_atomics")
SCHEME_CASES("syncron_central_ovrfl")
SCHEME_CASES("syncron_distrib_ovrfl")

// ---------------------------------------------------------------- MiSAR-style overflow

namespace {

/// Small STs and many variables: requests are aborted, served by the
/// fallback servers, and every indexing counter returns to zero.
void run_misar_overflow(const std::string& scheme, const std::string& workload, unsigned st_entries,
                        unsigned variables, Timing timing) {
    SimParams p = syncron::test::bench(workload, st_entries, variables, timing, kOps);
    p.platform.scheme = scheme;
    const SimulationResult r = simulate(p);
    expect_clean(r, p);
    const auto& s = r.stats;
    CHECK(messages_of(s, "abort_local") > 0);      // cores were aborted
    CHECK(s["misar"]["fallbacks"].get<uint64_t>() > 0); // and went to software
    CHECK(messages_of(s, "decrease_indexing_counter") > 0);
    uint64_t handled = 0;
    for (const auto& sv : s["servers"]) {
        handled += sv["messages_handled"].get<uint64_t>();
        CHECK(sv["unreported"] == 0); // every diverted operation was reported back
    }
    CHECK(handled > 0);
    CHECK(total(s, "overflow_requests") > 0);          // redirected, aborted or forwarded by the SEs
    CHECK(total(s, "syncronvar_memory_accesses") == 0); // no syncronVar: this is not the integrated scheme
}

} // namespace

#define MISAR_CASES(scheme, timing, tname)                                                                     \
    TEST_CASE("schemes: " scheme " with no ST entries falls back for every lock, " tname,                      \
              "[platform][schemes][misar]") {                                                                   \
        run_misar_overflow(scheme, "lock", 0, 1, timing);                                                      \
    }                                                                                                          \
    TEST_CASE("schemes: " scheme " with no ST entries falls back for every barrier, " tname,                   \
              "[platform][schemes][misar]") {                                                                   \
        run_misar_overflow(scheme, "barrier", 0, 1, timing);                                                   \
    }                                                                                                          \
    TEST_CASE("schemes: " scheme " with no ST entries falls back for every semaphore, " tname,                 \
              "[platform][schemes][misar]") {                                                                   \
        run_misar_overflow(scheme, "semaphore", 0, 1, timing);                                                 \
    }                                                                                                          \
    TEST_CASE("schemes: " scheme " with no ST entries falls back for every condvar, " tname,                   \
              "[platform][schemes][misar]") {                                                                   \
        run_misar_overflow(scheme, "condvar", 0, 1, timing);                                                   \
    }                                                                                                          \
    TEST_CASE("schemes: " scheme ", lock, ST of 1 and 16 variables, " tname, "[platform][schemes][misar]") {   \
        run_misar_overflow(scheme, "lock", 1, 16, timing);                                                     \
    }                                                                                                          \
    TEST_CASE("schemes: " scheme ", semaphore, ST of 1 and 16 variables, " tname,                              \
              "[platform][schemes][misar]") {                                                                   \
        run_misar_overflow(scheme, "semaphore", 1, 16, timing);                                                \
    }                                                                                                          \
    TEST_CASE("schemes: " scheme ", condvar, ST of 1 and 16 variables, " tname, "[platform][schemes][misar]") { \
        run_misar_overflow(scheme, "condvar", 1, 16, timing);                                                  \
    }

MISAR_CASES("syncron_central_ovrfl", Timing::lt, "LT")
MISAR_CASES("syncron_distrib_ovrfl", Timing::lt, "LT")
MISAR_CASES("syncron_central_ovrfl", Timing::at, "AT")
MISAR_CASES("syncron_distrib_ovrfl", Timing::at, "AT")
