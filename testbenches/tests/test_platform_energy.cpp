// Memory technologies and energy (docs/energy.md, docs/memory/*.md): every
// preset runs every microbenchmark under every scheme in LT and AT with its
// invariants; the energy account adds up, its static part grows with the
// run's length, Ideal spends the least; data movement splits into data and
// synchronization traffic. Several simulations per case, each in a forked
// child (one elaboration per process).
#include <catch2/catch.hpp>

#include <string>

#include "models/common/energy_model.h"
#include "models/schemes/scheme_factory.h"
#include "platforms/config/config.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;
using nlohmann::json;

namespace {

constexpr unsigned kOps = 10;
const char* const kComponents[] = {"cores", "caches", "network", "links", "memory", "se"};

SimParams on_preset(const std::string& preset, const std::string& workload, const std::string& scheme, Timing timing,
                    unsigned ops = kOps) {
    SimParams p = load_preset(preset);
    p.platform.timing = timing;
    p.platform.scheme = *scheme_from_string(scheme);
    p.check.protocol = timing == Timing::at;
    p.workload.name = workload;
    p.workload.ops = ops;
    p.workload.interval = 200;
    p.workload.memory_check = true;
    return p;
}

json run(const SimParams& p) {
    return in_child([p] {
        const SimulationResult r = simulate(p);
        json s = r.stats;
        s["check_ok"] = r.check.ok;
        s["operations_done"] = r.operations;
        return s;
    });
}

std::string what(const json& s) { return s.value("error", s.value("child_error", std::string("ok"))); }

void check_energy_adds_up(const json& s) {
    REQUIRE(s.contains("energy"));
    const json& e = s["energy"];
    double sum = 0;
    for (const char* c : kComponents) {
        INFO(c);
        REQUIRE(e.contains(c));
        CHECK(e[c].get<double>() >= 0.0);
        sum += e[c].get<double>();
        const json& b = s["energy_breakdown"][c];
        CHECK(b["dynamic"].get<double>() + b["static"].get<double>() == Approx(e[c].get<double>()));
    }
    CHECK(e["total"].get<double>() == Approx(sum));
    CHECK(e["cores"].get<double>() > 0.0);
    CHECK(e["memory"].get<double>() > 0.0); // memory_check puts every primitive's invariant in memory
    const json& d = s["data_movement"];
    CHECK(d["within_units"]["data"].get<uint64_t>() + d["within_units"]["sync"].get<uint64_t>() ==
          s["bytes_within_units"].get<uint64_t>());
    CHECK(d["across_links"]["data"].get<uint64_t>() + d["across_links"]["sync"].get<uint64_t>() ==
          s["bytes_across_links"].get<uint64_t>());
}

/// Every microbenchmark under every scheme on one preset and timing style.
void run_matrix(const std::string& preset, Timing timing) {
    for (const std::string& scheme : scheme_names())
        for (const char* workload : {"lock", "barrier", "semaphore", "condvar"}) {
            const SimParams p = on_preset(preset, workload, scheme, timing);
            const json s = run(p);
            INFO(preset << " " << scheme << " " << workload << " " << timing_name(timing) << ": " << what(s));
            REQUIRE(s.value("status", std::string()) == "ok");
            CHECK(s["check_ok"] == true);
            CHECK(s["operations_done"] == 60ull * kOps); // the same functional result everywhere
            for (const auto& se : s["se"]) CHECK(se["indexing_counters_in_use"] == 0);
            if (timing == Timing::at) CHECK(s["protocol_violations"] == 0);
            check_energy_adds_up(s);
        }
}

} // namespace

TEST_CASE("energy: the account of a hand-computed run", "[energy]") {
    EnergyParams p; // hmc4's figures
    p.core_static_mw = 10.0;
    p.memory_activate_pj = 100.0;
    p.memory_static_mw = 5.0;
    EnergyCounters c;
    c.seconds = 1e-6; // 1 us
    c.cores = 4;
    c.instructions = 1000;
    c.l1_hits = 10;
    c.l1_misses = 2;
    c.xbar_bytes = 64;
    c.link_bytes = 8;
    c.memory_bytes = 128;
    c.activations = 2;
    c.memory_units = 2;
    c.ses = 3;
    const EnergyAccount a = energy_of(c, p);
    CHECK(a.cores.dynamic_pj == Approx(1000 * 70.0));
    CHECK(a.cores.static_pj == Approx(10.0 * 4 * 1e-6 * 1e9)); // 10 mW x 4 cores x 1 us = 40 nJ
    CHECK(a.caches.dynamic_pj == Approx(10 * 23.0 + 2 * 47.0));
    CHECK(a.network.dynamic_pj == Approx(64 * 8 * 0.4));
    CHECK(a.links.dynamic_pj == Approx(8 * 8 * 4.0));
    CHECK(a.memory.dynamic_pj == Approx(128 * 8 * 3.7 + 2 * 100.0));
    CHECK(a.memory.static_pj == Approx(5.0 * 2 * 1e-6 * 1e9));
    CHECK(a.se.static_pj == Approx(2.7 * 3 * 1e-6 * 1e9));
    CHECK(a.se.dynamic_pj == 0.0);
    CHECK(a.total_pj() == Approx(a.cores.total_pj() + a.caches.total_pj() + a.network.total_pj() + a.links.total_pj() +
                                 a.memory.total_pj() + a.se.total_pj()));
}

TEST_CASE("energy: presets: hbm4, every microbenchmark under every scheme, LT", "[energy][presets]") {
    run_matrix("hbm4", Timing::lt);
}
TEST_CASE("energy: presets: hbm4, every microbenchmark under every scheme, AT", "[energy][presets][at]") {
    run_matrix("hbm4", Timing::at);
}
TEST_CASE("energy: presets: ddr4, every microbenchmark under every scheme, LT", "[energy][presets]") {
    run_matrix("ddr4", Timing::lt);
}
TEST_CASE("energy: presets: ddr4, every microbenchmark under every scheme, AT", "[energy][presets][at]") {
    run_matrix("ddr4", Timing::at);
}
TEST_CASE("energy: presets: hmc4 accounts energy and data movement too", "[energy][presets]") {
    const json s = run(on_preset("hmc4", "lock", "syncron", Timing::lt));
    INFO(what(s));
    REQUIRE_RUN_OK(s);
    check_energy_adds_up(s);
    // The SEs exist and work under SynCron: their power is charged, and the
    // lock's messages are synchronization traffic.
    CHECK(s["energy"]["se"].get<double>() > 0.0);
    CHECK(s["data_movement"]["within_units"]["sync"].get<uint64_t>() > 0);
    CHECK(s["data_movement"]["across_links"]["sync"].get<uint64_t>() > 0);
}

TEST_CASE("energy: a run twice as long at the same rate uses about twice the static energy", "[energy]") {
    // ddr4 charges the memory's background power; give the cores an idle power too.
    SimParams shorter = on_preset("ddr4", "lock", "syncron", Timing::lt, 20);
    shorter.energy.core_static_mw = 50.0;
    SimParams longer = shorter;
    longer.workload.ops = 40;
    const json a = run(shorter), b = run(longer);
    REQUIRE_RUN_OK(a);
    REQUIRE_RUN_OK(b);
    const double time_ratio = b["simulated_ns"].get<double>() / a["simulated_ns"].get<double>();
    CHECK(time_ratio == Approx(2.0).epsilon(0.15)); // the same rate: about twice the time
    for (const char* c : {"cores", "memory", "se"}) {
        INFO(c);
        const double ratio =
            b["energy_breakdown"][c]["static"].get<double>() / a["energy_breakdown"][c]["static"].get<double>();
        CHECK(ratio == Approx(time_ratio).epsilon(1e-6)); // static energy is power x time
    }
}

TEST_CASE("energy: Ideal spends less energy than every other scheme on the same run", "[energy]") {
    for (const char* preset : {"hmc4", "hbm4", "ddr4"})
        for (const char* workload : {"lock", "condvar"}) {
            const json ideal = run(on_preset(preset, workload, "ideal", Timing::lt));
            REQUIRE_RUN_OK(ideal);
            const double e_ideal = ideal["energy"]["total"].get<double>();
            CHECK(ideal["energy"]["se"].get<double>() == 0.0); // no SE works under Ideal
            for (const std::string& scheme : scheme_names()) {
                if (scheme == "ideal") continue;
                const json s = run(on_preset(preset, workload, scheme, Timing::lt));
                INFO(preset << " " << workload << " " << scheme << ": " << what(s));
                REQUIRE_RUN_OK(s);
                CHECK(e_ideal < s["energy"]["total"].get<double>());
            }
        }
}

TEST_CASE("energy: synchronization traffic is what the scheme sends, data traffic what the workload moves",
          "[energy]") {
    // Ideal sends no synchronization message: every byte it moves is data.
    const json ideal = run(on_preset("hbm4", "lock", "ideal", Timing::lt));
    REQUIRE_RUN_OK(ideal);
    CHECK(ideal["data_movement"]["within_units"]["sync"] == 0);
    CHECK(ideal["data_movement"]["across_links"]["sync"] == 0);
    CHECK(ideal["data_movement"]["within_units"]["data"].get<uint64_t>() > 0); // the memory check's counter
    // Central keeps its variables in a table in memory: its server's accesses
    // and the messages are synchronization traffic, beside the same data.
    const json central = run(on_preset("hbm4", "lock", "central", Timing::lt));
    REQUIRE_RUN_OK(central);
    CHECK(central["data_movement"]["across_links"]["sync"].get<uint64_t>() > 0);
    CHECK(central["data_movement"]["within_units"]["sync"].get<uint64_t>() >
          central["data_movement"]["across_links"]["sync"].get<uint64_t>() / 2);
}
