// Wire form (paper Figure 5), opcode helpers (Table 3) and the TLM extension.
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <random>
#include <set>
#include <string>

#include "models/protocol/opcode.h"
#include "models/protocol/tlm/syncron_extension.h"
#include "models/protocol/wire_format.h"

using namespace syncron;

namespace {

Opcode op_at(unsigned i) { return static_cast<Opcode>(i); }

// A random message that is valid on the wire for op's hop under layout.
Message random_message(Opcode op, const WireLayout& layout, std::mt19937_64& rng) {
    Message m;
    m.op = op;
    m.addr = rng();
    m.info = rng();
    const Level level = level_of(op);
    if (level == Level::local) {
        m.core = uint16_t(rng() % 64);
    } else if (level == Level::global) {
        m.se = uint16_t(rng() % 64);
    } else {
        m.core = uint16_t(rng() % (1u << layout.core_bits));
        m.se = uint16_t(rng() % (1u << layout.se_bits));
    }
    return m;
}

} // namespace

TEST_CASE("wire: sizes match Figure 5", "[protocol][wire]") {
    STATIC_REQUIRE(kWireBits == 64 + 6 + 6 + 64);
    STATIC_REQUIRE(kWireBytes == 18);
    STATIC_REQUIRE(std::tuple_size<decltype(pack(Message{}, WireLayout{}))>::value == kWireBytes);
}

TEST_CASE("wire: every opcode round-trips for its level", "[protocol][wire]") {
    std::mt19937_64 rng(0x5C'C0'20'21u);
    const std::array<WireLayout, 5> layouts = {WireLayout{4, 2}, WireLayout{3, 3}, WireLayout{6, 0}, WireLayout{0, 6},
                                               WireLayout{2, 1}};
    for (const WireLayout& layout : layouts) {
        for (unsigned i = 0; i < kOpcodeCount; ++i) {
            for (int rep = 0; rep < 20; ++rep) {
                const Message m = random_message(op_at(i), layout, rng);
                INFO(to_string(m) << " core_bits=" << layout.core_bits << " se_bits=" << layout.se_bits);
                REQUIRE(fits(m, layout));
                const auto bytes = pack(m, layout);
                CHECK((bytes[17] & 0xF0) == 0);
                CHECK(unpack(bytes, layout) == m);
            }
        }
    }
}

TEST_CASE("wire: all-ones fields round-trip", "[protocol][wire]") {
    const WireLayout layout{4, 2};
    for (unsigned i = 0; i < kOpcodeCount; ++i) {
        Message m;
        m.op = op_at(i);
        m.addr = ~uint64_t{0};
        m.info = ~uint64_t{0};
        switch (level_of(m.op)) {
        case Level::local: m.core = 63; break;
        case Level::global: m.se = 63; break;
        default:
            m.core = 15;
            m.se = 3;
            break;
        }
        INFO(to_string(m));
        const auto bytes = pack(m, layout);
        CHECK(core_id_of(m, layout) == 63);
        CHECK(bytes[17] == 0x0F); // info's top nibble, padding clear
        CHECK(unpack(bytes, layout) == m);
    }
}

TEST_CASE("wire: hand-computed bit-exact vector", "[protocol][wire]") {
    // lock_acquire_overflow (raw 2) from core 5 of SE 2, layout 4+2:
    //   CoreID = (2 << 4) | 5 = 37 = 0b100101
    //   byte 8 = opcode 0b000010 | (CoreID bits 0..1 = 0b01) << 6            = 0x42
    //   byte 9 = CoreID bits 2..5 (0b1001) | info bits 0..3 (0xA) << 4        = 0xA9
    //   bytes 10..17 = info >> 4, little-endian; byte 17 = info bits 60..63   = 0x0F
    Message m;
    m.addr = 0x0123456789ABCDEFull;
    m.op = Opcode::lock_acquire_overflow;
    m.core = 5;
    m.se = 2;
    m.info = 0xFEDCBA987654321Aull;
    const std::array<uint8_t, kWireBytes> expected = {
        0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01, // address
        0x42, 0xA9,                                     // opcode, CoreID, info low nibble
        0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB, 0xED, 0x0F, // rest of info, padding 0
    };
    REQUIRE(static_cast<unsigned>(m.op) == 2);
    CHECK(core_id_of(m, WireLayout{4, 2}) == 37);
    CHECK(pack(m, WireLayout{4, 2}) == expected);
    CHECK(unpack(expected, WireLayout{4, 2}) == m);

    // The same bytes under a 3+3 split: CoreID 37 = SE 4, core 5.
    const Message other = unpack(expected, WireLayout{3, 3});
    CHECK(other.se == 4);
    CHECK(other.core == 5);
}

TEST_CASE("wire: CoreID carries what the hop needs", "[protocol][wire]") {
    const WireLayout layout{4, 2};
    Message local;
    local.op = Opcode::sem_wait_local;
    local.core = 9;
    local.se = 3; // implied by the hop, not carried
    CHECK(core_id_of(local, layout) == 9);
    const Message l2 = unpack(pack(local, layout), layout);
    CHECK(l2.core == 9);
    CHECK(l2.se == 0);

    Message global;
    global.op = Opcode::cond_grant_global;
    global.core = 7; // not carried
    global.se = 3;
    CHECK(core_id_of(global, layout) == 3);
    const Message g2 = unpack(pack(global, layout), layout);
    CHECK(g2.se == 3);
    CHECK(g2.core == 0);

    Message dec;
    dec.op = Opcode::decrease_indexing_counter;
    dec.core = 1;
    dec.se = 3;
    CHECK(core_id_of(dec, layout) == ((3u << 4) | 1u));
    CHECK(unpack(pack(dec, layout), layout) == dec);
}

TEST_CASE("wire: unknown opcodes are rejected on unpack", "[protocol][wire]") {
    const WireLayout layout{4, 2};
    Message m;
    m.op = Opcode::lock_grant_local;
    const auto good = pack(m, layout);
    for (unsigned raw = kOpcodeCount; raw < 64; ++raw) {
        auto bytes = good;
        bytes[8] = uint8_t((bytes[8] & 0xC0) | raw);
        INFO("raw opcode " << raw);
        CHECK_THROWS_AS(unpack(bytes, layout), std::invalid_argument);
        CHECK_THROWS_WITH(unpack(bytes, layout), Catch::Contains("opcode"));
    }
    auto bytes = good;
    bytes[8] = uint8_t((bytes[8] & 0xC0) | 57);
    CHECK_THROWS_WITH(unpack(bytes, layout), Catch::Contains("unknown opcode 57"));

    // An out-of-range enum value cannot be packed either.
    m.op = static_cast<Opcode>(kOpcodeCount);
    CHECK_FALSE(fits(m, layout));
    CHECK_THROWS_WITH(pack(m, layout), Catch::Contains("opcode"));
}

TEST_CASE("wire: nonzero padding bits are rejected", "[protocol][wire]") {
    const WireLayout layout{4, 2};
    const auto good = pack(Message{}, layout);
    for (unsigned bit = 4; bit < 8; ++bit) {
        auto bytes = good;
        bytes[17] = uint8_t(bytes[17] | (1u << bit));
        CHECK_THROWS_WITH(unpack(bytes, layout), Catch::Contains("padding"));
    }
}

TEST_CASE("wire: IDs that do not fit are rejected on pack", "[protocol][wire]") {
    const WireLayout layout{4, 2};
    Message local;
    local.op = Opcode::lock_acquire_local;
    local.core = 63;
    CHECK(fits(local, layout));
    local.core = 64;
    CHECK_FALSE(fits(local, layout));
    CHECK_THROWS_AS(pack(local, layout), std::invalid_argument);
    CHECK_THROWS_WITH(pack(local, layout), Catch::Contains("core 64"));

    Message global;
    global.op = Opcode::lock_grant_global;
    global.se = 64;
    CHECK_FALSE(fits(global, layout));
    CHECK_THROWS_WITH(pack(global, layout), Catch::Contains("se 64"));

    Message over;
    over.op = Opcode::sem_post_overflow;
    over.core = 16; // needs 5 core bits
    CHECK_FALSE(fits(over, layout));
    CHECK_THROWS_WITH(pack(over, layout), Catch::Contains("core 16"));
    over.core = 15;
    over.se = 4; // needs 3 SE bits
    CHECK_FALSE(fits(over, layout));
    CHECK_THROWS_WITH(pack(over, layout), Catch::Contains("se 4"));
    over.se = 3;
    CHECK(fits(over, layout));

    // A layout wider than the CoreID has no wire form at all.
    const WireLayout wide{6, 4};
    Message tiny;
    CHECK_FALSE(fits(tiny, wide));
    CHECK_THROWS_WITH(pack(tiny, wide), Catch::Contains("layout"));
    CHECK_THROWS_WITH(unpack(pack(tiny, layout), wide), Catch::Contains("layout"));
}

TEST_CASE("wire: CoreID bits beyond the layout are rejected on unpack", "[protocol][wire]") {
    Message over;
    over.op = Opcode::cond_wait_overflow;
    over.core = 3;
    over.se = 7; // CoreID = 7 << 3 | 3 = 59 under 3+3
    const auto bytes = pack(over, WireLayout{3, 3});
    CHECK_THROWS_AS(unpack(bytes, WireLayout{2, 2}), std::invalid_argument);
}

TEST_CASE("wire: layout_for computes minimal widths", "[protocol][wire]") {
    CHECK(layout_for(4, 16) == WireLayout{4, 2});
    CHECK(layout_fits_wire(layout_for(4, 16)));
    CHECK(layout_for(1, 1) == WireLayout{0, 0});
    CHECK(layout_for(2, 2) == WireLayout{1, 1});
    CHECK(layout_for(3, 5) == WireLayout{3, 2});
    CHECK(layout_for(8, 8) == WireLayout{3, 3});
    CHECK(layout_fits_wire(layout_for(8, 8)));
    CHECK(layout_for(16, 64) == WireLayout{6, 4});
    CHECK_FALSE(layout_fits_wire(layout_for(16, 64)));
    CHECK_FALSE(layout_fits_wire(layout_for(8, 16)));
    CHECK_THROWS_AS(layout_for(0, 4), std::invalid_argument);
    CHECK_THROWS_AS(layout_for(4, 0), std::invalid_argument);
}

TEST_CASE("opcode: 43 distinct names (Table 3, the 3 aborts, the 2 condition-variable confirmations) that parse back",
          "[protocol][opcode]") {
    std::set<std::string> names;
    for (unsigned i = 0; i < kOpcodeCount; ++i) {
        const Opcode op = op_at(i);
        const std::string_view name = to_string(op);
        INFO("opcode " << i << " " << std::string(name));
        CHECK_FALSE(name.empty());
        names.insert(std::string(name));
        const auto back = opcode_from_string(name);
        REQUIRE(back.has_value());
        CHECK(*back == op);
        REQUIRE(opcode_from_raw(i).has_value());
        CHECK(*opcode_from_raw(i) == op);
    }
    CHECK(names.size() == kOpcodeCount);
    CHECK(kOpcodeCount == 55); // + the abort, cond_registered and rmw extensions
    CHECK(kPaperOpcodeCount == 38);
    CHECK(static_cast<unsigned>(Opcode::decrease_indexing_counter) == 37); // Table 3 keeps its raw values
    CHECK(to_string(Opcode::abort_local) == "abort_local");
    CHECK(static_cast<unsigned>(Opcode::abort_overflow) == 40); // model extensions append, never renumber
    CHECK_FALSE(opcode_from_string("lock_acquire").has_value());
    CHECK_FALSE(opcode_from_raw(kOpcodeCount).has_value());
}

TEST_CASE("opcode: primitive and level of representative opcodes", "[protocol][opcode]") {
    CHECK(primitive_of(Opcode::lock_acquire_global) == Primitive::lock);
    CHECK(primitive_of(Opcode::lock_grant_overflow) == Primitive::lock);
    CHECK(primitive_of(Opcode::barrier_wait_local_across_units) == Primitive::barrier);
    CHECK(primitive_of(Opcode::barrier_departure_overflow) == Primitive::barrier);
    CHECK(primitive_of(Opcode::sem_post_local) == Primitive::semaphore);
    CHECK(primitive_of(Opcode::cond_broad_global) == Primitive::condvar);
    CHECK(primitive_of(Opcode::cond_grant_overflow) == Primitive::condvar);
    CHECK(primitive_of(Opcode::decrease_indexing_counter) == Primitive::other);

    CHECK(level_table_matches_names()); // the hand-written table agrees with every name
    CHECK(level_of(Opcode::lock_acquire_local) == Level::local);
    CHECK(level_of(Opcode::lock_release_global) == Level::global);
    CHECK(level_of(Opcode::lock_grant_overflow) == Level::overflow);
    CHECK(level_of(Opcode::barrier_wait_local_within_unit) == Level::local);
    CHECK(level_of(Opcode::barrier_wait_local_across_units) == Level::local);
    CHECK(level_of(Opcode::barrier_depart_global) == Level::global);
    CHECK(level_of(Opcode::barrier_departure_overflow) == Level::overflow);
    CHECK(level_of(Opcode::sem_grant_local) == Level::local);
    CHECK(level_of(Opcode::cond_signal_overflow) == Level::overflow);
    CHECK(level_of(Opcode::decrease_indexing_counter) == Level::other);

    CHECK(level_of(Opcode::abort_local) == Level::local);
    CHECK(level_of(Opcode::abort_global) == Level::global);
    CHECK(level_of(Opcode::abort_overflow) == Level::overflow);
    CHECK(primitive_of(Opcode::abort_local) == Primitive::other);
    CHECK_FALSE(is_core_request(Opcode::abort_local));

    // Table 3: 13 local (barrier has two waits), 12 global, 12 overflow, 1
    // other; plus one abort of each level and the condition-variable
    // confirmations (global, overflow); the rmw extension adds 6 local (5
    // requests, 1 reply) and 6 whose CoreID is split as overflow's.
    unsigned local = 0, global = 0, over = 0;
    for (unsigned i = 0; i < kOpcodeCount; ++i) {
        const Level l = level_of(op_at(i));
        local += l == Level::local;
        global += l == Level::global;
        over += l == Level::overflow;
    }
    CHECK(local == 20);
    CHECK(global == 14);
    CHECK(over == 20);
    CHECK(primitive_of(Opcode::cond_registered_global) == Primitive::condvar);
    CHECK(level_of(Opcode::cond_registered_overflow) == Level::overflow);
    CHECK_FALSE(is_core_request(Opcode::cond_registered_global));
}

TEST_CASE("opcode: is_sync_request exactly for the acquire-type core requests", "[protocol][opcode]") {
    const std::set<Opcode> expected = {Opcode::lock_acquire_local, Opcode::barrier_wait_local_within_unit,
                                       Opcode::barrier_wait_local_across_units, Opcode::sem_wait_local,
                                       Opcode::cond_wait_local};
    for (unsigned i = 0; i < kOpcodeCount; ++i) {
        const Opcode op = op_at(i);
        INFO(std::string(to_string(op)));
        CHECK(is_sync_request(op) == (expected.count(op) == 1));
    }
}

TEST_CASE("extension: clone and copy_from preserve the message", "[protocol][extension]") {
    Message m;
    m.addr = 0xDEADBEEF00ull;
    m.op = Opcode::cond_wait_local;
    m.core = 11;
    m.se = 2;
    m.info = 0x1234;
    const SyncronExtension ext(m);

    // tlm_extension_base has a protected destructor: release through free().
    auto release = [](tlm::tlm_extension_base* e) { e->free(); };
    std::unique_ptr<tlm::tlm_extension_base, decltype(release)> copy(ext.clone(), release);
    auto* typed = dynamic_cast<SyncronExtension*>(copy.get());
    REQUIRE(typed != nullptr);
    CHECK(typed != &ext);
    CHECK(typed->msg == m);

    SyncronExtension target;
    CHECK(target.msg != m);
    target.copy_from(ext);
    CHECK(target.msg == m);

    // Modifying the clone leaves the original alone.
    typed->msg.core = 1;
    CHECK(ext.msg == m);
}

TEST_CASE("rmw messages: levels, the trailer flit of compare-and-swap", "[protocol][wire][rmw]") {
    CHECK(level_of(Opcode::rmw_fetch_add_local) == Level::local);
    CHECK(level_of(Opcode::rmw_cas_global) == Level::overflow); // SE and core in CoreID
    CHECK(level_of(Opcode::rmw_reply_global) == Level::overflow);
    CHECK(is_core_request(Opcode::rmw_max_local));
    CHECK_FALSE(is_core_request(Opcode::rmw_reply_local));
    CHECK_FALSE(is_acquire_type(Opcode::rmw_swap_local)); // no ST entry, no indexing counter
    CHECK(wire_bytes(Opcode::rmw_cas_local) == kWireBytes + 8);
    CHECK(wire_bytes(Opcode::rmw_fetch_add_global) == kWireBytes);

    const WireLayout layout = layout_for(4, 16);
    Message m{0x1234508, Opcode::rmw_cas_global, 13, 3, 0xfedcba9876543210ull};
    m.expected = 0x0123456789abcdefull;
    const auto head = pack(m, layout);
    const auto tail = pack_trailer(m);
    CHECK(tail[0] == 0xef);
    CHECK(tail[7] == 0x01);
    Message back = unpack(head, layout);
    CHECK(back.expected == 0); // the head alone does not carry it
    unpack_trailer(tail.data(), back);
    CHECK(back == m);

    Message bad{0x1000, Opcode::rmw_fetch_add_local, 1, 0, 5};
    bad.expected = 7; // only rmw_cas_* have a trailer
    CHECK_FALSE(fits(bad, layout));
    CHECK_THROWS_WITH(pack(bad, layout), Catch::Contains("only rmw_cas_*"));
}
