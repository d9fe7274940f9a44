// Randomized test of the SE functional core against a reference model of each
// primitive's semantics: cores run random programs, the network delivers
// messages in a random order (FIFO per channel), and every grant is checked
// (mutual exclusion, barrier epochs, semaphore counts) while any run that
// stops with a core still waiting is a lost wake-up or a deadlock.
// Three SE modes: SynCron (hierarchical, integrated overflow), the flat
// organization, and the MiSAR-style abort overflow with a reference software
// server and cores that follow the abort rules of docs/protocol.md.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "testbenches/tests/se_random_checker.h"

using namespace syncron;
using namespace syncron::test;

namespace {

SeParams se_params(unsigned st, unsigned counters) {
    SeParams p;
    p.st_entries = st;
    p.indexing_counters = counters;
    return p;
}

struct ModeTotals {
    unsigned runs = 0, aborts = 0, spurious = 0, retries = 0, diverted = 0;
    uint64_t forwarded = 0, memory_writes = 0, evictions = 0, group_relays = 0;
};

ModeTotals run_scenarios(bool barriers, SeOrganization org = SeOrganization::hierarchical,
                         OverflowPolicy policy = OverflowPolicy::integrated, unsigned units_per_group = 0) {
    // Three levels: groups of units_per_group, at least two groups.
    const std::vector<std::pair<unsigned, unsigned>> shapes =
        units_per_group ? std::vector<std::pair<unsigned, unsigned>>{{2 * units_per_group, 2},
                                                                     {3 * units_per_group, 2},
                                                                     {2 * units_per_group, 3}}
                        : std::vector<std::pair<unsigned, unsigned>>{{2, 2}, {4, 3}, {3, 4}};
    const std::vector<std::pair<unsigned, unsigned>> tables = {{64, 256}, {0, 256}, {1, 4}, {2, 1}, {3, 256}};
    ModeTotals t;
    // SE_RANDOM_SEEDS=N runs N seeds per shape and table instead of 60
    // (soak). 60 because a condition variable registered at its Master SE
    // while its lock is released elsewhere loses a wake-up without the
    // Master SE's confirmation at seed 54 of 4 units x 3 cores, ST 1 (found
    // with 150; docs/protocol.md).
    const uint64_t seeds =
        std::getenv("SE_RANDOM_SEEDS") ? std::strtoull(std::getenv("SE_RANDOM_SEEDS"), nullptr, 10) : 60;
    for (const auto& [units, cores] : shapes)
        for (const auto& [st, counters] : tables)
            for (uint64_t seed = 1; seed <= seeds; ++seed) {
                SeParams sp = se_params(st, counters);
                sp.lock_fairness_threshold = seed % 3; // off, 1 and 2 in turn
                Scenario sc{units, cores, sp, seed * 7919 + st, barriers, org, policy, seed % 2 == 0, units_per_group};
                Checker ck(sc);
                ck.run();
                INFO("units=" << units << " cores=" << cores << " st=" << st << " counters=" << counters
                              << " seed=" << sc.seed << " central_server=" << sc.central_server
                              << " units_per_group=" << units_per_group);
                std::string all;
                for (const auto& f : ck.failures) all += f + "\n";
                INFO(all);
                REQUIRE(ck.failures.empty());
                // Nothing left behind once every core is done.
                CHECK(ck.m_net.counters_zero());
                CHECK(ck.m_net.tables_empty());
                for (const auto& server : ck.m_net.servers) CHECK(server.idle());
                ++t.runs;
                t.aborts += ck.aborts;
                t.spurious += ck.spurious;
                t.retries += ck.retries;
                t.diverted += ck.diverted;
                for (const auto& se : ck.m_net.ses) {
                    t.forwarded += se.stats().forwarded_to_server;
                    t.evictions += se.stats().evictions;
                    t.group_relays += se.stats().group_relays;
                }
                for (const auto& mem : ck.m_net.memories) t.memory_writes += mem.writes;
            }
    CHECK(t.runs == 15 * seeds);
    return t;
}

} // namespace

TEST_CASE("random programs of locks, semaphores and condition variables match the reference", "[se][random]") {
    run_scenarios(false);
}

TEST_CASE("random programs of barriers (all, subset, within unit) and locks match the reference", "[se][random]") {
    run_scenarios(true);
}

TEST_CASE("flat organization: random programs of locks, semaphores and condition variables match the reference",
          "[se][random][flat]") {
    const ModeTotals t = run_scenarios(false, SeOrganization::flat);
    CHECK(t.memory_writes > 0); // small STs overflow through syncronVar
}

TEST_CASE("flat organization: random programs of barriers and locks match the reference", "[se][random][flat]") {
    run_scenarios(true, SeOrganization::flat);
}

TEST_CASE("abort overflow: random programs of locks and semaphores and condition variables with a fallback server",
          "[se][random][misar]") {
    const ModeTotals t = run_scenarios(false, SeOrganization::hierarchical, OverflowPolicy::abort);
    // Every path is taken: software, retries, spurious cond_wait wake-ups,
    // releases forwarded to the server; and memory is never touched.
    CHECK(t.diverted > 0);
    CHECK(t.retries > 0);
    CHECK(t.spurious > 0);
    CHECK(t.forwarded > 0);
    CHECK(t.memory_writes == 0);
}

TEST_CASE("abort overflow: random programs of barriers and locks with a fallback server", "[se][random][misar]") {
    const ModeTotals t = run_scenarios(true, SeOrganization::hierarchical, OverflowPolicy::abort);
    INFO("diverted " << t.diverted << " retries " << t.retries << " evictions " << t.evictions);
    CHECK(t.diverted > 0);
    CHECK(t.evictions > 0);
    CHECK(t.memory_writes == 0);
}

TEST_CASE("three levels: random programs of locks, semaphores and condition variables match the reference",
          "[se][random][three_level]") {
    for (const unsigned g : {2u, 3u}) {
        const ModeTotals t = run_scenarios(false, SeOrganization::hierarchical, OverflowPolicy::integrated, g);
        CHECK(t.memory_writes > 0); // small STs: group SEs pass requests on, the Master SE overflows
        CHECK(t.group_relays > 0);
    }
}

TEST_CASE("three levels: random programs of barriers and locks match the reference", "[se][random][three_level]") {
    for (const unsigned g : {2u, 3u}) {
        const ModeTotals t = run_scenarios(true, SeOrganization::hierarchical, OverflowPolicy::integrated, g);
        CHECK(t.group_relays > 0); // incl. barrier arrivals passed on and their departures passed back
    }
}
