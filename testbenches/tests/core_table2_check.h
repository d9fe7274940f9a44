#pragma once
// The Table 2 program shared by the LT and AT core suites, and what the SE
// must receive from it.
#include <catch2/catch.hpp>

#include "models/core/core_api.h"
#include "models/protocol/opcode.h"

namespace syncron::test {

/// Barrier (both kinds), semaphore wait/post and condvar signal/broadcast.
inline void table2_program(CoreApi& c) {
    c.barrier_wait_within_unit(0x6000, 15);
    c.barrier_wait_across_units(0x6040, 60);
    c.sem_wait(0x6080, 3);
    c.sem_post(0x6080);
    c.cond_signal(0x60c0);
    c.cond_broadcast(0x60c0);
}

/// `received[i].msg` are the messages the fake SE got, in order.
template <class Received> void check_table2_requests(const Received& r) {
    REQUIRE(r.size() == 6);
    CHECK(r[0].msg.op == Opcode::barrier_wait_local_within_unit);
    CHECK(r[0].msg.info == 15);
    CHECK(r[1].msg.op == Opcode::barrier_wait_local_across_units);
    CHECK(r[1].msg.info == 60);
    CHECK(r[2].msg.op == Opcode::sem_wait_local);
    CHECK(r[2].msg.info == 3);
    CHECK(r[3].msg.op == Opcode::sem_post_local);
    CHECK(r[4].msg.op == Opcode::cond_signal_local);
    CHECK(r[5].msg.op == Opcode::cond_broad_local);
}

} // namespace syncron::test
