// The SE functional core in the flat organization (SynCron without the local
// level): every core talks to the Master SE of the variable with local-level
// opcodes naming itself by flat index (unit * cores_per_unit + local ID), and
// the Master SE replies to the core directly. 4 units x 16 cores unless said.
#include <catch2/catch.hpp>

#include <chrono>
#include <random>

#include "models/se/core/single_path_organization.h"
#include "testbenches/tests/se_test_network.h"

using namespace syncron;
using namespace syncron::test;

namespace {

SeTopology flat_topology(unsigned units = 4, unsigned cores = 16) {
    SeTopology t = SeNetwork::topology(units, cores);
    t.organization = SeOrganization::flat;
    return t;
}

SeNetwork flat_net(unsigned st_entries = 64, unsigned units = 4, unsigned cores = 16) {
    return SeNetwork(flat_topology(units, cores), std::vector<SeParams>(units, params_with(st_entries)));
}

// Core (u,c) -> the variable's Master SE, delivered now.
void core_sends_to_master(SeNetwork& n, unsigned u, unsigned c, Opcode op, uint64_t addr, uint64_t info = 0) {
    n.send(u, c, op, addr, info);
    REQUIRE(n.deliver(core_ep(u, c), se_ep(SeNetwork::home_of(addr))));
}

// What core (u,c) received from SE `from`.
std::vector<Message> received(SeNetwork& n, unsigned from, unsigned u, unsigned c) {
    while (n.deliver(se_ep(from), core_ep(u, c))) {
    }
    return n.take(u, c);
}

} // namespace

TEST_CASE("flat: a lock homed in unit 2, cores of units 0 and 3, grants go to the flat index", "[se][flat][lock]") {
    SeNetwork n = flat_net();
    const uint64_t L = SeNetwork::var(2, 0);
    SeCore& master = n.ses[2];

    // Core 3 of unit 0 (flat index 3) asks SE 2 directly.
    n.send(0, 3, Opcode::lock_acquire_local, L);
    REQUIRE(n.log.empty());
    SeResult r;
    const Message req{L, Opcode::lock_acquire_local, 3, 0, 0};
    master.handle(req, r);
    REQUIRE(r.ok());
    REQUIRE(r.out.size() == 1);
    CHECK(r.out[0].dest == Outgoing::Dest::core);
    CHECK(r.out[0].id == 3);
    CHECK(r.out[0].msg.op == Opcode::lock_grant_local);
    CHECK(r.out[0].msg.core == 3);
    CHECK(r.out[0].msg.se == 0); // the core's unit
    // The network's copy reaches SE 2 too: an acquire by the holder. In the
    // flat organization it queues behind the holder's release (which a
    // cond_wait at another SE may still have in flight).
    REQUIRE(n.deliver(core_ep(0, 3), se_ep(2)));
    CHECK(n.errors.empty());
    CHECK(master.table().find(L)->state.local.test(3));
    core_sends_to_master(n, 0, 3, Opcode::lock_acquire_local, L); // but a waiter cannot ask twice
    CHECK_THAT(n.errors.at(0), Catch::Contains("already holds or waits"));
    n.errors.clear();
    core_sends_to_master(n, 0, 3, Opcode::lock_release_local, L); // the release: granted to itself again
    CHECK(ops_of(received(n, 2, 0, 3)) == std::vector<Opcode>{Opcode::lock_grant_local});

    // Core 5 of unit 3 (flat 53) waits: one 64-bit list, bit 53.
    core_sends_to_master(n, 3, 5, Opcode::lock_acquire_local, L);
    const StEntry* e = master.table().find(L);
    REQUIRE(e);
    CHECK(e->state.local.size() == 64);
    CHECK(e->state.local.test(53));
    CHECK(e->state.local.count() == 1);
    CHECK(e->state.global.none());
    CHECK(received(n, 2, 3, 5).empty());

    VarSnapshot snap;
    REQUIRE(master.snapshot(L, Primitive::lock, nullptr, snap));
    CHECK(snap.local.size() == 64);
    CHECK(snap.local[63 - 53] == '1');
    CHECK(snap.lock_held);
    CHECK(snap.owner_se == 0);
    CHECK(snap.owner_core == 3);

    core_sends_to_master(n, 0, 3, Opcode::lock_release_local, L);
    const auto got = received(n, 2, 3, 5);
    REQUIRE(ops_of(got) == std::vector<Opcode>{Opcode::lock_grant_local});
    CHECK(got[0].core == 53);
    CHECK(got[0].se == 3);
    core_sends_to_master(n, 3, 5, Opcode::lock_release_local, L);
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
    CHECK(n.count(Opcode::lock_acquire_global) == 0); // no local level at all
    for (const auto& se : n.ses) CHECK(se.stats().received[static_cast<unsigned>(Opcode::lock_acquire_global)] == 0);
}

TEST_CASE("flat: barriers count cores, never units (across units and within a unit)", "[se][flat][barrier]") {
    SeNetwork n = flat_net();
    const uint64_t B = SeNetwork::var(1, 0);
    for (int epoch = 0; epoch < 2; ++epoch) {
        for (unsigned u = 0; u < 4; ++u)
            for (unsigned c = 0; c < 16; ++c) {
                if (u == 3 && c == 15) continue;
                n.send(u, c, Opcode::barrier_wait_local_across_units, B, 64);
            }
        n.run();
        for (unsigned u = 0; u < 4; ++u)
            for (unsigned c = 0; c < 16; ++c) CHECK(n.take(u, c).empty());
        REQUIRE(n.ses[1].table().find(B));
        CHECK(n.ses[1].table().find(B)->state.info == 63); // 63 arrivals of weight 1
        n.send(3, 15, Opcode::barrier_wait_local_across_units, B, 64);
        n.run();
        for (unsigned u = 0; u < 4; ++u)
            for (unsigned c = 0; c < 16; ++c)
                CHECK(ops_of(n.take(u, c)) == std::vector<Opcode>{Opcode::barrier_depart_local});
    }
    // Within a unit: unit 0's cores at a barrier homed in unit 3 all go to SE 3.
    const uint64_t W = SeNetwork::var(3, 1);
    for (unsigned c = 0; c < 16; ++c) n.send(0, c, Opcode::barrier_wait_local_within_unit, W, 16);
    n.run();
    for (unsigned c = 0; c < 16; ++c) CHECK(ops_of(n.take(0, c)) == std::vector<Opcode>{Opcode::barrier_depart_local});
    CHECK(n.ses[3].stats().received[static_cast<unsigned>(Opcode::barrier_wait_local_within_unit)] == 16);
    CHECK(n.ses[0].stats().received[static_cast<unsigned>(Opcode::barrier_wait_local_within_unit)] == 0);
    CHECK(n.count(Opcode::barrier_wait_global) == 0);
    CHECK(n.count(Opcode::barrier_depart_global) == 0);
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
}

TEST_CASE("flat: semaphore waits of several units, posts from another", "[se][flat][semaphore]") {
    SeNetwork n = flat_net();
    const uint64_t S = SeNetwork::var(0, 0);
    core_sends_to_master(n, 1, 0, Opcode::sem_wait_local, S, 2);
    core_sends_to_master(n, 2, 7, Opcode::sem_wait_local, S, 2);
    core_sends_to_master(n, 3, 9, Opcode::sem_wait_local, S, 2);
    CHECK(ops_of(received(n, 0, 1, 0)) == std::vector<Opcode>{Opcode::sem_grant_local});
    CHECK(ops_of(received(n, 0, 2, 7)) == std::vector<Opcode>{Opcode::sem_grant_local});
    CHECK(received(n, 0, 3, 9).empty());
    CHECK(n.ses[0].table().find(S)->state.local.test(3 * 16 + 9));
    core_sends_to_master(n, 0, 4, Opcode::sem_post_local, S);
    CHECK(ops_of(received(n, 0, 3, 9)) == std::vector<Opcode>{Opcode::sem_grant_local});
    core_sends_to_master(n, 1, 0, Opcode::sem_post_local, S);
    core_sends_to_master(n, 2, 7, Opcode::sem_post_local, S);
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
}

TEST_CASE("flat: cond_wait releases a co-located lock inside the SE, signal and broadcast wake by flat index",
          "[se][flat][condvar]") {
    SeNetwork n = flat_net();
    const uint64_t L = SeNetwork::var(1, 0), C = SeNetwork::var(1, 1);
    core_sends_to_master(n, 0, 2, Opcode::lock_acquire_local, L);
    REQUIRE(ops_of(received(n, 1, 0, 2)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends_to_master(n, 3, 1, Opcode::lock_acquire_local, L); // waits for the lock
    core_sends_to_master(n, 0, 2, Opcode::cond_wait_local, C, L); // registers, then the SE releases L
    CHECK(n.ses[1].stats().internal_messages == 1);
    CHECK(ops_of(received(n, 1, 3, 1)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends_to_master(n, 3, 1, Opcode::cond_signal_local, C);
    const auto woken = received(n, 1, 0, 2);
    REQUIRE(ops_of(woken) == std::vector<Opcode>{Opcode::cond_grant_local});
    CHECK(woken[0].core == 2);
    core_sends_to_master(n, 3, 1, Opcode::lock_release_local, L);
    core_sends_to_master(n, 0, 2, Opcode::lock_acquire_local, L);
    REQUIRE(ops_of(received(n, 1, 0, 2)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends_to_master(n, 0, 2, Opcode::cond_wait_local, C, L);
    core_sends_to_master(n, 2, 8, Opcode::lock_acquire_local, L);
    REQUIRE(ops_of(received(n, 1, 2, 8)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends_to_master(n, 2, 8, Opcode::cond_wait_local, C, L);
    core_sends_to_master(n, 3, 3, Opcode::cond_broad_local, C);
    CHECK(ops_of(received(n, 1, 0, 2)) == std::vector<Opcode>{Opcode::cond_grant_local});
    CHECK(ops_of(received(n, 1, 2, 8)) == std::vector<Opcode>{Opcode::cond_grant_local});
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
}

TEST_CASE("flat: cond_wait with the lock homed elsewhere sends the core's lock_release_local to the lock's Master SE",
          "[se][flat][condvar]") {
    SeNetwork n = flat_net();
    const uint64_t L = SeNetwork::var(3, 0), C = SeNetwork::var(1, 0);
    core_sends_to_master(n, 2, 6, Opcode::lock_acquire_local, L);
    REQUIRE(ops_of(received(n, 3, 2, 6)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends_to_master(n, 0, 1, Opcode::lock_acquire_local, L); // waits at SE 3

    SeResult r;
    n.ses[1].handle(Message{C, Opcode::cond_wait_local, 2 * 16 + 6, 2, L}, r);
    REQUIRE(r.ok());
    REQUIRE(r.out.size() == 1);
    const Outgoing& rel = r.out[0];
    CHECK(rel.dest == Outgoing::Dest::se);
    CHECK(rel.id == 3);
    CHECK(rel.msg == Message{L, Opcode::lock_release_local, 2 * 16 + 6, 2, 0});
    CHECK(r.cost.messages == 1); // the release is the lock's Master SE's message
    CHECK(n.ses[1].stats().internal_messages == 1);
    CHECK(n.ses[1].table().find(C)->state.local.test(2 * 16 + 6));

    // Delivered to SE 3 as that core's release: the waiter gets the lock.
    n.inject(se_ep(1), se_ep(3), rel.msg);
    REQUIRE(n.deliver(se_ep(1), se_ep(3)));
    CHECK(ops_of(received(n, 3, 0, 1)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends_to_master(n, 0, 1, Opcode::cond_signal_local, C);
    CHECK(ops_of(received(n, 1, 2, 6)) == std::vector<Opcode>{Opcode::cond_grant_local});
    core_sends_to_master(n, 0, 1, Opcode::lock_release_local, L);
    CHECK(n.errors.empty());
    CHECK(n.tables_empty());
}

TEST_CASE("flat: with no ST the Master SE serves cores of several units from syncronVar", "[se][flat][overflow]") {
    SeNetwork n = flat_net(0);
    const uint64_t L = SeNetwork::var(1, 0);
    core_sends_to_master(n, 0, 1, Opcode::lock_acquire_local, L);
    core_sends_to_master(n, 2, 7, Opcode::lock_acquire_local, L);
    core_sends_to_master(n, 3, 15, Opcode::lock_acquire_local, L);
    core_sends_to_master(n, 1, 0, Opcode::lock_acquire_local, L);
    CHECK(ops_of(received(n, 1, 0, 1)) == std::vector<Opcode>{Opcode::lock_grant_local});
    CHECK(n.ses[1].counters().value(L) == 1);
    CHECK(n.ses[1].table().occupancy() == 0);

    // Waitlist[u] bit c is the core with flat index u*16 + c: same image size as hierarchical.
    const SyncronVarLayout& lay = n.ses[1].layout();
    CHECK(lay.flat());
    CHECK(lay.bytes() == SyncronVarLayout(4, 16).bytes());
    const auto img = n.memories[1].image(L, lay.bytes());
    const unsigned wl = lay.waitlist_bytes();
    CHECK(img[0] == 0);
    CHECK(img[1] == 0);
    CHECK(img[wl] == 0x01);               // unit 1, core 0
    CHECK(img[2 * wl] == 0x80);           // unit 2, core 7
    CHECK(img[3 * wl + 1] == 0x80);       // unit 3, core 15
    CHECK((img[4 * wl + 8] & 0x0f) == 0); // OverflowInfo: no SE overflowed
    VarState decoded;
    CHECK(lay.decode(img, 1, Primitive::lock, decoded)); // active
    CHECK(decoded.local.size() == 64);
    CHECK(decoded.local.count() == 3);
    CHECK(decoded.local.test(16));
    CHECK(decoded.local.test(39));
    CHECK(decoded.local.test(63));
    CHECK(decoded.global.none());
    std::vector<uint8_t> again;
    lay.encode(decoded, 1, true, again);
    CHECK(again == img);

    VarSnapshot snap;
    REQUIRE(n.ses[1].snapshot(L, Primitive::lock, &img, snap));
    CHECK(snap.in_memory);
    CHECK(snap.local.size() == 64);
    CHECK(snap.owner_se == 0);
    CHECK(snap.owner_core == 1);

    // Served in rotation from the holder's position: 16, 39, 63.
    core_sends_to_master(n, 0, 1, Opcode::lock_release_local, L);
    CHECK(ops_of(received(n, 1, 1, 0)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends_to_master(n, 1, 0, Opcode::lock_release_local, L);
    CHECK(ops_of(received(n, 1, 2, 7)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends_to_master(n, 2, 7, Opcode::lock_release_local, L);
    CHECK(ops_of(received(n, 1, 3, 15)) == std::vector<Opcode>{Opcode::lock_grant_local});
    core_sends_to_master(n, 3, 15, Opcode::lock_release_local, L);
    CHECK(n.errors.empty());
    CHECK(n.counters_zero());
    CHECK(n.count(Opcode::decrease_indexing_counter) == 0); // nobody overflowed: nothing to tell
    CHECK(n.memories[1].writes == 8);
}

TEST_CASE("flat: syncronVar encode/decode round-trips any flat own list", "[se][flat][overflow]") {
    std::mt19937_64 rng(7);
    for (const auto& [units, cores] : std::vector<std::pair<unsigned, unsigned>>{{4, 16}, {2, 3}, {16, 64}, {3, 20}}) {
        const SyncronVarLayout lay(units, cores, true);
        for (int i = 0; i < 50; ++i) {
            VarState s;
            s.reset(Primitive::barrier, units * cores, units);
            for (unsigned b = 0; b < units * cores; ++b)
                if (rng() % 3 == 0) s.local.set(b);
            s.info = rng();
            std::vector<uint8_t> img;
            lay.encode(s, static_cast<unsigned>(rng() % units), true, img);
            CHECK(img.size() == SyncronVarLayout(units, cores).bytes());
            VarState back;
            CHECK(lay.decode(img, 0, Primitive::barrier, back));
            CHECK(back.local == s.local);
            CHECK(back.info == s.info);
            CHECK(back.global.none());
        }
    }
}

TEST_CASE("flat: malformed requests are rejected with the reason", "[se][flat][errors]") {
    SeNetwork n = flat_net();
    SeCore& se = n.ses[1];
    const uint64_t mine = SeNetwork::var(1, 0), other = SeNetwork::var(2, 0);
    CHECK(se.validate(Message{mine, Opcode::lock_acquire_local, 63, 3, 0}).empty());
    CHECK_THAT(se.validate(Message{other, Opcode::lock_acquire_local, 5, 1, 0}),
               Catch::Contains("flat: requests go to the Master SE") && Catch::Contains("Master SE 2"));
    CHECK_THAT(se.validate(Message{mine, Opcode::lock_acquire_global, 0, 0, 0}), Catch::Contains("flat:"));
    CHECK_THAT(se.validate(Message{mine, Opcode::lock_acquire_overflow, 1, 0, 0}), Catch::Contains("flat:"));
    CHECK_THAT(se.validate(Message{mine, Opcode::decrease_indexing_counter, 0, 0, 1}), Catch::Contains("flat:"));
    CHECK_THAT(se.validate(Message{mine, Opcode::abort_global, 0, 1, 0}), Catch::Contains("flat:"));
    CHECK_THAT(se.validate(Message{mine, Opcode::lock_acquire_local, 64, 0, 0}),
               Catch::Contains("core ID 64 out of range") && Catch::Contains("64 cores"));
    CHECK_THAT(se.validate(Message{mine, Opcode::lock_grant_local, 3, 0, 0}),
               Catch::Contains("sent by an SE to a core"));
    SeResult r;
    se.handle(Message{other, Opcode::sem_post_local, 5, 0, 0}, r);
    CHECK_THAT(r.error, Catch::Contains("flat: requests go to the Master SE"));
    CHECK(r.out.empty());
    CHECK(se.table().occupancy() == 0);
    // A cond_wait whose lock is in no unit's memory is reported, as in hierarchical mode.
    r.clear();
    se.handle(Message{mine, Opcode::cond_wait_local, 3, 0, 9 * SeNetwork::kUnitBytes}, r);
    CHECK_THAT(r.error, Catch::Contains("cond_wait with an invalid lock"));
}

TEST_CASE("flat: the abort overflow policy is refused (hierarchical only)", "[se][flat][errors]") {
    SeTopology t = flat_topology();
    t.overflow = OverflowPolicy::abort;
    t.fallback_server = [](uint64_t) { return 0u; };
    CHECK_THROWS_WITH(SeCore(0, SeParams{}, t, nullptr), Catch::Contains("hierarchical organization only"));
}

TEST_CASE("flat: a server-style SeCore (every address at home, 4096 entries of 64-bit lists) has no quadratic cost",
          "[se][flat][scale]") {
    // The functional core of a software server or of the ideal scheme: one
    // flat SE that is the Master SE of every variable.
    SeTopology t = flat_topology();
    t.home_unit = [](uint64_t) { return 2u; };
    SeParams p = params_with(4096);
    MapMemory mem;
    SeCore se(2, p, t, &mem);
    CHECK(se.table().capacity() == 4096);
    const auto t0 = std::chrono::steady_clock::now();
    SeResult r;
    for (int round = 0; round < 4; ++round) {
        for (unsigned v = 0; v < 4096; ++v) { // 4096 locks held at once, one waiter each
            const uint64_t a = 0x100000 + 64ull * v + round * 0x1000000ull;
            r.clear();
            se.handle(Message{a, Opcode::lock_acquire_local, static_cast<uint16_t>(v % 64), 0, 0}, r);
            r.clear();
            se.handle(Message{a, Opcode::lock_acquire_local, static_cast<uint16_t>((v + 1) % 64), 0, 0}, r);
            REQUIRE(r.ok());
        }
        CHECK(se.table().full());
        for (unsigned v = 0; v < 4096; ++v) {
            const uint64_t a = 0x100000 + 64ull * v + round * 0x1000000ull;
            r.clear();
            se.handle(Message{a, Opcode::lock_release_local, static_cast<uint16_t>(v % 64), 0, 0}, r);
            REQUIRE(r.out.size() == 1);
            r.clear();
            se.handle(Message{a, Opcode::lock_release_local, static_cast<uint16_t>((v + 1) % 64), 0, 0}, r);
            REQUIRE(r.ok());
        }
        CHECK(se.table().occupancy() == 0);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(seconds < 5.0); // 65536 messages; a quadratic table would take minutes
    CHECK(mem.writes == 0);
    CHECK(se.counters().all_zero());
    CHECK(se.stats().errors == 0);
}

TEST_CASE("organizations: the enums select them, a single-path server rejects a holder's second acquire that a flat SE "
          "queues",
          "[se][flat][organization]") {
    SeTopology t = flat_topology();
    t.home_unit = [](uint64_t) { return 1u; }; // a server: every variable is its own
    MapMemory mem;
    SeCore flat_se(1, params_with(8), t, &mem);
    CHECK(flat_se.organization().kind() == SeOrganization::flat);
    CHECK(flat_se.organization().release_may_trail());
    CHECK(flat_se.overflow_policy().kind() == OverflowPolicy::integrated);
    SeCore server(1, params_with(8), t, &mem, std::make_unique<SinglePathOrganization>(t));
    CHECK(server.organization().kind() == SeOrganization::flat);
    CHECK_FALSE(server.organization().release_may_trail());
    CHECK(server.organization().own_cores() == 64);
    const CoreRef c = server.organization().core(37, 1);
    CHECK(c.unit == 2);
    CHECK(c.local == 5);

    const uint64_t L = SeNetwork::var(1, 0);
    const Message acquire{L, Opcode::lock_acquire_local, 37, 2, 0};
    for (SeCore* se : {&flat_se, &server}) {
        SeResult r;
        se->handle(acquire, r);
        REQUIRE(r.ok());
        REQUIRE(r.out.size() == 1);
        CHECK(r.out[0].msg.op == Opcode::lock_grant_local);
        r.clear();
        se->handle(acquire, r); // the holder again
        if (se == &flat_se) {
            CHECK(r.ok()); // queued behind a release that may still be on its way
            CHECK(r.out.empty());
        } else {
            CHECK_THAT(r.error, Catch::Contains("already holds or waits"));
        }
    }

    SeTopology h = SeNetwork::topology(4, 16);
    SeCore hier(0, params_with(8), h, &mem);
    CHECK(hier.organization().kind() == SeOrganization::hierarchical);
    CHECK(hier.organization().own_cores() == 16);
    CHECK(hier.organization().core(5, 0).unit == 0);
    CHECK_FALSE(hier.organization().release_may_trail());
    h.overflow = OverflowPolicy::abort;
    h.fallback_server = [](uint64_t) { return 0u; };
    SeCore misar(0, params_with(8), h, &mem);
    CHECK(misar.overflow_policy().kind() == OverflowPolicy::abort);
    CHECK(misar.overflow_policy().aborts());
}
