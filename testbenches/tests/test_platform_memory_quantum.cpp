// LT with a memory quantum (core.memory_quantum_ns, docs/timing.md "The
// memory quantum"): cores run ahead further between synchronization points,
// and every workload's functional check still holds under every scheme (its
// timing against AT is the agreement's: scripts/lt-at-agreement --lt-set
// core.memory_quantum_ns=500). Coherent platforms (mesi_lock) and cores
// with several contexts keep the quantum everywhere: their statistics do not move.
#include <catch2/catch.hpp>

#include "models/schemes/scheme_factory.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;

namespace {

struct Outcome {
    bool ok = false;
    double simulated_ns = 0;
    nlohmann::json stats;
};

Outcome run(const char* workload, const char* scheme, unsigned ops, double memory_quantum_ns, unsigned threads = 1) {
    const nlohmann::json j = in_child([&] {
        SimParams p = test::bench(workload, 64, 4, Timing::lt, ops);
        p.core.threads = threads;
        p.platform.scheme = *scheme_from_string(scheme);
        p.core.memory_quantum_ns = memory_quantum_ns;
        const SimulationResult r = simulate(p);
        nlohmann::json s = r.stats;
        for (const char* k : {"host", "config"}) s.erase(k);
        return nlohmann::json{{"ok", r.ok}, {"ns", r.simulated_ns}, {"stats", s}};
    });
    return {j.at("ok").get<bool>(), j.at("ns").get<double>(), j.at("stats")};
}

} // namespace

TEST_CASE("memory quantum: every workload checks out under every scheme and the cores ran ahead", "[platform][lt]") {
    struct Case {
        const char* workload;
        unsigned ops;
        bool plain_work; ///< more than a quantum between synchronization points somewhere
    };
    for (const Case c : {Case{"pr", 1, true}, Case{"bfs", 1, true}, Case{"skip_list", 10, true},
                         Case{"lock", 10, false}, Case{"semaphore", 10, true}, Case{"ts", 1, true}}) {
        for (const char* scheme : {"syncron", "central", "hier", "ideal", "remote_atomics"}) {
            INFO(c.workload << " under " << scheme);
            const Outcome off = run(c.workload, scheme, c.ops, 0);
            const Outcome on = run(c.workload, scheme, c.ops, 500);
            REQUIRE(off.ok);
            CHECK(on.ok);
            if (c.plain_work) CHECK(on.stats != off.stats); // the memory quantum took effect
        }
    }
}

TEST_CASE("memory quantum: mesi_lock keeps the quantum everywhere (statistics unchanged)", "[platform][lt]") {
    const Outcome off = run("stack", "mesi_lock", 10, 0);
    const Outcome on = run("stack", "mesi_lock", 10, 500);
    REQUIRE(off.ok);
    CHECK(on.ok);
    CHECK(on.stats == off.stats);
}

TEST_CASE("memory quantum: cores with several contexts keep the quantum everywhere (statistics unchanged)",
          "[platform][lt]") {
    const Outcome off = run("semaphore", "syncron", 10, 0, 4);
    const Outcome on = run("semaphore", "syncron", 10, 500, 4);
    REQUIRE(off.ok);
    CHECK(on.ok);
    CHECK(on.stats == off.stats);
}
