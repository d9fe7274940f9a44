// Every microbenchmark under every synchronization scheme, loosely and
// approximately timed: each run must finish with its invariants checked in
// simulated memory and the same functional result (all operations done), and
// show the traffic its scheme is made of. The MiSAR-style schemes are also
// driven into overflow, where they must abort, fall back to their servers and
// end with every indexing counter back at zero. One simulation per test case.
#include <catch2/catch.hpp>

#include "models/schemes/scheme_factory.h"
#include "platforms/config/config.h"
#include "platforms/ndp_platform.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/platform_test_helpers.h"
#include "testbenches/workloads/microbenchmarks.h"

using namespace syncron;

using syncron::test::total;

namespace {

constexpr unsigned kOps = 20;

SimParams scheme_bench(const std::string& scheme, const std::string& workload, Timing timing) {
    SimParams p = syncron::test::bench(workload, 64, 1, timing, kOps);
    p.platform.scheme = *scheme_from_string(scheme);
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
    CHECK(r.operations == 60ull * *p.workload.ops); // the same functional result under every scheme
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
    } else if (scheme == "mesi_lock") {
        CHECK(s["sync_messages"] == 0);
        CHECK(se_processed(s) == 0);
        CHECK_FALSE(servers);
        // What each primitive issues (docs/schemes.md, "mesi_lock"), counted
        // exactly where the workload fixes it.
        const auto& m = s["mesi_lock"];
        const uint64_t ops = 60ull * kOps, pairs = 30ull * kOps;
        const uint64_t cas = m["cas"], faa = m["faa"], failed = m["failed_attempts"];
        CHECK(m["loads"].get<uint64_t>() > 0);
        CHECK(m["swap"] == 0);
        if (workload == "lock") {
            CHECK(cas - failed == ops); // one successful test-and-set per acquisition
            CHECK(m["stores"] == ops);  // one store per release
            CHECK(faa == 0);
            CHECK(m["spin_loads"].get<uint64_t>() > 0); // 60 cores on one lock
        } else if (workload == "barrier") {
            CHECK(faa == ops);
            CHECK(m["stores"] == 2ull * kOps); // the last arrival resets the count and flips the sense
            CHECK(cas == 0);
        } else if (workload == "semaphore") {
            CHECK(faa == pairs);          // posts
            CHECK(cas - failed == pairs); // grants
        } else if (workload == "condvar") {
            CHECK(faa == pairs); // signals
        }
    }
}

} // namespace

#define SCHEME_CASES(scheme)                                                                                           \
    TEST_CASE("schemes: " scheme ", lock, LT", "[platform][schemes]") { run_scheme(scheme, "lock", Timing::lt); }      \
    TEST_CASE("schemes: " scheme ", barrier, LT", "[platform][schemes]") {                                             \
        run_scheme(scheme, "barrier", Timing::lt);                                                                     \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme ", semaphore, LT", "[platform][schemes]") {                                           \
        run_scheme(scheme, "semaphore", Timing::lt);                                                                   \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme ", condvar, LT", "[platform][schemes]") {                                             \
        run_scheme(scheme, "condvar", Timing::lt);                                                                     \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme ", lock, AT", "[platform][schemes][at]") { run_scheme(scheme, "lock", Timing::at); }  \
    TEST_CASE("schemes: " scheme ", barrier, AT", "[platform][schemes][at]") {                                         \
        run_scheme(scheme, "barrier", Timing::at);                                                                     \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme ", semaphore, AT", "[platform][schemes][at]") {                                       \
        run_scheme(scheme, "semaphore", Timing::at);                                                                   \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme ", condvar, AT", "[platform][schemes][at]") {                                         \
        run_scheme(scheme, "condvar", Timing::at);                                                                     \
    }

SCHEME_CASES("syncron")
SCHEME_CASES("flat")
SCHEME_CASES("central")
SCHEME_CASES("hier")
SCHEME_CASES("ideal")
SCHEME_CASES("remote_atomics")
SCHEME_CASES("syncron_central_ovrfl")
SCHEME_CASES("syncron_distrib_ovrfl")
SCHEME_CASES("mesi_lock")

// ---------------------------------------------------------------- MiSAR-style overflow

namespace {

/// Small STs and many variables: requests are aborted, served by the
/// fallback servers, and every indexing counter returns to zero.
void run_misar_overflow(const std::string& scheme, const std::string& workload, unsigned st_entries, unsigned variables,
                        Timing timing) {
    SimParams p = syncron::test::bench(workload, st_entries, variables, timing, kOps);
    p.platform.scheme = *scheme_from_string(scheme);
    const SimulationResult r = simulate(p);
    expect_clean(r, p);
    const auto& s = r.stats;
    CHECK(messages_of(s, "abort_local") > 0);           // cores were aborted
    CHECK(s["misar"]["fallbacks"].get<uint64_t>() > 0); // and went to software
    CHECK(messages_of(s, "decrease_indexing_counter") > 0);
    uint64_t handled = 0;
    for (const auto& sv : s["servers"]) {
        handled += sv["messages_handled"].get<uint64_t>();
        CHECK(sv["unreported"] == 0); // every diverted operation was reported back
    }
    CHECK(handled > 0);
    CHECK(total(s, "overflow_requests") > 0);           // redirected, aborted or forwarded by the SEs
    CHECK(total(s, "syncronvar_memory_accesses") == 0); // no syncronVar: this is not the integrated scheme
}

} // namespace

#define MISAR_CASES(scheme, timing, tname)                                                                             \
    TEST_CASE("schemes: " scheme " with no ST entries falls back for every lock, " tname,                              \
              "[platform][schemes][misar]") {                                                                          \
        run_misar_overflow(scheme, "lock", 0, 1, timing);                                                              \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme " with no ST entries falls back for every barrier, " tname,                           \
              "[platform][schemes][misar]") {                                                                          \
        run_misar_overflow(scheme, "barrier", 0, 1, timing);                                                           \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme " with no ST entries falls back for every semaphore, " tname,                         \
              "[platform][schemes][misar]") {                                                                          \
        run_misar_overflow(scheme, "semaphore", 0, 1, timing);                                                         \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme " with no ST entries falls back for every condvar, " tname,                           \
              "[platform][schemes][misar]") {                                                                          \
        run_misar_overflow(scheme, "condvar", 0, 1, timing);                                                           \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme ", lock, ST of 1 and 16 variables, " tname, "[platform][schemes][misar]") {           \
        run_misar_overflow(scheme, "lock", 1, 16, timing);                                                             \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme ", semaphore, ST of 1 and 16 variables, " tname, "[platform][schemes][misar]") {      \
        run_misar_overflow(scheme, "semaphore", 1, 16, timing);                                                        \
    }                                                                                                                  \
    TEST_CASE("schemes: " scheme ", condvar, ST of 1 and 16 variables, " tname, "[platform][schemes][misar]") {        \
        run_misar_overflow(scheme, "condvar", 1, 16, timing);                                                          \
    }

MISAR_CASES("syncron_central_ovrfl", Timing::lt, "LT")
MISAR_CASES("syncron_distrib_ovrfl", Timing::lt, "LT")
MISAR_CASES("syncron_central_ovrfl", Timing::at, "AT")
MISAR_CASES("syncron_distrib_ovrfl", Timing::at, "AT")

// ---------------------------------------------------------------- scheme properties

#include "platforms/ndp_platform.h"
#include "platforms/run_in_child.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/stats_in_child.h"

namespace {

using syncron::test::stats_of;

SimParams paper_point(const std::string& scheme, const std::string& workload) {
    SimParams p; // the paper's microbenchmark: 60 cores, 200 instructions, empty critical section
    p.platform.scheme = *scheme_from_string(scheme);
    p.workload.name = workload;
    return p;
}

void expect_paper_ordering(const std::string& workload) {
    // Figure 10 at 200 instructions: Central < Hier < SynCron <= Ideal.
    double t[4];
    const char* order[4] = {"central", "hier", "syncron", "ideal"};
    for (int i = 0; i < 4; ++i) {
        const auto s = stats_of(paper_point(order[i], workload));
        INFO(order[i] << ": " << s.value("error", ""));
        REQUIRE_RUN_OK(s);
        t[i] = s["throughput_ops_per_us"];
    }
    INFO("central " << t[0] << ", hier " << t[1] << ", syncron " << t[2] << ", ideal " << t[3] << " ops/us");
    CHECK(t[0] < t[1]);
    CHECK(t[1] < t[2]);
    CHECK(t[2] <= t[3]);
}

} // namespace

TEST_CASE("schemes: at 200 instructions Central < Hier < SynCron <= Ideal for the lock", "[platform][schemes][order]") {
    expect_paper_ordering("lock");
}
TEST_CASE("schemes: at 200 instructions Central < Hier < SynCron <= Ideal for the barrier",
          "[platform][schemes][order]") {
    expect_paper_ordering("barrier");
}
TEST_CASE("schemes: at 200 instructions Central < Hier < SynCron <= Ideal for the semaphore",
          "[platform][schemes][order]") {
    expect_paper_ordering("semaphore");
}
TEST_CASE("schemes: at 200 instructions Central < Hier < SynCron <= Ideal for the condvar",
          "[platform][schemes][order]") {
    expect_paper_ordering("condvar");
}

TEST_CASE("schemes: ideal synchronization costs no time and no traffic", "[platform][schemes]") {
    SimParams p = paper_point("ideal", "lock");
    const SimulationResult r = simulate(p);
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(r.stats["bytes_within_units"] == 0);
    CHECK(r.stats["bytes_across_links"] == 0);
    CHECK(r.stats["memory"]["reads"] == 0);
    // Every core only computes: a start offset below one interval, then ops
    // intervals of 200 instructions at 2.5 GHz (80 ns); the empty critical
    // sections cost nothing.
    const double interval_ns = p.workload.interval / p.core.clock_ghz;
    const unsigned ops = r.stats["ops_per_core"];
    CHECK(ops == kMicrobenchmarkOps); // unset in the preset: the workload's default
    CHECK(r.simulated_ns <= (ops + 1) * interval_ns);
    CHECK(r.simulated_ns >= ops * interval_ns);
}

TEST_CASE("schemes: the server's instructions per request and its table's caching cost time",
          "[platform][schemes][server]") {
    SimParams base = paper_point("central", "lock");
    base.workload.ops = 30;
    SimParams slow = base, cached = base;
    slow.server.instructions_per_request = 400;
    cached.server.central_cached = true;
    const auto b = stats_of(base), s = stats_of(slow), c = stats_of(cached);
    REQUIRE_RUN_OK(b);
    REQUIRE_RUN_OK(s);
    REQUIRE_RUN_OK(c);
    CHECK(s["simulated_ns"].get<double>() > 2 * b["simulated_ns"].get<double>());
    CHECK(c["simulated_ns"].get<double>() < b["simulated_ns"].get<double>());
    // Uncached, every message reads and writes its table slot in memory.
    CHECK(b["memory"]["reads"].get<uint64_t>() >= b["servers"][0]["messages_handled"].get<uint64_t>());
    CHECK(c["memory"]["reads"].get<uint64_t>() < 10); // cached: the slot stays in the L1
    // The busy fraction is that of a saturated server.
    CHECK(b["servers"][0]["busy_fraction"].get<double>() > 0.9);
}

TEST_CASE("schemes: every scheme is deterministic", "[platform][schemes][determinism]") {
    for (const char* scheme : {"syncron", "flat", "central", "hier", "ideal", "remote_atomics", "syncron_central_ovrfl",
                               "syncron_distrib_ovrfl", "mesi_lock"}) {
        SimParams p = syncron::test::bench("condvar", 1, 16, Timing::lt, 10);
        p.platform.scheme = *scheme_from_string(scheme);
        auto a = stats_of(p), b = stats_of(p);
        a.erase("host");
        b.erase("host");
        INFO(scheme);
        CHECK_RUN_OK(a);
        CHECK(a == b);
    }
}

namespace {
/// Core 3 releases a lock it never acquired (BadRelease); the scheme must say so.
void expect_bad_release_reported(const std::string& scheme) {
    SimParams p;
    p.platform.scheme = *scheme_from_string(scheme);
    const SimulationResult r = simulate(p, std::make_unique<syncron::test::BadRelease>());
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.error, Catch::Contains("release of a lock"));
    CHECK_THAT(r.error, Catch::Contains("not held"));
    CHECK(r.stats["status"] == "error");
    CHECK(r.stats["scheme"] == scheme);
}
} // namespace

TEST_CASE("schemes: flat reports a release of a lock not held", "[platform][schemes][errors]") {
    expect_bad_release_reported("flat");
}
TEST_CASE("schemes: central reports a release of a lock not held", "[platform][schemes][errors]") {
    expect_bad_release_reported("central");
}
TEST_CASE("schemes: hier reports a release of a lock not held", "[platform][schemes][errors]") {
    expect_bad_release_reported("hier");
}
TEST_CASE("schemes: ideal reports a release of a lock not held", "[platform][schemes][errors]") {
    expect_bad_release_reported("ideal");
}
TEST_CASE("schemes: remote_atomics reports a release of a lock not held", "[platform][schemes][errors]") {
    expect_bad_release_reported("remote_atomics");
}
TEST_CASE("schemes: syncron_distrib_ovrfl reports a release of a lock not held", "[platform][schemes][errors]") {
    expect_bad_release_reported("syncron_distrib_ovrfl");
}
TEST_CASE("schemes: mesi_lock reports a release of a lock not held", "[platform][schemes][errors]") {
    expect_bad_release_reported("mesi_lock");
}

TEST_CASE("schemes: a scheme that needs a server core refuses a platform with none free",
          "[platform][schemes][errors]") {
    for (const char* scheme : {"central", "hier", "syncron_central_ovrfl", "syncron_distrib_ovrfl"}) {
        SimParams p;
        p.platform.scheme = *scheme_from_string(scheme);
        p.platform.client_cores = 64;
        INFO(scheme);
        CHECK_THROWS_WITH(validate(p), Catch::Contains("leaves no core of unit 0 free") && Catch::Contains(scheme));
    }
    SimParams p; // the others run on every core
    p.platform.client_cores = 64;
    for (const char* scheme : {"syncron", "flat", "ideal", "remote_atomics", "mesi_lock"}) {
        p.platform.scheme = *scheme_from_string(scheme);
        CHECK_NOTHROW(validate(p));
    }
}

TEST_CASE("schemes: the fair core count leaves the 16th core as the server", "[platform][schemes]") {
    const SimulationResult r = simulate(paper_point("hier", "barrier"));
    REQUIRE(r.ok);
    CHECK(r.stats["cores"] == 60);
    REQUIRE(r.stats["servers"].size() == 4);
    for (unsigned u = 0; u < 4; ++u) {
        CHECK(r.stats["servers"][u]["unit"] == u);
        CHECK(r.stats["servers"][u]["core"] == 15);
    }
}

namespace {
/// Core 5 acquires a lock twice without releasing it.
class DoubleAcquire : public Workload {
public:
    std::string name() const override { return "double_acquire"; }
    void setup(Driver& d) override { m_lock = d.create_syncvar(0); }
    void run(CoreApi& c) override {
        if (c.global_id() != 5) return;
        c.lock_acquire(m_lock);
        c.lock_acquire(m_lock);
    }
    CheckResult check(Driver&) override { return {}; }
    uint64_t operations() const override { return 0; }

private:
    SyncVar m_lock = 0;
};

void expect_double_acquire_reported(const std::string& scheme) {
    SimParams p;
    p.platform.scheme = *scheme_from_string(scheme);
    const SimulationResult r = simulate(p, std::make_unique<DoubleAcquire>());
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.error, Catch::Contains("already holds"));
}
} // namespace

TEST_CASE("schemes: a second acquire by the holder is an error under syncron", "[platform][schemes][errors]") {
    expect_double_acquire_reported("syncron");
}
TEST_CASE("schemes: a second acquire by the holder is an error under central", "[platform][schemes][errors]") {
    expect_double_acquire_reported("central");
}
TEST_CASE("schemes: a second acquire by the holder is an error under ideal", "[platform][schemes][errors]") {
    expect_double_acquire_reported("ideal");
}
TEST_CASE("schemes: a second acquire by the holder is an error under hier", "[platform][schemes][errors]") {
    expect_double_acquire_reported("hier");
}
TEST_CASE("schemes: a second acquire by the holder is an error under mesi_lock", "[platform][schemes][errors]") {
    expect_double_acquire_reported("mesi_lock");
}

// ------------------------------------------------------------ the plug-ins

TEST_CASE("schemes: every Scheme has its plug-in, with the SE set-up and server cores of docs/schemes.md",
          "[platform][schemes][plugin]") {
    for (const std::string& name : scheme_names()) {
        const Scheme s = *scheme_from_string(name);
        CHECK(to_string(s) == name);
        const auto plugin = make_scheme(s);
        CHECK(plugin->kind() == s);
        SeTopology t;
        t.home_unit = [](uint64_t) { return 2u; }; // the platform sets it before configure
        plugin->configure(t);
        const bool misar = s == Scheme::syncron_central_ovrfl || s == Scheme::syncron_distrib_ovrfl;
        CHECK(plugin->uses_ses() == (s == Scheme::syncron || s == Scheme::flat || misar));
        CHECK((t.organization == SeOrganization::flat) == (s == Scheme::flat));
        CHECK((t.overflow == OverflowPolicy::abort) == misar);
        CHECK(static_cast<bool>(t.fallback_server) == misar);
        if (misar) CHECK(t.fallback_server(0x1000) == (s == Scheme::syncron_distrib_ovrfl ? 2u : 0u));
        const bool per_unit = s == Scheme::hier || s == Scheme::syncron_distrib_ovrfl;
        const bool central = s == Scheme::central || s == Scheme::syncron_central_ovrfl;
        CHECK(plugin->servers_in(0) == (per_unit || central ? 1u : 0u));
        CHECK(plugin->servers_in(3) == (per_unit ? 1u : 0u));
        CHECK(plugin->server_cores().empty()); // none adopted before the platform builds
    }
    CHECK_FALSE(scheme_from_string("flatt"));
}

TEST_CASE("schemes: the platform holds the plug-in and its server cores", "[platform][schemes][plugin]") {
    // One elaboration, in a child process: the kernel cannot be reset.
    const nlohmann::json seen = syncron::in_child([] {
        SimParams p = scheme_bench("syncron_distrib_ovrfl", "lock", Timing::lt);
        nlohmann::json out;
        simulate(p, [&](NdpPlatform& pf) {
            out["scheme"] = to_string(pf.sync_scheme().kind());
            out["abort"] = pf.topology().overflow == OverflowPolicy::abort;
            for (const NdpCore* c : pf.sync_scheme().server_cores())
                out["servers"].push_back({c->name(), c->unit(), c->local_id()});
        });
        return out;
    });
    REQUIRE_CHILD_OK(seen);
    CHECK(seen["scheme"] == "syncron_distrib_ovrfl");
    CHECK(seen["abort"] == true);
    REQUIRE(seen["servers"].size() == 4);
    for (unsigned u = 0; u < 4; ++u)
        CHECK(seen["servers"][u] == nlohmann::json({"ndp.unit" + std::to_string(u) + "_server", u, 15}));
}
