// Vault controller and backing store. Each SystemC TEST_CASE elaborates its
// own design and calls sc_start once (ctest runs every case in its own process).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/memory/backing_store.h"
#include "models/memory/vault_controller.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using syncron::test::ns;
using syncron::test::ScriptInitiator;
using sc_core::sc_time;

namespace {

/// Address of (unit, vault, bank, row-slot) under the default interleaving.
uint64_t addr_of(const AddressMap& map, const MemoryParams& p, unsigned unit, unsigned vault, unsigned bank,
                 uint64_t slot = 0) {
    return map.unit_base(unit) + ((slot * p.banks_per_vault + bank) * p.vaults_per_unit + vault) * p.interleave_bytes;
}

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + 7 * i);
    return v;
}

/// One vault of one unit driven by a script.
struct VaultBench {
    MemoryParams params;
    AddressMap map;
    BackingStore store;
    VaultController vault;
    ScriptInitiator init;

    VaultBench(unsigned unit, unsigned vault_index, ScriptInitiator::Script script)
        : map(4, 16, params), vault("vault", unit, vault_index, params, map, store), init("init", std::move(script)) {
        init.socket.bind(vault.socket);
    }
};

} // namespace

TEST_CASE("memory: backing store: untouched memory reads zero and allocates nothing", "[memory][store]") {
    BackingStore s;
    std::vector<uint8_t> buf(10000, 0xAA);
    s.read(123456789, buf.data(), buf.size());
    CHECK(std::all_of(buf.begin(), buf.end(), [](uint8_t b) { return b == 0; }));
    CHECK(s.bytes_allocated() == 0);
}

TEST_CASE("memory: backing store: writes and reads cross page boundaries", "[memory][store]") {
    BackingStore s;
    const uint64_t addr = 3 * BackingStore::kPageBytes - 5;          // 5 bytes before a boundary
    const auto data = pattern(2 * BackingStore::kPageBytes + 10, 3); // touches 4 pages
    s.write(addr, data.data(), data.size());
    CHECK(s.pages_allocated() == 4);
    CHECK(s.bytes_allocated() == 4 * BackingStore::kPageBytes);

    std::vector<uint8_t> back(data.size());
    s.read(addr, back.data(), back.size());
    CHECK(back == data);

    // Bytes around the written range in allocated pages are still zero.
    uint8_t around[2] = {0xFF, 0xFF};
    s.read(addr - 1, &around[0], 1);
    s.read(addr + data.size(), &around[1], 1);
    CHECK(around[0] == 0);
    CHECK(around[1] == 0);

    // A read straddling written and never-written pages.
    std::vector<uint8_t> tail(BackingStore::kPageBytes * 2, 0xEE);
    s.read(addr + data.size() - 4, tail.data(), tail.size());
    CHECK(std::equal(data.end() - 4, data.end(), tail.begin()));
    CHECK(std::all_of(tail.begin() + 4, tail.end(), [](uint8_t b) { return b == 0; }));
    CHECK(s.pages_allocated() == 4); // reads never allocate

    s.clear();
    CHECK(s.bytes_allocated() == 0);
}

TEST_CASE("memory: vault: stores and loads real values through b_transport and transport_dbg", "[memory][vault]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t a = addr_of(m, p, 1, 5, 3, 7);      // unit 1, vault 5
    const uint64_t a_next = addr_of(m, p, 1, 5, 4, 7); // next bank, same vault
    const auto line = pattern(64, 11);
    std::vector<uint8_t> via_b(64), via_dbg(64), dbg_written_back(16);
    const auto small = pattern(16, 99);
    uint64_t word = 0;
    tlm::tlm_response_status st_w{}, st_r{}, st_word{};
    unsigned n_dbg_r = 0, n_dbg_w = 0;

    VaultBench b(1, 5, [&](ScriptInitiator& i) {
        sc_time d;
        st_w = i.write(a, line, d);
        st_r = i.read(a, via_b, d);
        n_dbg_r = i.debug(tlm::TLM_READ_COMMAND, a, via_dbg.data(), 64);
        // Debug write, then a timed read of the same bytes.
        auto tmp = small;
        n_dbg_w = i.debug(tlm::TLM_WRITE_COMMAND, a_next, tmp.data(), 16);
        i.read(a_next, dbg_written_back, d);
        i.write64(a + 8, 0x0123456789abcdefull, d);
        word = i.read64(a + 8, d, &st_word);
    });
    REQUIRE(m.vault_of(a) == 5);
    REQUIRE(m.vault_of(a_next) == 5);
    REQUIRE(m.bank_of(a_next) != m.bank_of(a));
    sc_core::sc_start();

    REQUIRE(b.init.done());
    CHECK(st_w == tlm::TLM_OK_RESPONSE);
    CHECK(st_r == tlm::TLM_OK_RESPONSE);
    CHECK(via_b == line);
    CHECK(n_dbg_r == 64);
    CHECK(via_dbg == line);
    CHECK(n_dbg_w == 16);
    CHECK(dbg_written_back == small);
    CHECK(st_word == tlm::TLM_OK_RESPONSE);
    CHECK(word == 0x0123456789abcdefull);
    // The shared store holds system addresses.
    uint64_t direct = 0;
    b.store.read(a + 8, reinterpret_cast<uint8_t*>(&direct), 8);
    CHECK(direct == 0x0123456789abcdefull);
    CHECK(b.vault.writes() == 2);
    CHECK(b.vault.reads() == 3);
    CHECK(b.vault.bytes() == 64 + 64 + 16 + 8 + 8);
}

TEST_CASE("memory: vault: untouched memory reads zero", "[memory][vault]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    std::vector<uint8_t> buf(256, 0x5A), dbg(64, 0x5A);
    tlm::tlm_response_status st{};
    VaultBench b(0, 0, [&](ScriptInitiator& i) {
        sc_time d;
        st = i.read(0, buf, d);
        i.debug(tlm::TLM_READ_COMMAND, addr_of(m, p, 0, 0, 0, 1000), dbg.data(), 64);
    });
    sc_core::sc_start();
    CHECK(st == tlm::TLM_OK_RESPONSE);
    CHECK(std::all_of(buf.begin(), buf.end(), [](uint8_t x) { return x == 0; }));
    CHECK(std::all_of(dbg.begin(), dbg.end(), [](uint8_t x) { return x == 0; }));
    CHECK(b.store.bytes_allocated() == 0);
}

TEST_CASE("memory: vault: latency of one access is tRCD + tCL + bursts", "[memory][vault][timing]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    sc_time read64, read128, write64, read_later, now_after;
    std::vector<uint8_t> line(64), two(128);
    VaultBench b(0, 0, [&](ScriptInitiator& i) {
        sc_time d;
        i.read(addr_of(m, p, 0, 0, 0), line, d);
        read64 = d;
        d = sc_core::SC_ZERO_TIME;
        i.read(addr_of(m, p, 0, 0, 1), two, d);
        read128 = d;
        d = sc_core::SC_ZERO_TIME;
        i.write(addr_of(m, p, 0, 0, 2), line, d);
        write64 = d;
        // A request annotated 1 us ahead starts from its own effective time.
        d = ns(1000);
        i.read(addr_of(m, p, 0, 0, 3), line, d);
        read_later = d;
        now_after = sc_core::sc_time_stamp();
    });
    sc_core::sc_start();
    CHECK(read64 == ns(p.t_rcd_ns + p.t_cl_ns + p.t_burst_ns));
    CHECK(read64 == b.vault.access_latency(false, 64));
    CHECK(read128 == ns(p.t_rcd_ns + p.t_cl_ns + 2 * p.t_burst_ns));
    CHECK(write64 == ns(p.t_rcd_ns + p.t_burst_ns));
    CHECK(read_later == ns(1000) + read64);
    CHECK(now_after == sc_core::SC_ZERO_TIME); // the target never waits
    CHECK(b.vault.bank_conflicts() == 0);
    CHECK(b.vault.total_latency() == read64 + read128 + write64 + read64);
    CHECK(b.vault.average_latency() == b.vault.total_latency() / 4.0);
}

TEST_CASE("memory: vault: back-to-back accesses to one bank take longer than to two banks", "[memory][vault][timing]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t bank0_a = addr_of(m, p, 0, 0, 0, 0);
    const uint64_t bank0_b = addr_of(m, p, 0, 0, 0, 40); // same bank, another row
    const uint64_t bank1 = addr_of(m, p, 0, 0, 1, 0);
    const uint64_t bank2 = addr_of(m, p, 0, 0, 2, 0);
    const uint64_t bank3 = addr_of(m, p, 0, 0, 3, 0);
    const uint64_t bank3_row1 = addr_of(m, p, 0, 0, 3, 1);
    sc_time same_first, same_second, diff_first, diff_second, wr_then_rd;
    std::vector<uint8_t> line(64);
    VaultBench b(0, 0, [&](ScriptInitiator& i) {
        // Both requests issued at the same effective time (t = 0 + delay 0).
        sc_time d1, d2;
        i.read(bank0_a, line, d1);
        i.read(bank0_b, line, d2);
        same_first = d1;
        same_second = d2;
        sc_time d3, d4;
        i.read(bank1, line, d3);
        i.read(bank2, line, d4);
        diff_first = d3;
        diff_second = d4;
        // Write then read to one bank: write recovery + precharge first.
        sc_time d5, d6;
        i.write(bank3, line, d5);
        i.read(bank3_row1, line, d6);
        wr_then_rd = d6;
    });
    REQUIRE(m.bank_of(bank0_a) == m.bank_of(bank0_b));
    REQUIRE(m.row_of(bank0_a) != m.row_of(bank0_b));
    REQUIRE(m.bank_of(bank3) == m.bank_of(bank3_row1));
    sc_core::sc_start();

    const sc_time lat = ns(p.t_rcd_ns + p.t_cl_ns + p.t_burst_ns);
    CHECK(same_first == lat);
    CHECK(diff_first == lat);
    CHECK(diff_second == lat);
    CHECK(same_second > diff_second);
    CHECK(same_second == ns(p.t_ras_ns + p.t_rp_ns) + lat); // waits for tRAS + tRP
    CHECK(wr_then_rd == ns(p.t_rcd_ns + p.t_burst_ns + p.t_wr_ns + p.t_rp_ns) + lat);
    CHECK(b.vault.bank_conflicts(0) == 1);
    CHECK(b.vault.bank_conflicts(1) == 0);
    CHECK(b.vault.bank_conflicts(2) == 0);
    CHECK(b.vault.bank_conflicts(3) == 1);
    CHECK(b.vault.bank_conflicts() == 2);
}

TEST_CASE("memory: vault: a bank booked ahead by a decoupled initiator does not delay an earlier access",
          "[memory][vault][timing]") {
    // Under temporal decoupling a request simulated later may arrive earlier:
    // it uses the idle time before the future booking if it fits there.
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t row0 = addr_of(m, p, 0, 0, 5, 0), row1 = addr_of(m, p, 0, 0, 5, 1), row2 = addr_of(m, p, 0, 0, 5, 2);
    sc_time ahead, early, overlapping;
    std::vector<uint8_t> line(64);
    sc_time occ, lat, t_ahead;
    VaultBench b(0, 0, [&](ScriptInitiator& i) {
        occ = b.vault.bank_occupancy(false, 64);
        lat = b.vault.access_latency(false, 64);
        t_ahead = 4 * occ;
        sc_time d = t_ahead; // runs ahead and books [4 occ, 5 occ)
        i.read(row0, line, d);
        ahead = d;
        d = sc_core::SC_ZERO_TIME; // fits in the idle time before it
        i.read(row1, line, d);
        early = d;
        d = t_ahead - occ / 2; // would overlap: served after the future booking
        i.read(row2, line, d);
        overlapping = d;
    });
    REQUIRE(m.bank_of(row0) == m.bank_of(row1));
    REQUIRE(m.bank_of(row0) == m.bank_of(row2));
    sc_core::sc_start();
    CHECK(ahead == t_ahead + lat);
    CHECK(early == lat);
    CHECK(overlapping == t_ahead + occ + lat);
    CHECK(b.vault.bank_conflicts(m.bank_of(row0)) == 1);
    CHECK(b.vault.bank_busy_until(m.bank_of(row0)) == t_ahead + 2 * occ);
    CHECK(b.vault.bank_timeline(m.bank_of(row0)).busy_time() == 3 * occ);
}

TEST_CASE("memory: vault: transport_dbg does not advance time or change bank state", "[memory][vault][debug]") {
    std::vector<uint8_t> line = pattern(64, 1);
    sc_time before, after, timed;
    unsigned n = 0;
    VaultBench b(0, 0, [&](ScriptInitiator& i) {
        before = sc_core::sc_time_stamp();
        for (int k = 0; k < 50; ++k) {
            n += i.debug(tlm::TLM_WRITE_COMMAND, 0, line.data(), 64);
            n += i.debug(tlm::TLM_READ_COMMAND, 0, line.data(), 64);
        }
        after = sc_core::sc_time_stamp();
        sc_time d;
        i.read(0, line, d); // same bank: must not see a conflict
        timed = d;
    });
    sc_core::sc_start();
    const MemoryParams p;
    CHECK(n == 100 * 64);
    CHECK(before == after);
    CHECK(timed == ns(p.t_rcd_ns + p.t_cl_ns + p.t_burst_ns));
    CHECK(b.vault.bank_conflicts() == 0);
    CHECK(b.vault.reads() == 1);
    CHECK(b.vault.writes() == 0);
    CHECK(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
}

TEST_CASE("memory: vault: out-of-range or foreign address gives an error response", "[memory][vault][error]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    std::vector<uint8_t> line(64, 0x77);
    tlm::tlm_response_status other_unit{}, other_vault{}, past_end{}, crossing{}, io{}, dbg_st{}, be{}, ok{};
    unsigned dbg_n = 99;
    sc_time d_err;
    const auto warnings_before = sc_core::sc_report_handler::get_count(sc_core::SC_WARNING);
    VaultBench b(1, 0, [&](ScriptInitiator& i) {
        sc_time d;
        other_unit = i.write(addr_of(m, p, 0, 0, 0), line, d);  // unit 0 memory
        other_vault = i.write(addr_of(m, p, 1, 1, 0), line, d); // unit 1, vault 1
        past_end = i.write(addr_of(m, p, 2, 0, 1), line, d);    // unit 2
        // Starts in unit 1 vault 0, one interleave sweep before the end: runs off unit 1.
        const uint64_t sweep = uint64_t(p.vaults_per_unit) * p.interleave_bytes;
        crossing = i.write(m.unit_base(2) - sweep, std::vector<uint8_t>(sweep + p.interleave_bytes), d);
        io = i.write(AddressMap::kIoBase, line, d);
        d_err = d;
        dbg_n = i.debug(tlm::TLM_READ_COMMAND, 0, line.data(), 64, &dbg_st);
        const std::vector<uint8_t> enables(64, 0xFF);
        be = i.transport(tlm::TLM_WRITE_COMMAND, m.unit_base(1), line.data(), 64, d, enables.data());
        ok = i.write(m.unit_base(1), line, d);
    });
    sc_core::sc_start();
    CHECK(other_unit == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(other_vault == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(past_end == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(crossing == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(io == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(d_err == sc_core::SC_ZERO_TIME); // rejected requests cost no time
    CHECK(dbg_n == 0);
    CHECK(dbg_st == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(be == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    CHECK(ok == tlm::TLM_OK_RESPONSE);
    CHECK(b.vault.errors() == 6);
    CHECK(b.vault.writes() == 1);
    CHECK(b.store.bytes_allocated() == BackingStore::kPageBytes); // only the good write landed
    CHECK(sc_core::sc_report_handler::get_count(sc_core::SC_WARNING) - warnings_before == 5);
}

TEST_CASE("memory: vault: no DMI", "[memory][vault]") {
    bool granted = true;
    tlm::tlm_dmi dmi;
    VaultBench b(0, 0, [&](ScriptInitiator& i) {
        tlm::tlm_generic_payload t;
        t.set_address(0);
        t.set_command(tlm::TLM_READ_COMMAND);
        granted = i.socket->get_direct_mem_ptr(t, dmi);
    });
    sc_core::sc_start();
    CHECK_FALSE(granted);
    CHECK(dmi.is_none_allowed());
}
