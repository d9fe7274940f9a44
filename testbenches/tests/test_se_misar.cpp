// The SE functional core with the MiSAR-style abort overflow policy (paper
// §6.7.3; docs/protocol.md "MiSAR-style abort overflow"): when an ST cannot
// hold a variable the SEs abort the cores, which use a software fallback
// server; the Master SE's indexing counter says the variable is in software
// until the server reports it idle. SeCores on a FIFO network, a recording
// (or, where said, serving) fallback server per unit.
#include <catch2/catch.hpp>

#include "testbenches/tests/se_test_network.h"

using namespace syncron;
using namespace syncron::test;

namespace {

/// units x cores, hierarchical, abort policy, one fallback server in unit
/// `server_unit`, SE u with st_entries[u].
SeNetwork misar_net(std::vector<unsigned> st_entries, unsigned cores = 4, unsigned server_unit = 0) {
    const unsigned units = static_cast<unsigned>(st_entries.size());
    SeTopology t = SeNetwork::topology(units, cores);
    t.overflow = OverflowPolicy::abort;
    t.fallback_server = [server_unit](uint64_t) { return server_unit; };
    std::vector<SeParams> p;
    for (unsigned e : st_entries) p.push_back(params_with(e));
    return SeNetwork(t, p);
}

/// The single message core (u,c) got from its SE after the network ran.
Message only_reply(SeNetwork& n, unsigned u, unsigned c) {
    n.run();
    const auto v = n.take(u, c);
    REQUIRE(v.size() == 1);
    return v[0];
}

bool is_abort(const Message& m, Opcode aborted, uint64_t flags = 0) {
    return m.op == Opcode::abort_local && m.info == abort_info::make(aborted, flags);
}

} // namespace

TEST_CASE("opcode helpers: the local and overflow form of a request", "[se][misar][protocol]") {
    CHECK(local_opcode_of(Opcode::lock_acquire_overflow) == Opcode::lock_acquire_local);
    CHECK(local_opcode_of(Opcode::lock_release_overflow) == Opcode::lock_release_local);
    CHECK(local_opcode_of(Opcode::barrier_wait_global) == Opcode::barrier_wait_local_across_units);
    CHECK(local_opcode_of(Opcode::barrier_wait_overflow) == Opcode::barrier_wait_local_across_units);
    CHECK(local_opcode_of(Opcode::barrier_wait_local_within_unit) == Opcode::barrier_wait_local_within_unit);
    CHECK(local_opcode_of(Opcode::sem_post_global) == Opcode::sem_post_local);
    CHECK(local_opcode_of(Opcode::cond_wait_overflow) == Opcode::cond_wait_local);
    CHECK(local_opcode_of(Opcode::cond_broad_global) == Opcode::cond_broad_local);
    CHECK(overflow_opcode_of(Opcode::lock_acquire_global) == Opcode::lock_acquire_overflow);
    CHECK(overflow_opcode_of(Opcode::barrier_wait_local_within_unit) == Opcode::barrier_wait_overflow);
    CHECK(overflow_opcode_of(Opcode::sem_wait_local) == Opcode::sem_wait_overflow);
    CHECK(overflow_opcode_of(Opcode::cond_wait_global) == Opcode::cond_wait_overflow);
    CHECK(overflow_opcode_of(Opcode::lock_release_local) == Opcode::lock_release_local);
    for (unsigned i = 0; i < kPaperOpcodeCount; ++i) {
        const Opcode op = static_cast<Opcode>(i);
        if (is_acquire_type(op) && level_of(op) != Level::overflow)
            CHECK(level_of(overflow_opcode_of(op)) == Level::overflow);
        if (is_acquire_type(op) || is_core_request(op)) CHECK(is_core_request(local_opcode_of(op)));
    }
}

TEST_CASE("abort: a Master SE with a 1-entry ST diverts a second variable, forwards its releases, "
          "and takes it back once the server reports",
          "[se][misar]") {
    SeNetwork n = misar_net({1, 64}, 4, /*server_unit=*/1);
    SeCore& master = n.ses[0];
    const uint64_t A = SeNetwork::var(0, 0), B = SeNetwork::var(0, 1);

    core_sends(n, 0, 0, Opcode::lock_acquire_local, A); // the only entry
    CHECK(only_reply(n, 0, 0).op == Opcode::lock_grant_local);
    core_sends(n, 0, 1, Opcode::lock_acquire_local, B); // ST full: B enters software
    CHECK(is_abort(only_reply(n, 0, 1), Opcode::lock_acquire_local));
    CHECK(master.counters().value(B) == 1);
    CHECK(master.stats().diverted == 1);
    CHECK(master.stats().overflow_episodes == 1);
    CHECK(master.stats().sent[static_cast<unsigned>(Opcode::abort_local)] == 1);
    CHECK(master.table().find(B) == nullptr);

    // Core 0.1 got B from the server; its release goes through its SE and is
    // forwarded with its identity (flat index 1, unit 0), counted.
    core_sends(n, 0, 1, Opcode::lock_release_local, B);
    n.run();
    auto got = n.take_server(1);
    REQUIRE(got.size() == 1);
    CHECK(got[0] == Message{B, Opcode::lock_release_local, 1, 0, 0});
    CHECK(master.counters().value(B) == 2);
    CHECK(master.stats().forwarded_to_server == 1);

    // A core of unit 1 releasing a lock it holds in software: SE 1 has no
    // entry and sends lock_release_overflow; flat index 1*4 + 3.
    core_sends(n, 1, 3, Opcode::lock_release_local, B);
    n.run();
    CHECK(n.count(Opcode::lock_release_overflow) == 1);
    got = n.take_server(1);
    REQUIRE(got.size() == 1);
    CHECK(got[0] == Message{B, Opcode::lock_release_local, 7, 1, 0});
    CHECK(master.counters().value(B) == 3);
    CHECK(n.ses[1].counters().value(B) == 0); // a release never counts at a local SE

    // The server has seen 1 acquire + 2 releases: its report of 3 ends the episode.
    n.inject(server_ep(1), se_ep(0), Message{B, Opcode::decrease_indexing_counter, 0, 1, 3});
    n.run();
    CHECK(master.counters().value(B) == 0);
    core_sends(n, 0, 0, Opcode::lock_release_local, A); // the entry is free again
    core_sends(n, 0, 2, Opcode::lock_acquire_local, B); // back in hardware
    CHECK(only_reply(n, 0, 2).op == Opcode::lock_grant_local);
    CHECK(master.table().find(B) != nullptr);
    core_sends(n, 0, 2, Opcode::lock_release_local, B);
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.tables_empty());
    CHECK(n.memories[0].reads + n.memories[0].writes == 0); // abort policy: syncronVar never touched
}

TEST_CASE("abort: release-type messages in software are forwarded with the originator's flat index, and "
          "a withdrawal is dropped",
          "[se][misar]") {
    SeNetwork n = misar_net({0, 64, 64}, 4, 2);
    const uint64_t S = SeNetwork::var(0, 0), C = SeNetwork::var(0, 1);
    // ST 0 at the Master: a post it cannot hold starts software.
    core_sends(n, 1, 2, Opcode::sem_post_local, S);
    n.run();
    CHECK(n.count(Opcode::sem_post_global) == 1);
    auto got = n.take_server(2);
    REQUIRE(got.size() == 1);
    CHECK(got[0] == Message{S, Opcode::sem_post_local, 6, 1, 0});
    CHECK(n.ses[0].counters().value(S) == 1);
    core_sends(n, 0, 3, Opcode::sem_post_local, S); // an own core: flat index 3
    n.run();
    got = n.take_server(2);
    REQUIRE(got.size() == 1);
    CHECK(got[0] == Message{S, Opcode::sem_post_local, 3, 0, 0});
    CHECK(n.ses[0].counters().value(S) == 2);

    // Condition variable: a signal for a variable nobody waits on has no
    // effect in hardware; once its counter is raised it goes to the server.
    core_sends(n, 2, 1, Opcode::cond_signal_local, C);
    n.run();
    CHECK(n.take_server(2).empty());
    CHECK(n.ses[0].counters().value(C) == 0);
    // A withdrawal (cond_signal_global with the withdraw marker) is never forwarded.
    n.inject(se_ep(2), se_ep(0), Message{C, Opcode::cond_signal_global, 0, 2, 1});
    n.run();
    CHECK(n.take_server(2).empty());
    CHECK(n.errors.empty());
    CHECK(n.ses[0].stats().forwarded_to_server == 2);
    n.inject(server_ep(2), se_ep(0), Message{S, Opcode::decrease_indexing_counter, 0, 2, 2});
    n.run();
    CHECK(n.counters_zero());
}

TEST_CASE("abort: a local SE without ST redirects, the Master SE diverts, the core's decrease returns the "
          "local counter to zero",
          "[se][misar]") {
    SeNetwork n = misar_net({64, 0});
    n.serve_software = true;
    const uint64_t L = SeNetwork::var(0, 0);
    core_sends(n, 1, 2, Opcode::lock_acquire_local, L);
    CHECK(n.ses[1].counters().value(L) == 1);
    REQUIRE(n.deliver(se_ep(1), se_ep(0)));
    CHECK(n.log.back().msg == Message{L, Opcode::lock_acquire_overflow, 2, 1, 0});
    CHECK(n.ses[0].counters().value(L) == 1); // nothing in hardware: L enters software
    CHECK(n.ses[0].stats().diverted == 1);
    REQUIRE(n.deliver(se_ep(0), se_ep(1)));
    CHECK(n.log.back().msg ==
          Message{L, Opcode::abort_overflow, 2, 1, abort_info::make(Opcode::lock_acquire_overflow)});
    const Message ab = only_reply(n, 1, 2);
    CHECK(ab == Message{L, Opcode::abort_local, 2, 1, abort_info::make(Opcode::lock_acquire_local)});
    CHECK(n.ses[1].counters().value(L) == 1); // until the core is done in software

    // Core 1.2 uses the server, holds and releases L, then tells its SE.
    n.send_to_server(1, 2, Opcode::lock_acquire_local, L);
    CHECK(only_reply(n, 1, 2).op == Opcode::lock_grant_local);
    core_sends(n, 1, 2, Opcode::lock_release_local, L);
    n.run();
    CHECK(n.count(Opcode::lock_release_overflow) == 1);
    REQUIRE(n.servers[0].reports.size() == 1);
    CHECK(n.servers[0].reports[0].info == 2); // acquire + forwarded release
    CHECK(n.ses[0].counters().value(L) == 0);
    core_sends(n, 1, 2, Opcode::decrease_indexing_counter, L, 1);
    CHECK(n.ses[1].counters().value(L) == 0);
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.tables_empty());
}

TEST_CASE("abort: a redirect while the Master SE holds the variable in hardware is retried, not counted",
          "[se][misar]") {
    SeNetwork n = misar_net({64, 0});
    const uint64_t L = SeNetwork::var(0, 0);
    core_sends(n, 0, 0, Opcode::lock_acquire_local, L);
    CHECK(only_reply(n, 0, 0).op == Opcode::lock_grant_local);
    core_sends(n, 1, 1, Opcode::lock_acquire_local, L);
    CHECK(n.ses[1].counters().value(L) == 1);
    const Message ab = only_reply(n, 1, 1);
    CHECK(is_abort(ab, Opcode::lock_acquire_local, abort_info::kRetry));
    CHECK(n.count(Opcode::abort_overflow) == 1);
    CHECK(n.ses[1].counters().value(L) == 0); // the retry undid the redirect's increment
    CHECK(n.ses[0].counters().value(L) == 0);
    CHECK(n.ses[0].stats().retries == 1);
    CHECK(n.ses[0].stats().diverted == 0);
    CHECK(n.ses[0].table().find(L)->state.info != 0); // still held in hardware by core 0.0
    core_sends(n, 0, 0, Opcode::lock_release_local, L);
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.tables_empty());
}

TEST_CASE("abort: abort_global turns a unit's k lock waiters into k counted redirects", "[se][misar]") {
    SeNetwork n = misar_net({1, 64});
    n.serve_software = true;
    const uint64_t A = SeNetwork::var(0, 0), L = SeNetwork::var(0, 1);
    core_sends(n, 0, 0, Opcode::lock_acquire_local, A); // the Master's only entry
    CHECK(only_reply(n, 0, 0).op == Opcode::lock_grant_local);
    for (unsigned c = 0; c < 3; ++c) core_sends(n, 1, c, Opcode::lock_acquire_local, L);
    CHECK(n.ses[1].table().find(L) != nullptr);
    REQUIRE(n.deliver(se_ep(1), se_ep(0))); // ONE lock_acquire_global
    CHECK(n.log.back().msg.op == Opcode::lock_acquire_global);
    REQUIRE(n.deliver(se_ep(0), se_ep(1))); // ST full: abort_global, not counted
    CHECK(n.log.back().msg == Message{L, Opcode::abort_global, 0, 1, abort_info::make(Opcode::lock_acquire_global)});
    CHECK(n.ses[0].counters().value(L) == 0);
    CHECK(n.ses[1].table().find(L) == nullptr); // converted: the entry is free
    CHECK(n.ses[1].counters().value(L) == 3);
    // While the unit has cores in software every new request is redirected,
    // although the ST has room.
    core_sends(n, 1, 3, Opcode::lock_acquire_local, L);
    CHECK(n.ses[1].table().occupancy() == 0);
    CHECK(n.ses[1].counters().value(L) == 4);
    n.run();
    CHECK(n.count(Opcode::lock_acquire_overflow) == 4);
    CHECK(n.count(Opcode::abort_overflow) == 4);
    CHECK(n.ses[0].counters().value(L) == 4);
    CHECK(n.ses[0].stats().diverted == 4);
    for (unsigned c = 0; c < 4; ++c) CHECK(is_abort(only_reply(n, 1, c), Opcode::lock_acquire_local));

    // All four use the server in turn and report to SE 1 after releasing.
    for (unsigned c = 0; c < 4; ++c) n.send_to_server(1, c, Opcode::lock_acquire_local, L);
    for (unsigned turn = 0; turn < 4; ++turn) {
        n.run();
        unsigned holder = 99;
        for (unsigned c = 0; c < 4; ++c)
            if (!n.take(1, c).empty()) holder = c;
        REQUIRE(holder != 99);
        core_sends(n, 1, holder, Opcode::lock_release_local, L);
        core_sends(n, 1, holder, Opcode::decrease_indexing_counter, L, 1);
    }
    n.run();
    CHECK(n.ses[1].counters().value(L) == 0);
    CHECK(n.ses[0].counters().value(L) == 0); // the server reported 4 acquires + 4 releases
    REQUIRE(n.servers[0].reports.size() == 1);
    CHECK(n.servers[0].reports[0].info == 8);
    CHECK(n.ses[0].stats().forwarded_to_server == 4);
    core_sends(n, 0, 0, Opcode::lock_release_local, A);
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.tables_empty());
}

TEST_CASE("abort: a two-level barrier aborted as a whole is counted core by core in software", "[se][misar][barrier]") {
    SeNetwork n = misar_net({0, 64}, 2);
    n.serve_software = true;
    const uint64_t B = SeNetwork::var(0, 0); // 4 client cores: two-level
    core_sends(n, 1, 0, Opcode::barrier_wait_local_across_units, B, 4);
    core_sends(n, 1, 1, Opcode::barrier_wait_local_across_units, B, 4);
    n.run();
    CHECK(n.count(Opcode::barrier_wait_global) == 1);
    CHECK(n.count(Opcode::abort_global) == 1);
    CHECK(n.count(Opcode::barrier_wait_overflow) == 2);
    for (const auto& d : n.log)
        if (d.msg.op == Opcode::barrier_wait_overflow) CHECK(d.msg.info == 4); // the initial cores
    CHECK(n.ses[0].counters().value(B) == 2);
    CHECK(n.ses[1].counters().value(B) == 2);
    core_sends(n, 0, 0, Opcode::barrier_wait_local_across_units, B, 4); // own cores: diverted too
    core_sends(n, 0, 1, Opcode::barrier_wait_local_across_units, B, 4);
    CHECK(n.ses[0].counters().value(B) == 4);
    for (unsigned u = 0; u < 2; ++u)
        for (unsigned c = 0; c < 2; ++c) {
            CHECK(is_abort(only_reply(n, u, c), Opcode::barrier_wait_local_across_units));
            n.send_to_server(u, c, Opcode::barrier_wait_local_across_units, B, 4);
        }
    n.run();
    for (unsigned u = 0; u < 2; ++u)
        for (unsigned c = 0; c < 2; ++c)
            CHECK(ops_of(n.take(u, c)) == std::vector<Opcode>{Opcode::barrier_depart_local});
    CHECK(n.ses[0].counters().value(B) == 0); // the server reported 4
    for (unsigned c = 0; c < 2; ++c) core_sends(n, 1, c, Opcode::decrease_indexing_counter, B, 1);
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.tables_empty());
}

TEST_CASE("abort: a one-level barrier converts one waiter per aborted arrival", "[se][misar][barrier]") {
    SeNetwork n = misar_net({0, 64}, 4);
    const uint64_t B = SeNetwork::var(0, 0); // 3 participants of 8 client cores: one-level
    core_sends(n, 1, 0, Opcode::barrier_wait_local_across_units, B, 3);
    core_sends(n, 1, 1, Opcode::barrier_wait_local_across_units, B, 3);
    CHECK(n.count(Opcode::barrier_wait_global) == 0);
    REQUIRE(n.deliver(se_ep(1), se_ep(0)));
    REQUIRE(n.deliver(se_ep(0), se_ep(1))); // the first arrival's abort_global
    CHECK(n.count(Opcode::abort_global) == 1);
    CHECK(n.ses[1].table().find(B)->state.local.count() == 1); // one waiter converted
    CHECK(n.ses[1].counters().value(B) == 1);
    n.run();
    CHECK(n.count(Opcode::abort_global) == 2);
    CHECK(n.count(Opcode::barrier_wait_overflow) == 2);
    CHECK(n.ses[1].table().find(B) == nullptr);
    CHECK(n.ses[0].counters().value(B) == 2);
    CHECK(n.ses[0].stats().diverted == 2);
    CHECK(n.errors.empty());
}

TEST_CASE("abort: a semaphore wait aborted as a whole is re-sent per core with the initial resources",
          "[se][misar][semaphore]") {
    SeNetwork n = misar_net({0, 64});
    const uint64_t S = SeNetwork::var(0, 0);
    core_sends(n, 1, 0, Opcode::sem_wait_local, S, 5);
    core_sends(n, 1, 3, Opcode::sem_wait_local, S, 5);
    n.run();
    CHECK(n.count(Opcode::sem_wait_global) == 1);
    CHECK(n.count(Opcode::sem_wait_overflow) == 2);
    for (const auto& d : n.log)
        if (d.msg.op == Opcode::sem_wait_overflow) CHECK(d.msg.info == 5);
    CHECK(is_abort(only_reply(n, 1, 0), Opcode::sem_wait_local));
    CHECK(is_abort(only_reply(n, 1, 3), Opcode::sem_wait_local));
    CHECK(n.ses[1].counters().value(S) == 2);
    CHECK(n.ses[0].counters().value(S) == 2);
    CHECK(n.errors.empty());
}

TEST_CASE("abort: condition variables are never counted, a redirected cond_wait keeps its lock, "
          "registered waiters come back with kLockReleased",
          "[se][misar][condvar]") {
    SECTION("redirected cond_wait (ST full at the local SE)") {
        SeNetwork n = misar_net({64, 1});
        const uint64_t L = SeNetwork::var(1, 0), C = SeNetwork::var(0, 0);
        core_sends(n, 1, 0, Opcode::lock_acquire_local, L); // SE 1 is L's Master: its one entry
        CHECK(only_reply(n, 1, 0).op == Opcode::lock_grant_local);
        core_sends(n, 1, 1, Opcode::lock_acquire_local, L); // waits for L
        core_sends(n, 1, 0, Opcode::cond_wait_local, C, L);
        CHECK(n.ses[1].counters().value(C) == 0);       // a cond_wait is not counted
        CHECK(n.ses[1].stats().internal_messages == 0); // and its lock is not released
        const Message ab = only_reply(n, 1, 0);
        CHECK(n.count(Opcode::cond_wait_overflow) == 1);
        CHECK(is_abort(ab, Opcode::cond_wait_local)); // no kLockReleased: the core still holds L
        CHECK(n.take(1, 1).empty());                  // nobody got L
        CHECK(n.ses[0].counters().value(C) == 0);
        CHECK(n.ses[0].stats().diverted == 0);
        // The core treats it as a spurious wake-up: release, re-acquire, return.
        core_sends(n, 1, 0, Opcode::lock_release_local, L);
        CHECK(only_reply(n, 1, 1).op == Opcode::lock_grant_local);
        core_sends(n, 1, 1, Opcode::lock_release_local, L);
        n.run();
        CHECK(n.errors.empty());
        CHECK(n.counters_zero());
        CHECK(n.tables_empty());
    }
    SECTION("a registered redirect while the Master SE holds the condition variable: retry with kLockReleased") {
        SeNetwork n = misar_net({64, 64});
        const uint64_t C = SeNetwork::var(0, 0), L = SeNetwork::var(0, 1);
        core_sends(n, 0, 0, Opcode::lock_acquire_local, L);
        CHECK(only_reply(n, 0, 0).op == Opcode::lock_grant_local);
        core_sends(n, 0, 0, Opcode::cond_wait_local, C, L); // C in the Master's ST
        n.run();
        n.inject(se_ep(1), se_ep(0), Message{C, Opcode::cond_wait_overflow, 2, 1, L | (1ull << 63)});
        n.run();
        CHECK(is_abort(only_reply(n, 1, 2), Opcode::cond_wait_local, abort_info::kRetry | abort_info::kLockReleased));
        CHECK(n.ses[0].stats().retries == 1);
        CHECK(n.counters_zero());
        CHECK(n.errors.empty());
    }
}

TEST_CASE("abort: a lock in software released by cond_wait inside the Master SE is forwarded with the core's identity",
          "[se][misar][condvar]") {
    SeNetwork n = misar_net({2, 64}, 4, 1);
    const uint64_t C = SeNetwork::var(0, 0), L = SeNetwork::var(0, 1), K = SeNetwork::var(0, 2),
                   A = SeNetwork::var(0, 3);
    core_sends(n, 0, 3, Opcode::lock_acquire_local, K);
    CHECK(only_reply(n, 0, 3).op == Opcode::lock_grant_local);
    core_sends(n, 0, 3, Opcode::cond_wait_local, C, K); // C in hardware, K released and freed
    core_sends(n, 0, 0, Opcode::lock_acquire_local, A); // the second entry: the ST is full
    CHECK(only_reply(n, 0, 0).op == Opcode::lock_grant_local);
    CHECK(n.ses[0].table().full());
    core_sends(n, 0, 2, Opcode::lock_acquire_local, L); // L in software
    CHECK(is_abort(only_reply(n, 0, 2), Opcode::lock_acquire_local));
    // (core 0.2 gets L from the server)
    core_sends(n, 0, 2, Opcode::cond_wait_local, C, L); // C is in hardware: the SE releases L
    n.run();
    auto got = n.take_server(1);
    REQUIRE(got.size() == 1);
    CHECK(got[0] == Message{L, Opcode::lock_release_local, 2, 0, 0});
    CHECK(n.ses[0].counters().value(L) == 2);
    CHECK(n.ses[0].stats().internal_messages == 2);
    CHECK(n.ses[0].stats().forwarded_to_server == 1);
    CHECK(n.errors.empty());
}

TEST_CASE("abort: errors (counter below zero, abort_global while holding the lock, wrong mode or SE)",
          "[se][misar][errors]") {
    SeNetwork n = misar_net({64, 64});
    const uint64_t L = SeNetwork::var(0, 0);
    SeResult r;
    n.ses[0].handle(Message{L, Opcode::decrease_indexing_counter, 0, 1, 1}, r); // server over-reports
    CHECK_THAT(r.error, Catch::Contains("below zero"));
    r.clear();
    n.ses[1].handle(Message{L, Opcode::decrease_indexing_counter, 2, 1, 1}, r); // a core over-reports
    CHECK_THAT(r.error, Catch::Contains("below zero"));
    CHECK(n.ses[1].validate(Message{L, Opcode::decrease_indexing_counter, 4, 1, 1}).find("core ID 4 out of range") !=
          std::string::npos);
    CHECK(n.ses[0].validate(Message{L, Opcode::decrease_indexing_counter, 0, 9, 1}).empty()); // any se from the server

    // Unit 1 holds L for its cores: an abort_global now is a protocol error.
    core_sends(n, 1, 0, Opcode::lock_acquire_local, L);
    n.run();
    CHECK(n.take(1, 0).size() == 1);
    r.clear();
    n.ses[1].handle(Message{L, Opcode::abort_global, 0, 1, abort_info::make(Opcode::lock_acquire_global)}, r);
    CHECK_THAT(r.error, Catch::Contains("abort_global while this SE holds the lock"));
    CHECK(n.ses[1].table().find(L) != nullptr);
    r.clear();
    n.ses[1].handle(Message{L, Opcode::abort_global, 0, 1, abort_info::make(Opcode::sem_wait_global)}, r);
    CHECK_THAT(r.error, Catch::Contains("different primitive"));
    CHECK_THAT(n.ses[0].validate(Message{L, Opcode::abort_global, 0, 0, 0}), Catch::Contains("not to it"));
    CHECK_THAT(n.ses[1].validate(Message{L, Opcode::abort_overflow, 0, 0, 0}), Catch::Contains("addressed to SE 0"));
    // abort_global for a variable with no entry is ignored.
    r.clear();
    n.ses[1].handle(
        Message{SeNetwork::var(0, 9), Opcode::abort_global, 0, 1, abort_info::make(Opcode::barrier_wait_global)}, r);
    CHECK(r.ok());
    CHECK(r.out.empty());

    // Integrated policy: no abort messages, no decrease at the Master SE.
    SeNetwork integrated(2, 4, params_with(64));
    CHECK_THAT(integrated.ses[1].validate(Message{L, Opcode::abort_global, 0, 1, 0}),
               Catch::Contains("only used by the abort overflow policy"));
    CHECK_THAT(integrated.ses[0].validate(Message{L, Opcode::decrease_indexing_counter, 0, 1, 1}),
               Catch::Contains("not to it"));
    SeTopology t = SeNetwork::topology(2, 4);
    t.overflow = OverflowPolicy::abort;
    CHECK_THROWS_WITH(SeCore(0, SeParams{}, t, nullptr), Catch::Contains("fallback_server"));
}

TEST_CASE("abort: a redirected arrival at a barrier counted in hardware moves the whole epoch to software",
          "[se][misar][barrier]") {
    // 3 units x 2 cores; SE 2 has no ST, so its cores are always redirected.
    // A retry could wait forever (SE 2's entries may wait on this very core),
    // so the Master SE evicts the barrier instead of retrying.
    SECTION("two-level: the Master's own waiter and a whole unit are aborted") {
        SeNetwork n = misar_net({64, 64, 0}, 2);
        n.serve_software = true;
        const uint64_t B = SeNetwork::var(0, 0); // 6 client cores: two-level
        core_sends(n, 0, 0, Opcode::barrier_wait_local_across_units, B, 6);
        core_sends(n, 1, 0, Opcode::barrier_wait_local_across_units, B, 6);
        core_sends(n, 1, 1, Opcode::barrier_wait_local_across_units, B, 6);
        REQUIRE(n.deliver(se_ep(1), se_ep(0))); // unit 1 as a whole: counted as 2 in hardware
        CHECK(n.ses[0].table().find(B)->state.info == 3);
        core_sends(n, 2, 0, Opcode::barrier_wait_local_across_units, B, 6);
        REQUIRE(n.deliver(se_ep(2), se_ep(0))); // the redirect: eviction
        CHECK(n.ses[0].stats().evictions == 1);
        CHECK(n.ses[0].stats().retries == 0);
        CHECK(n.ses[0].table().find(B) == nullptr);
        CHECK(n.ses[0].counters().value(B) == 2); // own core 0.0 + the redirect
        n.run();
        CHECK(n.count(Opcode::abort_global) == 1);
        CHECK(n.count(Opcode::barrier_wait_overflow) == 3); // unit 2's and unit 1's two cores
        CHECK(n.ses[0].counters().value(B) == 4);
        CHECK(n.ses[0].stats().diverted == 4);
        // Everyone arrives in software; nobody was departed by hardware.
        core_sends(n, 0, 1, Opcode::barrier_wait_local_across_units, B, 6);
        core_sends(n, 2, 1, Opcode::barrier_wait_local_across_units, B, 6);
        n.run();
        for (unsigned u = 0; u < 3; ++u)
            for (unsigned c = 0; c < 2; ++c) {
                const auto v = n.take(u, c);
                REQUIRE(v.size() == 1);
                CHECK(v[0].op == Opcode::abort_local);
                n.send_to_server(u, c, Opcode::barrier_wait_local_across_units, B, 6);
            }
        n.run();
        for (unsigned u = 0; u < 3; ++u)
            for (unsigned c = 0; c < 2; ++c) {
                CHECK(ops_of(n.take(u, c)) == std::vector<Opcode>{Opcode::barrier_depart_local});
                if (u != 0) core_sends(n, u, c, Opcode::decrease_indexing_counter, B, 1);
            }
        CHECK(n.count(Opcode::barrier_depart_global) == 0);
        CHECK(n.errors.empty());
        CHECK(n.counters_zero());
        CHECK(n.tables_empty());
    }
    SECTION("one-level: kAllWaiters converts every waiter of the SE, not one") {
        SeNetwork n = misar_net({64, 64, 0}, 2);
        const uint64_t B = SeNetwork::var(0, 0); // 4 participants of 6: one-level
        core_sends(n, 1, 0, Opcode::barrier_wait_local_across_units, B, 4);
        core_sends(n, 1, 1, Opcode::barrier_wait_local_across_units, B, 4);
        REQUIRE(n.deliver(se_ep(1), se_ep(0)));
        REQUIRE(n.deliver(se_ep(1), se_ep(0)));
        CHECK(n.ses[0].table().find(B)->state.info == 2);
        core_sends(n, 2, 1, Opcode::barrier_wait_local_across_units, B, 4);
        REQUIRE(n.deliver(se_ep(2), se_ep(0)));
        REQUIRE(n.deliver(se_ep(0), se_ep(1)));
        CHECK(n.log.back().msg.info == abort_info::make(Opcode::barrier_wait_global, abort_info::kAllWaiters));
        CHECK(n.ses[1].table().find(B) == nullptr);
        CHECK(n.ses[1].counters().value(B) == 2);
        n.run();
        CHECK(n.count(Opcode::barrier_wait_overflow) == 3);
        CHECK(n.ses[0].counters().value(B) == 3);
        CHECK(n.errors.empty());
    }
}

TEST_CASE("abort: a redirected semaphore wait that a banked post satisfies is granted at once, not retried",
          "[se][misar][semaphore]") {
    // SE 0 is the Master SE and keeps the semaphore in its ST; SE 1 has no ST.
    SeNetwork n = misar_net({64, 0});
    const uint64_t S = SeNetwork::var(0, 0);
    core_sends(n, 0, 0, Opcode::sem_wait_local, S, 0); // waits: no resource yet
    n.run();
    CHECK(n.take(0, 0).empty());
    core_sends(n, 0, 1, Opcode::sem_post_local, S);
    CHECK(only_reply(n, 0, 0).op == Opcode::sem_grant_local);
    core_sends(n, 0, 1, Opcode::sem_post_local, S); // banked: the entry stays, one resource available
    n.run();
    REQUIRE(n.ses[0].table().find(S));
    core_sends(n, 1, 2, Opcode::sem_wait_local, S, 0); // redirected by SE 1 (no ST)
    CHECK(n.ses[1].counters().value(S) == 1);
    const Message g = only_reply(n, 1, 2);
    CHECK(g.op == Opcode::sem_grant_local); // from the banked post, in hardware
    CHECK(n.count(Opcode::sem_grant_overflow) == 1);
    CHECK(n.count(Opcode::abort_overflow) == 0);
    CHECK(n.ses[0].stats().retries == 0);
    CHECK(n.ses[0].stats().diverted == 0);
    CHECK(n.ses[1].counters().value(S) == 0); // the grant undid the redirect's increment
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.tables_empty()); // the post was consumed: the entry is idle and freed

    // Without a banked resource the same redirect is retried.
    core_sends(n, 0, 0, Opcode::sem_wait_local, S, 0);
    n.run();
    core_sends(n, 1, 2, Opcode::sem_wait_local, S, 0);
    CHECK(is_abort(only_reply(n, 1, 2), Opcode::sem_wait_local, abort_info::kRetry));
    CHECK(n.ses[1].counters().value(S) == 0);
}

// Hidden ([.]): written before the confirmation rule for a condition variable
// whose lock is homed at another SE (docs/protocol.md, "Confirmation when the
// lock lives elsewhere"). Under that rule core 1's release of L waits for the
// Master SE's answer, so core 2 cannot take L before the network runs, and the
// scenario (two waiters of one unit converted by one abort) needs a new
// set-up. It never ran in ctest until now (its name held a ';', which ctest
// splits): rewrite it, then drop the [.] tag.
TEST_CASE("abort: registered waiters of a unit, registration aborted (outdated scenario)", "[.][se][misar][condvar]") {
    SeNetwork n = misar_net({1, 64});
    const uint64_t A = SeNetwork::var(0, 5), L = SeNetwork::var(1, 0), C = SeNetwork::var(0, 0);
    core_sends(n, 0, 0, Opcode::lock_acquire_local, A); // fills the Master SE's ST
    CHECK(only_reply(n, 0, 0).op == Opcode::lock_grant_local);
    for (unsigned c : {1u, 2u}) { // nothing leaves SE 1 before both wait
        core_sends(n, 1, c, Opcode::lock_acquire_local, L);
        REQUIRE(n.deliver(se_ep(1), core_ep(1, c)));
        CHECK(ops_of(n.take(1, c)) == std::vector<Opcode>{Opcode::lock_grant_local});
        core_sends(n, 1, c, Opcode::cond_wait_local, C, L); // registered, L released by the SE
    }
    CHECK(n.ses[1].stats().internal_messages == 2);
    n.run();
    CHECK(n.count(Opcode::cond_wait_global) == 1);
    CHECK(n.count(Opcode::abort_global) == 1);
    CHECK(n.count(Opcode::cond_wait_overflow) == 2);
    for (const auto& d : n.log)
        if (d.msg.op == Opcode::cond_wait_overflow) CHECK(d.msg.info == (L | (1ull << 63)));
    for (unsigned c : {1u, 2u})
        CHECK(is_abort(only_reply(n, 1, c), Opcode::cond_wait_local, abort_info::kLockReleased));
    CHECK(n.ses[1].table().find(C) == nullptr);
    CHECK(n.ses[0].stats().diverted == 0);
    core_sends(n, 0, 0, Opcode::lock_release_local, A);
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.tables_empty());
}
