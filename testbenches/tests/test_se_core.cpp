// Functional core of the SE, message by message: each primitive, the Figure 4
// walk-through, both overflow cases, a full ST, indexing-counter aliasing and
// malformed messages.
#include <catch2/catch.hpp>

#include "testbenches/tests/se_test_network.h"

using namespace syncron;
using namespace syncron::test;

namespace {

bool got(SeNetwork& n, unsigned u, unsigned c, Opcode op) {
    n.deliver(se_ep(u), core_ep(u, c));
    const auto v = n.take(u, c);
    return v.size() == 1 && v[0].op == op;
}

} // namespace

TEST_CASE("Figure 4: lock homed in unit 1, two cores per unit, message by message", "[se][lock][figure4]") {
    SeNetwork n(2, 2, params_with(64));
    const uint64_t L = SeNetwork::var(1, 0);

    core_sends(n, 1, 0, Opcode::lock_acquire_local, L); // Master SE grants its own core at once
    REQUIRE(got(n, 1, 0, Opcode::lock_grant_local));
    core_sends(n, 1, 1, Opcode::lock_acquire_local, L);
    core_sends(n, 0, 0, Opcode::lock_acquire_local, L); // first request in unit 0: one global request
    core_sends(n, 0, 1, Opcode::lock_acquire_local, L); // aggregated: no second global message
    CHECK(n.count(Opcode::lock_acquire_global) == 0);
    REQUIRE(n.deliver(se_ep(0), se_ep(1)));
    CHECK(n.count(Opcode::lock_acquire_global) == 1);
    CHECK_FALSE(n.deliver(se_ep(0), se_ep(1))); // exactly one

    core_sends(n, 1, 0, Opcode::lock_release_local, L); // Master serves its local waiter first
    REQUIRE(got(n, 1, 1, Opcode::lock_grant_local));
    core_sends(n, 1, 1, Opcode::lock_release_local, L); // then hands the lock to SE 0
    REQUIRE(n.deliver(se_ep(1), se_ep(0)));
    CHECK(n.log.back().msg.op == Opcode::lock_grant_global);
    REQUIRE(got(n, 0, 0, Opcode::lock_grant_local));
    core_sends(n, 0, 0, Opcode::lock_release_local, L);
    REQUIRE(got(n, 0, 1, Opcode::lock_grant_local));
    core_sends(n, 0, 1, Opcode::lock_release_local, L); // no local waiter left: one aggregated release
    CHECK(n.ses[0].table().occupancy() == 0);
    REQUIRE(n.deliver(se_ep(0), se_ep(1)));
    CHECK(n.log.back().msg.op == Opcode::lock_release_global);

    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
    CHECK(n.count(Opcode::lock_acquire_global) == 1);
    CHECK(n.count(Opcode::lock_grant_global) == 1);
    CHECK(n.count(Opcode::lock_release_global) == 1);
    CHECK(n.count(Opcode::lock_grant_local) == 4);
}

TEST_CASE("lock: release by a core that does not hold it is an error", "[se][lock][errors]") {
    SeNetwork n(2, 4, params_with(64));
    const uint64_t L = SeNetwork::var(0, 0);
    core_sends(n, 0, 0, Opcode::lock_acquire_local, L);
    core_sends(n, 0, 1, Opcode::lock_release_local, L);
    REQUIRE(n.errors.size() == 1);
    CHECK_THAT(n.errors[0], Catch::Contains("release of a lock not held"));
    core_sends(n, 1, 2, Opcode::lock_release_local, SeNetwork::var(1, 3)); // never acquired at all
    REQUIRE(n.errors.size() == 2);
    CHECK_THAT(n.errors[1], Catch::Contains("not held"));
}

TEST_CASE("barrier within a unit departs all cores once the count is reached", "[se][barrier]") {
    SeNetwork n(2, 4, params_with(64));
    const uint64_t B = SeNetwork::var(1, 0); // homed elsewhere: served entirely by SE 0
    for (unsigned c = 0; c < 3; ++c) core_sends(n, 0, c, Opcode::barrier_wait_local_within_unit, B, 4);
    n.run();
    for (unsigned c = 0; c < 3; ++c) CHECK(n.take(0, c).empty());
    core_sends(n, 0, 3, Opcode::barrier_wait_local_within_unit, B, 4);
    n.run();
    for (unsigned c = 0; c < 4; ++c) CHECK(ops_of(n.take(0, c)) == std::vector<Opcode>{Opcode::barrier_depart_local});
    CHECK(n.count(Opcode::barrier_wait_global) == 0);
    CHECK(n.tables_empty());
    CHECK(n.errors.empty());
}

TEST_CASE("barrier across units with all cores aggregates one message per SE", "[se][barrier]") {
    SeNetwork n(4, 3, params_with(64)); // 12 client cores in all
    const uint64_t B = SeNetwork::var(2, 0);
    for (int epoch = 0; epoch < 3; ++epoch) {
        for (unsigned u = 0; u < 4; ++u)
            for (unsigned c = 0; c < 3; ++c) n.send(u, c, Opcode::barrier_wait_local_across_units, B, 12);
        n.run();
        for (unsigned u = 0; u < 4; ++u)
            for (unsigned c = 0; c < 3; ++c)
                CHECK(ops_of(n.take(u, c)) == std::vector<Opcode>{Opcode::barrier_depart_local});
    }
    CHECK(n.count(Opcode::barrier_wait_global) == 3 * 3); // three non-Master SEs per epoch
    CHECK(n.count(Opcode::barrier_depart_global) == 3 * 3);
    CHECK(n.tables_empty());
    CHECK(n.errors.empty());
}

TEST_CASE("barrier across units with fewer participants uses one-level communication", "[se][barrier]") {
    SeNetwork n(2, 4, params_with(64)); // 8 client cores, barrier of 5
    const uint64_t B = SeNetwork::var(1, 0);
    for (unsigned c = 0; c < 3; ++c) core_sends(n, 0, c, Opcode::barrier_wait_local_across_units, B, 5);
    core_sends(n, 1, 0, Opcode::barrier_wait_local_across_units, B, 5);
    n.run();
    CHECK(n.count(Opcode::barrier_wait_global) == 3); // every arrival forwarded
    for (unsigned c = 0; c < 3; ++c) CHECK(n.take(0, c).empty());
    core_sends(n, 1, 1, Opcode::barrier_wait_local_across_units, B, 5);
    n.run();
    for (unsigned c = 0; c < 3; ++c) CHECK(ops_of(n.take(0, c)) == std::vector<Opcode>{Opcode::barrier_depart_local});
    CHECK(ops_of(n.take(1, 0)) == std::vector<Opcode>{Opcode::barrier_depart_local});
    CHECK(ops_of(n.take(1, 1)) == std::vector<Opcode>{Opcode::barrier_depart_local});
    CHECK(n.count(Opcode::barrier_depart_global) == 1); // departure aggregated per SE
    CHECK(n.tables_empty());
}

TEST_CASE("semaphore grants at most the initial resources plus posts", "[se][semaphore]") {
    SeNetwork n(2, 4, params_with(64));
    const uint64_t S = SeNetwork::var(0, 0);
    // initial 2: two cores of the remote unit get in, the third waits
    for (unsigned c = 0; c < 3; ++c) n.send(1, c, Opcode::sem_wait_local, S, 2);
    n.run();
    unsigned granted = 0;
    for (unsigned c = 0; c < 3; ++c) granted += static_cast<unsigned>(n.take(1, c).size());
    CHECK(granted == 2);
    core_sends(n, 0, 0, Opcode::sem_post_local, S);
    n.run();
    for (unsigned c = 0; c < 3; ++c) granted += static_cast<unsigned>(n.take(1, c).size());
    CHECK(granted == 3);
    // one global request outstanding per SE at a time
    CHECK(n.count(Opcode::sem_wait_global) == 3);
    // two posts back: 2 initial + 1 post - 3 grants + 2 = the initial value,
    // so no state is left anywhere
    core_sends(n, 1, 0, Opcode::sem_post_local, S);
    core_sends(n, 1, 1, Opcode::sem_post_local, S);
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
}

TEST_CASE("semaphore post in a unit with several local waiters is handed over locally", "[se][semaphore]") {
    SeNetwork n(2, 4, params_with(64));
    const uint64_t S = SeNetwork::var(0, 0);
    core_sends(n, 1, 0, Opcode::sem_wait_local, S, 0);
    core_sends(n, 1, 1, Opcode::sem_wait_local, S, 0);
    core_sends(n, 1, 2, Opcode::sem_post_local, S); // two waiters, one global request: hand over
    n.deliver(se_ep(1), core_ep(1, 0));
    n.deliver(se_ep(1), core_ep(1, 1));
    CHECK(n.take(1, 0).size() + n.take(1, 1).size() == 1);
    CHECK(n.count(Opcode::sem_post_global) == 0);
    core_sends(n, 1, 3, Opcode::sem_post_local, S); // one waiter left, covered by the request
    n.run();
    CHECK(n.count(Opcode::sem_post_global) == 1);
    CHECK(n.take(1, 0).size() + n.take(1, 1).size() == 1);
    CHECK(n.count(Opcode::sem_wait_global) == 1);
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
}

TEST_CASE("condition variable: wait releases the lock, signal wakes one, broadcast all", "[se][condvar]") {
    SeNetwork n(2, 4, params_with(64));
    const uint64_t L = SeNetwork::var(0, 0), C = SeNetwork::var(0, 1);
    // core 0 of unit 1 takes the lock and waits; the lock goes to core 1 of unit 0
    core_sends(n, 1, 0, Opcode::lock_acquire_local, L);
    n.run();
    REQUIRE(ops_of(n.take(1, 0)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends(n, 0, 1, Opcode::lock_acquire_local, L);
    n.run();
    CHECK(n.take(0, 1).empty());
    core_sends(n, 1, 0, Opcode::cond_wait_local, C, L);
    n.run();
    CHECK(ops_of(n.take(0, 1)) == std::vector<Opcode>{Opcode::lock_grant_local}); // released by the SE
    CHECK(n.take(1, 0).empty());
    core_sends(n, 0, 1, Opcode::cond_signal_local, C);
    n.run();
    CHECK(ops_of(n.take(1, 0)) == std::vector<Opcode>{Opcode::cond_grant_local});
    core_sends(n, 0, 1, Opcode::lock_release_local, L);
    n.run();

    // three waiters on two units, one broadcast
    core_sends(n, 1, 0, Opcode::lock_acquire_local, L);
    n.run();
    REQUIRE(n.take(1, 0).size() == 1);
    core_sends(n, 1, 0, Opcode::cond_wait_local, C, L);
    n.run();
    for (unsigned c : {2u, 3u}) {
        core_sends(n, 0, c, Opcode::lock_acquire_local, L);
        n.run();
        REQUIRE(n.take(0, c).size() == 1);
        core_sends(n, 0, c, Opcode::cond_wait_local, C, L);
        n.run();
    }
    core_sends(n, 1, 1, Opcode::cond_broad_local, C);
    n.run();
    CHECK(ops_of(n.take(1, 0)) == std::vector<Opcode>{Opcode::cond_grant_local});
    CHECK(ops_of(n.take(0, 2)) == std::vector<Opcode>{Opcode::cond_grant_local});
    CHECK(ops_of(n.take(0, 3)) == std::vector<Opcode>{Opcode::cond_grant_local});
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
}

TEST_CASE("signal with no waiter has no effect and leaves no state", "[se][condvar]") {
    SeNetwork n(2, 4, params_with(64));
    core_sends(n, 1, 0, Opcode::cond_signal_local, SeNetwork::var(0, 1));
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
}

TEST_CASE("overflow case 1: the Master SE's ST is full, syncronVar keeps whole-SE waiters", "[se][overflow]") {
    // SE 0 (Master) has no ST at all; SE 1 buffers its cores as usual.
    SeNetwork n(2, 4, params_with(64));
    SeParams master_params = params_with(0);
    SeTopology topo;
    topo.units = 2;
    topo.cores_per_unit = 4;
    topo.client_cores = {4, 4};
    topo.home_unit = [](uint64_t a) { return static_cast<unsigned>(a / SeNetwork::kUnitBytes); };
    n.ses[0] = SeCore(0, master_params, topo, &n.memories[0]);

    const uint64_t L = SeNetwork::var(0, 0);
    core_sends(n, 0, 0, Opcode::lock_acquire_local, L);
    n.run();
    REQUIRE(n.take(0, 0).size() == 1);
    CHECK(n.ses[0].counters().value(L) == 1); // served via memory
    core_sends(n, 1, 0, Opcode::lock_acquire_local, L);
    core_sends(n, 1, 1, Opcode::lock_acquire_local, L);
    n.run();
    CHECK(n.count(Opcode::lock_acquire_global) == 1); // SE 1 still aggregates in its ST
    // in syncronVar every bit of SE 1's waiting list is set
    const auto img = n.memories[0].image(L, n.ses[0].layout().bytes());
    const unsigned wl = n.ses[0].layout().waitlist_bytes();
    CHECK(img[wl] == 0x0f); // 4 cores per unit: Waitlist[1] = 0b1111
    core_sends(n, 0, 0, Opcode::lock_release_local, L);
    n.run();
    CHECK(n.count(Opcode::lock_grant_global) == 1);
    const unsigned first = n.take(1, 0).empty() ? 1 : 0; // SE 1 grants its cores in turn
    CHECK(n.take(1, 1 - first).empty());
    core_sends(n, 1, first, Opcode::lock_release_local, L);
    n.run();
    CHECK(ops_of(n.take(1, 1 - first)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends(n, 1, 1 - first, Opcode::lock_release_local, L);
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.count(Opcode::lock_release_global) == 1);
    CHECK(n.counters_zero()); // back to hardware once nothing is pending
    CHECK(n.tables_empty());
    CHECK(n.memories[0].writes > 0);
}

TEST_CASE("overflow case 2: a local SE's ST is full, the Master SE tracks its cores", "[se][overflow]") {
    SeNetwork n(2, 4, params_with(64));
    SeTopology topo;
    topo.units = 2;
    topo.cores_per_unit = 4;
    topo.client_cores = {4, 4};
    topo.home_unit = [](uint64_t a) { return static_cast<unsigned>(a / SeNetwork::kUnitBytes); };
    n.ses[1] = SeCore(1, params_with(0), topo, &n.memories[1]);

    const uint64_t L = SeNetwork::var(0, 0);
    core_sends(n, 0, 0, Opcode::lock_acquire_local, L); // Master buffers it in its ST
    n.run();
    REQUIRE(n.take(0, 0).size() == 1);
    core_sends(n, 1, 2, Opcode::lock_acquire_local, L);
    core_sends(n, 1, 3, Opcode::lock_acquire_local, L);
    CHECK(n.ses[1].counters().value(L) == 2);
    n.run();
    CHECK(n.count(Opcode::lock_acquire_overflow) == 2);
    CHECK(n.ses[0].table().occupancy() == 0); // moved to syncronVar
    CHECK(n.ses[0].counters().value(L) == 1);
    const auto img = n.memories[0].image(L, n.ses[0].layout().bytes());
    const unsigned wl = n.ses[0].layout().waitlist_bytes();
    CHECK(img[wl] == 0x0c); // cores 2 and 3 of SE 1
    const unsigned ovf_off = 2 * wl + 8;
    CHECK((img[ovf_off] & 0x2) == 0x2); // OverflowInfo: SE 1 overflowed

    core_sends(n, 0, 0, Opcode::lock_release_local, L);
    n.run();
    CHECK(n.count(Opcode::lock_grant_overflow) == 1);
    unsigned holder = n.take(1, 2).empty() ? 3 : 2;
    CHECK(n.take(1, holder == 2 ? 3 : 2).empty());
    core_sends(n, 1, holder, Opcode::lock_release_local, L);
    n.run();
    CHECK(n.count(Opcode::lock_release_overflow) == 1);
    const unsigned other = holder == 2 ? 3 : 2;
    CHECK(ops_of(n.take(1, other)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends(n, 1, other, Opcode::lock_release_local, L);
    n.run();
    CHECK(n.count(Opcode::decrease_indexing_counter) == 1);
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.tables_empty());
}

TEST_CASE("ST full: a second variable is served through memory with the same result", "[se][overflow]") {
    SeNetwork n(1, 4, params_with(1));
    const uint64_t A = SeNetwork::var(0, 0), B = SeNetwork::var(0, 1);
    core_sends(n, 0, 0, Opcode::lock_acquire_local, A);
    core_sends(n, 0, 1, Opcode::lock_acquire_local, B);
    n.run();
    CHECK(n.take(0, 0).size() == 1);
    CHECK(n.take(0, 1).size() == 1); // both locks granted: different variables
    CHECK(n.ses[0].table().occupancy() == 1);
    CHECK(n.ses[0].counters().value(B) == 1);
    CHECK(n.ses[0].stats().overflow_requests == 1);
    core_sends(n, 0, 2, Opcode::lock_acquire_local, B);
    n.run();
    CHECK(n.take(0, 2).empty()); // still exclusive in memory
    core_sends(n, 0, 1, Opcode::lock_release_local, B);
    n.run();
    CHECK(n.take(0, 2).size() == 1);
    core_sends(n, 0, 2, Opcode::lock_release_local, B);
    core_sends(n, 0, 0, Opcode::lock_release_local, A);
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.tables_empty());
}

TEST_CASE("aliasing indexing counters send a variable through memory while the ST has room", "[se][overflow]") {
    // 4 counters: variables 0 and 4 (64 B apart x4) share counter 0.
    SeNetwork n(1, 4, params_with(1, 4));
    const uint64_t A = SeNetwork::var(0, 0), B = SeNetwork::var(0, 1), C = SeNetwork::var(0, 4);
    REQUIRE(n.ses[0].counters().index_of(B) != n.ses[0].counters().index_of(C));
    core_sends(n, 0, 0, Opcode::lock_acquire_local, A); // takes the only entry
    core_sends(n, 0, 1, Opcode::lock_acquire_local, B); // full: B in memory, counter[B] = 1
    core_sends(n, 0, 0, Opcode::lock_release_local, A); // ST free again
    REQUIRE(n.ses[0].table().occupancy() == 0);
    // C aliases A's counter (0), which is zero: C goes to the ST
    core_sends(n, 0, 2, Opcode::lock_acquire_local, C);
    CHECK(n.ses[0].table().occupancy() == 1);
    core_sends(n, 0, 2, Opcode::lock_release_local, C);
    // a variable aliasing B's counter is served from memory although the ST is empty
    const uint64_t D = SeNetwork::var(0, 5);
    REQUIRE(n.ses[0].counters().index_of(D) == n.ses[0].counters().index_of(B));
    core_sends(n, 0, 3, Opcode::lock_acquire_local, D);
    CHECK(n.ses[0].table().occupancy() == 0);
    CHECK(n.ses[0].counters().value(D) == 2);
    n.run();
    CHECK(n.take(0, 3).size() == 1);
    core_sends(n, 0, 3, Opcode::lock_release_local, D);
    core_sends(n, 0, 1, Opcode::lock_release_local, B);
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
}

TEST_CASE("malformed messages are rejected with a reason, state unchanged", "[se][errors]") {
    SeNetwork n(2, 4, params_with(64));
    SeCore& se = n.ses[0];
    SeResult r;
    Message bad{SeNetwork::var(0, 0), static_cast<Opcode>(57), 0, 0, 0};
    se.handle(bad, r);
    CHECK_THAT(r.error, Catch::Contains("unknown opcode 57"));
    r.clear();
    se.handle(Message{SeNetwork::var(0, 0), Opcode::lock_acquire_local, 9, 0, 0}, r);
    CHECK_THAT(r.error, Catch::Contains("core ID 9 out of range"));
    r.clear();
    se.handle(Message{SeNetwork::var(0, 0), Opcode::lock_acquire_global, 0, 7, 0}, r);
    CHECK_THAT(r.error, Catch::Contains("SE ID 7 out of range"));
    r.clear();
    se.handle(Message{SeNetwork::var(1, 0), Opcode::lock_acquire_global, 0, 1, 0}, r);
    CHECK_THAT(r.error, Catch::Contains("must be sent to the Master SE"));
    r.clear();
    se.handle(Message{SeNetwork::var(0, 0), Opcode::lock_grant_local, 0, 0, 0}, r);
    CHECK_THAT(r.error, Catch::Contains("sent by an SE to a core"));
    r.clear();
    se.handle(Message{5 * SeNetwork::kUnitBytes, Opcode::lock_acquire_local, 0, 0, 0}, r);
    CHECK_THAT(r.error, Catch::Contains("not in the memory of any unit"));
    CHECK(se.table().occupancy() == 0);
    CHECK(r.out.empty());
}

TEST_CASE("waiting lists are sized from the configuration: 64 cores x 16 units", "[se][scale]") {
    SeNetwork n(16, 64, params_with(64));
    const uint64_t B = SeNetwork::var(5, 0);
    for (unsigned u = 0; u < 16; ++u)
        for (unsigned c = 0; c < 64; ++c) n.send(u, c, Opcode::barrier_wait_local_across_units, B, 1024);
    n.run();
    unsigned departed = 0;
    for (unsigned u = 0; u < 16; ++u)
        for (unsigned c = 0; c < 64; ++c) departed += static_cast<unsigned>(n.take(u, c).size());
    CHECK(departed == 1024);
    CHECK(n.count(Opcode::barrier_wait_global) == 15);
    CHECK(n.errors.empty());
    // and syncronVar is sized for them
    CHECK(n.ses[0].layout().waitlist_bytes() == 8);
}

TEST_CASE("lock fairness threshold: a unit yields the lock after N local grants", "[se][lock][fairness]") {
    SeParams p = params_with(64);
    p.lock_fairness_threshold = 2;
    SeNetwork n(2, 4, p);
    const uint64_t L = SeNetwork::var(1, 0); // Master SE 1
    // Unit 0 takes the lock with four cores waiting; unit 1 asks meanwhile.
    for (unsigned c = 0; c < 4; ++c) n.send(0, c, Opcode::lock_acquire_local, L);
    n.run();
    core_sends(n, 1, 0, Opcode::lock_acquire_local, L); // the lock is with SE 0: core 1.0 waits
    n.run();
    std::vector<unsigned> order; // who holds the lock, in turn
    const auto holder = [&](unsigned u) {
        for (unsigned c = 0; c < 4; ++c)
            if (!n.take(u, c).empty()) return c;
        return 99u;
    };
    unsigned h = holder(0);
    REQUIRE(h != 99u);
    core_sends(n, 0, h, Opcode::lock_release_local, L); // second grant inside unit 0
    n.run();
    h = holder(0);
    REQUIRE(h != 99u);
    core_sends(n, 0, h, Opcode::lock_release_local, L); // threshold reached: the lock leaves unit 0
    n.run();
    CHECK(holder(0) == 99u);                                                      // no third grant in unit 0...
    CHECK(ops_of(n.take(1, 0)) == std::vector<Opcode>{Opcode::lock_grant_local}); // ...core 1.0 gets it
    CHECK(n.count(Opcode::lock_acquire_global) == 2); // unit 0 queued again for its two waiters
    core_sends(n, 1, 0, Opcode::lock_release_local, L);
    n.run();
    h = holder(0); // back to unit 0
    REQUIRE(h != 99u);
    core_sends(n, 0, h, Opcode::lock_release_local, L);
    n.run();
    h = holder(0);
    REQUIRE(h != 99u);
    core_sends(n, 0, h, Opcode::lock_release_local, L);
    n.run();
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
    // Hand-offs where they were decided: two inside unit 0 at its SE, the
    // moves 0 -> 1 -> 0 at the Master SE; no more than 2 grants in a row.
    CHECK(n.ses[0].stats().lock_handoffs_within == std::vector<uint64_t>{2, 0});
    CHECK(n.ses[0].stats().lock_handoffs_across == std::vector<uint64_t>{0, 0});
    CHECK(n.ses[1].stats().lock_handoffs_within == std::vector<uint64_t>{0, 0});
    CHECK(n.ses[1].stats().lock_handoffs_across == std::vector<uint64_t>{1, 1});
    CHECK(n.ses[0].stats().lock_local_run_max == 2);
}

TEST_CASE("lock fairness threshold: a change at run time applies from the next grant decision",
          "[se][lock][fairness]") {
    SeNetwork n(2, 4, params_with(64)); // threshold 0 at elaboration
    const auto threshold = std::make_shared<unsigned>(0);
    for (auto& se : n.ses) se.share_lock_fairness(threshold);
    const uint64_t L = SeNetwork::var(1, 0);
    for (unsigned c = 0; c < 4; ++c) n.send(0, c, Opcode::lock_acquire_local, L);
    n.run();
    core_sends(n, 1, 0, Opcode::lock_acquire_local, L);
    n.run();
    const auto holder = [&] {
        for (unsigned c = 0; c < 4; ++c)
            if (!n.take(0, c).empty()) return c;
        return 99u;
    };
    unsigned h = holder();
    REQUIRE(h != 99u);
    core_sends(n, 0, h, Opcode::lock_release_local, L); // off: handed on inside unit 0
    n.run();
    h = holder();
    REQUIRE(h != 99u);
    CHECK(n.take(1, 0).empty());
    *threshold = 1; // two grants in a row already: the next release yields
    CHECK(n.ses[0].lock_fairness_threshold() == 1);
    core_sends(n, 0, h, Opcode::lock_release_local, L);
    n.run();
    CHECK(holder() == 99u);
    CHECK(ops_of(n.take(1, 0)) == std::vector<Opcode>{Opcode::lock_grant_local});
    CHECK(n.errors.empty());
}

TEST_CASE("lock fairness threshold off (paper default): the unit keeps the lock while its cores ask",
          "[se][lock][fairness]") {
    SeNetwork n(2, 4, params_with(64));
    const uint64_t L = SeNetwork::var(1, 0);
    for (unsigned c = 0; c < 4; ++c) n.send(0, c, Opcode::lock_acquire_local, L);
    n.run();
    core_sends(n, 1, 0, Opcode::lock_acquire_local, L);
    n.run();
    for (int i = 0; i < 4; ++i) {
        unsigned h = 99;
        for (unsigned c = 0; c < 4; ++c)
            if (!n.take(0, c).empty()) h = c;
        REQUIRE(h != 99u);
        core_sends(n, 0, h, Opcode::lock_release_local, L);
        n.run();
        if (i < 3) CHECK(n.take(1, 0).empty()); // all four unit-0 cores first
    }
    CHECK(ops_of(n.take(1, 0)) == std::vector<Opcode>{Opcode::lock_grant_local});
    CHECK(n.count(Opcode::lock_acquire_global) == 1);
}
