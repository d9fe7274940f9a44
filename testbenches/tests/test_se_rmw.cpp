// The SE's read-modify-write extension (paper §6), message by message: every
// operation executed by the word's Master SE, for its own cores and relayed
// for other units' cores, against a host reference of the same sequence; the
// flat organization; and the addresses an rmw may not name.
#include <catch2/catch.hpp>

#include <random>

#include "models/protocol/rmw.h"
#include "testbenches/tests/rmw_reference.h"
#include "testbenches/tests/se_test_network.h"

using namespace syncron;
using namespace syncron::test;

namespace {

/// Core (u,c) asks for `op` on `addr`; returns its reply (after the network ran dry).
std::vector<Message> rmw(SeNetwork& n, unsigned u, unsigned c, RmwOp op, uint64_t addr, uint64_t operand,
                         uint64_t expected, unsigned to_se) {
    Message m{addr, rmw_local_opcode(op), static_cast<uint16_t>(c), static_cast<uint16_t>(u), operand};
    m.expected = expected;
    n.inject(core_ep(u, c), se_ep(to_se), m);
    n.run();
    return n.take(u, c);
}

uint64_t word_at(SeNetwork& n, unsigned home, uint64_t addr) {
    const auto b = n.memories[home].image(addr, 8);
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= uint64_t(b[i]) << (8 * i);
    return v;
}

/// A seeded sequence of all five operations by the cores of every unit.
void run_sequence(SeNetwork& n, unsigned units, unsigned cores, bool flat, uint64_t addr, unsigned home) {
    std::mt19937_64 rng(7);
    uint64_t ref = 0;
    for (unsigned i = 0; i < 200; ++i) {
        const auto op = static_cast<RmwOp>(rng() % kRmwOpCount);
        const unsigned u = unsigned(rng() % units), c = unsigned(rng() % cores);
        // Small operands so that min, max and compare-and-swap hit both ways.
        const uint64_t operand = rng() % 64, expected = rng() % 2 ? ref : rng() % 64;
        const uint16_t id = static_cast<uint16_t>(flat ? u * cores + c : c);
        Message m{addr, rmw_local_opcode(op), id, static_cast<uint16_t>(u), operand};
        if (op == RmwOp::cas) m.expected = expected;
        n.inject(core_ep(u, c), se_ep(flat ? home : u), m);
        n.run();
        const auto got = n.take(u, c);
        INFO("step " << i << ": " << to_string(op) << " by core " << c << " of unit " << u);
        REQUIRE(got.size() == 1);
        CHECK(got[0].op == Opcode::rmw_reply_local);
        CHECK(got[0].info == ref); // the old value
        ref = host_apply(op, ref, operand, op == RmwOp::cas ? expected : 0);
    }
    CHECK(word_at(n, home, addr) == ref);
    CHECK(n.errors.empty());
    CHECK(n.tables_empty()); // an rmw never takes an ST entry
}

} // namespace

TEST_CASE("rmw: every operation, own and relayed cores, equals a host reference", "[se][rmw]") {
    SeNetwork n(4, 4, params_with(64));
    const uint64_t W = SeNetwork::var(2, 3);
    run_sequence(n, 4, 4, false, W, 2);
    // Only the Master SE executed them; the others relayed.
    CHECK(n.ses[2].stats().rmw_executed == 200);
    for (unsigned u : {0u, 1u, 3u}) CHECK(n.ses[u].stats().rmw_executed == 0);
    CHECK(n.count(Opcode::rmw_reply_global) > 0);
    CHECK(n.count(Opcode::rmw_fetch_add_global) + n.count(Opcode::rmw_swap_global) + n.count(Opcode::rmw_cas_global) +
              n.count(Opcode::rmw_min_global) + n.count(Opcode::rmw_max_global) ==
          n.count(Opcode::rmw_reply_global));
}

TEST_CASE("rmw: the flat organization sends it straight to the Master SE", "[se][rmw][flat]") {
    SeTopology t = SeNetwork::topology(4, 4);
    t.organization = SeOrganization::flat;
    SeNetwork n(t, std::vector<SeParams>(4, params_with(64)));
    const uint64_t W = SeNetwork::var(1, 0);
    run_sequence(n, 4, 4, true, W, 1);
    CHECK(n.count(Opcode::rmw_reply_global) == 0);
}

TEST_CASE("rmw: a failed compare-and-swap or a kept min writes nothing", "[se][rmw]") {
    SeNetwork n(2, 2, params_with(64));
    const uint64_t W = SeNetwork::var(0, 0);
    REQUIRE(rmw(n, 0, 0, RmwOp::swap, W, 10, 0, 0).at(0).info == 0);
    const unsigned writes = n.memories[0].writes;
    CHECK(rmw(n, 0, 1, RmwOp::cas, W, 99, 11, 0).at(0).info == 10); // 10 != 11: fails
    CHECK(rmw(n, 0, 1, RmwOp::min, W, 20, 0, 0).at(0).info == 10);  // min(10, 20) = 10
    CHECK(n.memories[0].writes == writes);
    CHECK(rmw(n, 0, 1, RmwOp::cas, W, 99, 10, 0).at(0).info == 10); // succeeds
    CHECK(word_at(n, 0, W) == 99);
}

TEST_CASE("rmw: unaligned or outside memory, the SE rejects it naming the address", "[se][rmw][errors]") {
    SeNetwork n(2, 2, params_with(64));
    CHECK(rmw(n, 0, 0, RmwOp::fetch_add, SeNetwork::var(1, 0) + 4, 1, 0, 0).empty());
    REQUIRE(n.errors.size() == 1);
    CHECK_THAT(n.errors[0], Catch::Contains("8-byte aligned") && Catch::Contains("0x"));
    CHECK(rmw(n, 0, 0, RmwOp::fetch_add, 5 * SeNetwork::kUnitBytes, 1, 0, 0).empty());
    REQUIRE(n.errors.size() == 2);
    CHECK_THAT(n.errors[1], Catch::Contains("not in the memory of any unit"));
    // An expected value on anything but compare-and-swap is malformed.
    Message m{SeNetwork::var(0, 0), Opcode::rmw_fetch_add_local, 0, 0, 1};
    m.expected = 3;
    n.inject(core_ep(0, 0), se_ep(0), m);
    n.run();
    REQUIRE(n.errors.size() == 3);
    CHECK_THAT(n.errors[2], Catch::Contains("only rmw_cas_* have one"));
}
