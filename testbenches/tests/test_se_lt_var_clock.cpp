// LtVarClock: what an LT SE's later messages must not overtake per variable
// (docs/timing.md, "The SE in LT").
#include <catch2/catch.hpp>

#include "models/se/lt_var_clock.h"

using namespace syncron;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {
sc_time ns(double v) { return sc_time(v, SC_NS); }
Message msg(Opcode op, uint64_t addr, uint64_t info = 0) { return Message{addr, op, 0, 0, info}; }
Outgoing to_core(Opcode op, uint64_t addr) { return Outgoing{Outgoing::Dest::core, 1, msg(op, addr)}; }
} // namespace

TEST_CASE("LT var clock: a lock freed at t is granted no earlier than t", "[se][lt_var_clock]") {
    LtVarClock c;
    const uint64_t L = 0x10000;
    CHECK(c.ready(msg(Opcode::lock_acquire_local, L)) == sc_core::SC_ZERO_TIME);
    // A release served (in call order) ahead of an earlier-stamped acquire.
    CHECK(c.served(msg(Opcode::lock_release_local, L), {}, ns(600)) == ns(600));
    CHECK(c.ready(msg(Opcode::lock_acquire_local, L)) == ns(600));
    // Another variable is not held back.
    CHECK(c.ready(msg(Opcode::lock_acquire_local, L + 64)) == sc_core::SC_ZERO_TIME);
}

TEST_CASE("LT var clock: a request that only joins the waiters holds nothing back", "[se][lt_var_clock]") {
    LtVarClock c;
    const uint64_t L = 0x10000;
    c.served(msg(Opcode::lock_release_local, L), {}, ns(100));
    // A core far ahead queues behind the holder: no grant goes out.
    c.served(msg(Opcode::lock_acquire_local, L), {}, ns(900));
    CHECK(c.ready(msg(Opcode::lock_release_local, L)) == ns(100));
    // An acquire that is granted moves the clock.
    c.served(msg(Opcode::lock_acquire_local, L), {to_core(Opcode::lock_grant_local, L)}, ns(950));
    CHECK(c.ready(msg(Opcode::lock_release_local, L)) == ns(950));
}

TEST_CASE("LT var clock: a semaphore wait granted from the count takes the earliest post", "[se][lt_var_clock]") {
    LtVarClock c;
    const uint64_t S = 0x20000;
    // Two posts nobody took, served out of time order.
    c.served(msg(Opcode::sem_post_global, S), {}, ns(700));
    c.served(msg(Opcode::sem_post_global, S), {}, ns(300));
    CHECK(c.tokens(S) == 2);
    CHECK(c.ready(msg(Opcode::sem_wait_global, S)) == sc_core::SC_ZERO_TIME);
    const std::vector<Outgoing> grant{to_core(Opcode::sem_grant_global, S)};
    CHECK(c.served(msg(Opcode::sem_wait_global, S), grant, ns(100)) == ns(300));
    CHECK(c.served(msg(Opcode::sem_wait_global, S), grant, ns(800)) == ns(800));
    CHECK(c.tokens(S) == 0);
    // Granted from the initial count: no token, no bound.
    CHECK(c.served(msg(Opcode::sem_wait_global, S), grant, ns(10)) == ns(10));
    // A post handed straight to a waiter leaves no token.
    c.served(msg(Opcode::sem_post_local, S), grant, ns(20));
    CHECK(c.tokens(S) == 0);
}

TEST_CASE("LT var clock: a barrier opens no earlier than its last arrival, a condvar wait holds its lock",
          "[se][lt_var_clock]") {
    LtVarClock c;
    const uint64_t B = 0x30000, C = 0x40000, L = 0x50000;
    c.served(msg(Opcode::barrier_wait_local_within_unit, B, 4), {}, ns(900));
    c.served(msg(Opcode::barrier_wait_local_within_unit, B, 4), {}, ns(200));
    CHECK(c.ready(msg(Opcode::barrier_wait_local_within_unit, B, 4)) == ns(900));
    c.served(msg(Opcode::cond_wait_local, C, L), {}, ns(400));
    CHECK(c.ready(msg(Opcode::lock_acquire_local, L)) == ns(400));
    CHECK(c.ready(msg(Opcode::cond_signal_local, C)) == ns(400));
}

TEST_CASE("LT var clock: bounds in the past are dropped", "[se][lt_var_clock]") {
    LtVarClock c;
    for (uint64_t i = 0; i < 2000; ++i) c.served(msg(Opcode::lock_release_local, 0x10000 + 64 * i), {}, ns(double(i)));
    for (uint64_t i = 2000; i < 5000; ++i) c.served(msg(Opcode::lock_release_local, 0x10000 + 64 * i), {}, ns(5000));
    c.prune(ns(4000));
    CHECK(c.floors() == 3000); // only the bounds still ahead of now remain
    CHECK(c.ready(msg(Opcode::lock_acquire_local, 0x10000)) == sc_core::SC_ZERO_TIME);
    CHECK(c.ready(msg(Opcode::lock_acquire_local, 0x10000 + 64 * 2000)) == ns(5000));
}
