// The SynCron fabric as a third-party virtual platform uses it: harts issue
// only plain generic payloads (no extension, no initiator ID) through an
// address-decoding bus to the fabric's front ends and to a plain memory
// (frontend_bench.h). Register map: models/frontend/sw/syncron_mmio_regs.h.
// Each TEST_CASE elaborates its own bench; ctest runs each in its own process.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/common/hex.h"
#include "models/frontend/syncron_fabric.h"
#include "models/se/memory_response.h"
#include "models/se/se_module.h"
#include "testbenches/tests/frontend_bench.h"

using namespace syncron;
using namespace syncron::test;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

constexpr uint64_t kWindows = 0x40000000;
constexpr uint64_t kVars = 0x80000000;
constexpr uint64_t kUnitBytes = 1 << 20;
constexpr uint64_t kCounter = kVars + 2 * kUnitBytes; // plain data, outside the variables
constexpr uint64_t kMemBytes = 3 * kUnitBytes;

FabricParams params(unsigned units, unsigned harts, bool default_memory, Timing timing) {
    FabricParams p;
    p.units = units;
    p.harts_per_unit = harts;
    p.window_base = kWindows;
    p.vars.var_base = kVars;
    p.vars.unit_bytes = kUnitBytes;
    p.default_memory = default_memory;
    p.timing = timing;
    return p;
}

uint64_t var(unsigned unit, unsigned i) { return kVars + unit * kUnitBytes + 0x1000 + 64ull * i; }

/// What a third-party platform may do differently from ours
/// (docs/integration.md, "If your VP ...").
struct Quirks {
    bool zero_streaming = false; ///< harts leave the streaming width 0
    bool silent_memory = false;  ///< the memory never sets the response status
};

/// The platform: harts -> bus -> {front end of every unit, memory}; the
/// overflow sockets (unless default memory) -> the same memory. The bus
/// passes the front ends per-port offsets when FabricParams::port_offsets.
struct Bench {
    FabricParams p;
    PlainBus bus{"bus"};
    SyncronFabric<64> fabric;
    PlainMemory mem{"mem", kVars, kMemBytes, sc_time(20, SC_NS)};
    std::vector<std::unique_ptr<PlainHart>> harts;

    Bench(const FabricParams& fp, bool at, const std::function<void(PlainHart&, unsigned)>& script, Quirks q = {})
        : p(fp), fabric("fabric", fp) {
        for (unsigned u = 0; u < p.units; ++u) {
            bus.out.bind(fabric.frontend(u).socket);
            bus.map(fabric.unit_window_begin(u), fabric.unit_window_end(u), static_cast<int>(u), p.port_offsets);
            if (!p.default_memory) fabric.overflow(u).bind(mem.socket);
        }
        bus.out.bind(mem.socket);
        bus.map(kVars, kVars + kMemBytes, static_cast<int>(p.units));
        mem.sets_status = !q.silent_memory;
        for (unsigned g = 0; g < p.units * p.harts_per_unit; ++g) {
            harts.push_back(std::make_unique<PlainHart>(("hart" + std::to_string(g)).c_str(), at,
                                                        [script, g](PlainHart& h) { script(h, g); }));
            harts.back()->zero_streaming = q.zero_streaming;
            harts.back()->socket.bind(bus.in);
        }
    }
    uint64_t window(unsigned g) const { return kWindows + g * p.window_bytes; }
};

/// Table 2 over the register window, as software on a hart would call it.
struct Api {
    PlainHart& h;
    uint64_t w;
    uint32_t sync(unsigned op, uint64_t v, uint64_t info = 0) {
        h.store(w + SYNCRON_MMIO_VAR_LO, v, 8);
        h.store(w + SYNCRON_MMIO_INFO_LO, info, 8);
        return static_cast<uint32_t>(h.load(w + SYNCRON_MMIO_CMD(op)));
    }
    uint32_t async(unsigned op, uint64_t v) {
        h.store(w + SYNCRON_MMIO_VAR_LO, v, 8);
        h.store(w + SYNCRON_MMIO_CMD(op), 0);
        return static_cast<uint32_t>(h.load(w + SYNCRON_MMIO_STATUS));
    }
};

struct Shared {
    int in_cs = 0, max_in_cs = 0;
    int in_sem = 0, max_in_sem = 0;
    std::vector<unsigned> arrived;
    unsigned bad_phase = 0;
    unsigned bad_status = 0;
    bool flag_signal = false, flag_broadcast = false;
    unsigned woken = 0;
};

/// `custom` (optional) supplies the options; units, harts, timing and
/// memory are the test's.
void run_all_primitives(bool at, bool default_memory, unsigned st_entries, const FabricParams* custom = nullptr,
                        Quirks quirks = {}) {
    constexpr unsigned kUnits = 2, kHarts = 8, kTotal = kUnits * kHarts, kRounds = 6;
    Shared s;
    s.arrived.assign(kRounds, 0);
    const uint64_t lock = var(0, 0), sem = var(0, 1), barrier = var(1, 0), cond = var(1, 1), cond_lock = var(1, 2);
    const uint64_t within[kUnits] = {var(0, 2), var(1, 3)};
    FabricParams fp = custom ? *custom : params(kUnits, kHarts, default_memory, at ? Timing::at : Timing::lt);
    fp.units = kUnits;
    fp.harts_per_unit = kHarts;
    fp.default_memory = default_memory;
    fp.timing = at ? Timing::at : Timing::lt;
    fp.se.st_entries = st_entries;
    const auto ok = [&](uint32_t st) { s.bad_status += st != SYNCRON_ST_OK; };
    auto bench = std::make_unique<Bench>(
        fp, at,
        [&](PlainHart& h, unsigned g) {
            Api api{h, kWindows + g * fp.window_bytes};
            const unsigned u = g / kHarts;
            for (unsigned r = 0; r < kRounds; ++r) {
                // Lock: a read-modify-write of a counter in plain memory.
                ok(api.sync(SYNCRON_OP_LOCK_ACQUIRE, lock));
                s.max_in_cs = std::max(s.max_in_cs, ++s.in_cs);
                const uint64_t v = h.load(kCounter, 8);
                h.compute(sc_time(5 + g, SC_NS));
                h.store(kCounter, v + 1, 8);
                --s.in_cs;
                ok(api.async(SYNCRON_OP_LOCK_RELEASE, lock));
                // Semaphore of 3 resources.
                ok(api.sync(SYNCRON_OP_SEM_WAIT, sem, 3));
                s.max_in_sem = std::max(s.max_in_sem, ++s.in_sem);
                h.compute(sc_time(400, SC_NS));
                h.sync(); // hold the resource while the others run
                --s.in_sem;
                ok(api.async(SYNCRON_OP_SEM_POST, sem));
                // Barrier across units: nobody leaves phase r before all arrived.
                ++s.arrived[r];
                ok(api.sync(SYNCRON_OP_BARRIER_ACROSS_UNITS, barrier, kTotal));
                s.bad_phase += s.arrived[r] != kTotal;
                ok(api.sync(SYNCRON_OP_BARRIER_WITHIN_UNIT, within[u], kHarts));
            }
            // Condition variable, signal then broadcast (Mesa: re-check the flag).
            for (const bool broadcast : {false, true}) {
                bool& flag = broadcast ? s.flag_broadcast : s.flag_signal;
                ok(api.sync(SYNCRON_OP_LOCK_ACQUIRE, cond_lock));
                if (g == 0) {
                    flag = true;
                    ok(api.async(broadcast ? SYNCRON_OP_COND_BROADCAST : SYNCRON_OP_COND_SIGNAL, cond));
                } else {
                    while (!flag) {
                        ok(api.sync(SYNCRON_OP_COND_WAIT, cond, cond_lock));
                        ++s.woken;
                        ok(api.sync(SYNCRON_OP_LOCK_ACQUIRE, cond_lock));
                    }
                    if (!broadcast) ok(api.async(SYNCRON_OP_COND_SIGNAL, cond)); // pass the wake-up on
                }
                ok(api.async(SYNCRON_OP_LOCK_RELEASE, cond_lock));
                ok(api.sync(SYNCRON_OP_BARRIER_ACROSS_UNITS, barrier, kTotal));
            }
        },
        quirks);
    sc_core::sc_start();
    for (const auto& h : bench->harts) {
        REQUIRE(h->done);
        CHECK(h->time_went_back == 0); // no access ever moved a hart's local time back
    }
    CHECK(s.bad_status == 0);
    CHECK(s.max_in_cs == 1);
    CHECK(s.max_in_sem <= 3);
    CHECK(s.max_in_sem >= 2);
    CHECK(s.bad_phase == 0);
    CHECK(bench->mem.read(kCounter, 8) == uint64_t(kTotal) * kRounds);
    for (unsigned u = 0; u < kUnits; ++u) {
        const auto& st = bench->fabric.frontend(u).stats();
        CHECK(st.errors == 0);
        CHECK(st.grants > 0);
        CHECK(!bench->fabric.frontend(u).function().waiting(0));
    }
    if (st_entries == 0 && !default_memory) CHECK(bench->mem.accesses > uint64_t(kTotal) * kRounds * 2);
}

} // namespace

TEST_CASE("front end: every primitive from 16 harts in LT", "[frontend]") { run_all_primitives(false, true, 64); }

TEST_CASE("front end: every primitive from 16 harts in AT", "[frontend]") { run_all_primitives(true, true, 64); }

TEST_CASE("front end: every primitive through the overflow socket to plain memory in LT", "[frontend]") {
    run_all_primitives(false, false, 0); // every request takes the syncronVar path
}

TEST_CASE("front end: every primitive through the overflow socket to plain memory in AT", "[frontend]") {
    run_all_primitives(true, false, 0);
}

TEST_CASE("front end: a hart whose quantum exceeds the SE latency never sees its delay lowered", "[frontend]") {
    const FabricParams fp = params(1, 2, true, Timing::lt);
    const sc_time access(fp.access_ns, SC_NS);
    const sc_time ahead(5, sc_core::SC_US); // far beyond a grant's latency
    std::vector<sc_time> in, out;
    sc_time reg_in, reg_out, rel_in, rel_out;
    uint64_t status = 99;
    Bench b(fp, false, [&](PlainHart& h, unsigned g) {
        if (g != 0) return;
        const uint64_t w = kWindows;
        h.offset = ahead;
        reg_in = h.offset;
        h.store(w + SYNCRON_MMIO_VAR_LO, var(0, 0), 8);
        reg_out = h.offset;
        for (int i = 0; i < 3; ++i) {
            in.push_back(h.now());
            status = h.load(w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_ACQUIRE));
            out.push_back(h.now());
            rel_in = h.offset;
            h.store(w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_RELEASE), 0);
            rel_out = h.offset;
            h.offset += ahead;
        }
    });
    sc_core::sc_start();
    REQUIRE(b.harts[0]->done);
    CHECK(b.harts[0]->time_went_back == 0);
    CHECK(status == SYNCRON_ST_OK);
    CHECK(reg_out == reg_in + access); // a register access only adds its latency
    CHECK(rel_out == rel_in + access); // a req_async store never waits
    REQUIRE(in.size() == 3);
    for (size_t i = 0; i < in.size(); ++i) {
        // The request reached the SE at the hart's local time, 5 us ahead of
        // the kernel: the load completes a grant latency after that local
        // time (the hart's time never goes back), not relative to the
        // kernel's time at the call.
        CHECK(out[i] >= in[i] + access);
        CHECK(out[i] < in[i] + sc_time(100, SC_NS));
    }
}

TEST_CASE("front end: a blocked load completes at the grant after the release of the holder", "[frontend]") {
    const FabricParams fp = params(1, 2, true, Timing::lt);
    sc_time released, granted;
    Bench b(fp, false, [&](PlainHart& h, unsigned g) {
        Api api{h, kWindows + g * fp.window_bytes};
        if (g == 0) {
            api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 0));
            h.compute(sc_time(1, sc_core::SC_US));
            h.sync();
            released = h.now();
            api.async(SYNCRON_OP_LOCK_RELEASE, var(0, 0));
        } else {
            h.compute(sc_time(100, SC_NS));
            h.sync();
            api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 0));
            granted = h.now();
        }
    });
    sc_core::sc_start();
    REQUIRE(b.harts[1]->done);
    CHECK(granted > released); // the SE's latency lies between release and grant
    CHECK(granted < released + sc_time(200, SC_NS));
}

TEST_CASE("front end: debug transport reads registers without effect or time", "[frontend]") {
    const FabricParams fp = params(1, 2, true, Timing::lt);
    unsigned n_var = 0, n_slot = 0, n_write = 0, n_status = 0;
    uint64_t seen_var = 0, seen_status = 99, var_after = 0;
    sc_time before, after;
    bool second_got_lock = false;
    Bench b(fp, false, [&](PlainHart& h, unsigned g) {
        const uint64_t w = kWindows + g * fp.window_bytes;
        if (g == 1) {
            h.compute(sc_time(500, SC_NS));
            h.sync();
            Api api{h, w};
            second_got_lock = api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 0)) == SYNCRON_ST_OK;
            return;
        }
        h.store(w + SYNCRON_MMIO_VAR_LO, var(0, 0), 8);
        h.sync();
        const auto dbg = [&](tlm::tlm_command cmd, uint64_t addr, uint64_t& value, unsigned len) {
            tlm::tlm_generic_payload t;
            t.set_command(cmd);
            t.set_address(addr);
            t.set_data_ptr(reinterpret_cast<uint8_t*>(&value));
            t.set_data_length(len);
            t.set_streaming_width(len);
            return h.socket->transport_dbg(t);
        };
        before = sc_core::sc_time_stamp();
        uint64_t slot = 0, junk = 0x1234;
        n_var = dbg(tlm::TLM_READ_COMMAND, w + SYNCRON_MMIO_VAR_LO, seen_var, 8);
        n_slot = dbg(tlm::TLM_READ_COMMAND, w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_ACQUIRE), slot, 4);
        n_write = dbg(tlm::TLM_WRITE_COMMAND, w + SYNCRON_MMIO_VAR_LO, junk, 8);
        n_status = dbg(tlm::TLM_READ_COMMAND, w + SYNCRON_MMIO_STATUS, seen_status, 4);
        after = sc_core::sc_time_stamp();
        var_after = h.load(w + SYNCRON_MMIO_VAR_LO, 8);
    });
    sc_core::sc_start();
    CHECK(n_var == 8);
    CHECK(seen_var == var(0, 0));
    CHECK(n_slot == 4);  // served, reads 0 ...
    CHECK(n_write == 0); // debug writes are refused
    CHECK(n_status == 4);
    CHECK(seen_status == SYNCRON_ST_OK);
    CHECK(before == after);
    CHECK(var_after == var(0, 0));
    CHECK(b.fabric.frontend(0).stats().requests == 1); // ... and issued no request: hart 1's acquire only
    CHECK(second_got_lock);                            // the lock was free: the debug read took nothing
}

namespace {
struct BadCase {
    const char* what;
    uint64_t offset;
    bool read;
    unsigned len;
    uint64_t value;
    tlm::tlm_response_status response;
    uint32_t status;
};
struct DummyExtension : tlm::tlm_extension<DummyExtension> {
    tlm::tlm_extension_base* clone() const override { return new DummyExtension; }
    void copy_from(const tlm::tlm_extension_base&) override {}
};
} // namespace

TEST_CASE("front end: every bad access gets its error response and the simulation goes on", "[frontend]") {
    const FabricParams fp = params(2, 2, true, Timing::lt);
    const std::vector<BadCase> cases = {
        {"bad offset", 0x2C, true, 4, 0, tlm::TLM_ADDRESS_ERROR_RESPONSE, SYNCRON_ST_BAD_OFFSET},
        {"misaligned slot", SYNCRON_MMIO_CMD(1) + 4, true, 4, 0, tlm::TLM_ADDRESS_ERROR_RESPONSE,
         SYNCRON_ST_BAD_OFFSET},
        {"2-byte access", SYNCRON_MMIO_VAR_LO, false, 2, 0, tlm::TLM_BURST_ERROR_RESPONSE, SYNCRON_ST_BAD_SIZE},
        {"8-byte STATUS", SYNCRON_MMIO_STATUS, true, 8, 0, tlm::TLM_BURST_ERROR_RESPONSE, SYNCRON_ST_BAD_SIZE},
        {"unknown opcode (lock_acquire_global)", SYNCRON_MMIO_CMD(0), true, 4, 0, tlm::TLM_GENERIC_ERROR_RESPONSE,
         SYNCRON_ST_BAD_OPCODE},
        {"unknown opcode (grant)", SYNCRON_MMIO_CMD(7), true, 4, 0, tlm::TLM_GENERIC_ERROR_RESPONSE,
         SYNCRON_ST_BAD_OPCODE},
        {"release of a lock not held", SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_RELEASE), false, 4, 0,
         tlm::TLM_GENERIC_ERROR_RESPONSE, SYNCRON_ST_NOT_HELD},
        {"store to a req_sync slot", SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_ACQUIRE), false, 4, 0,
         tlm::TLM_COMMAND_ERROR_RESPONSE, SYNCRON_ST_BAD_COMMAND},
        {"load of a req_async slot", SYNCRON_MMIO_CMD(SYNCRON_OP_SEM_POST), true, 4, 0, tlm::TLM_COMMAND_ERROR_RESPONSE,
         SYNCRON_ST_BAD_COMMAND},
        {"write to STATUS", SYNCRON_MMIO_STATUS, false, 4, 0, tlm::TLM_COMMAND_ERROR_RESPONSE, SYNCRON_ST_BAD_COMMAND},
        {"barrier of 0 participants", SYNCRON_MMIO_CMD(SYNCRON_OP_BARRIER_WITHIN_UNIT), true, 4, 0,
         tlm::TLM_GENERIC_ERROR_RESPONSE, SYNCRON_ST_BAD_ARGUMENT},
    };
    std::vector<tlm::tlm_response_status> responses;
    std::vector<uint64_t> statuses;
    tlm::tlm_response_status outside = tlm::TLM_OK_RESPONSE, kind = tlm::TLM_OK_RESPONSE,
                             ext_load = tlm::TLM_OK_RESPONSE, byte_en = tlm::TLM_OK_RESPONSE;
    uint64_t outside_status = 0, kind_status = 0, ext_status = 0;
    uint32_t after = 99;
    Bench b(fp, false, [&](PlainHart& h, unsigned g) {
        if (g != 0) return;
        const uint64_t w = kWindows;
        Api api{h, w};
        h.store(w + SYNCRON_MMIO_VAR_LO, var(0, 0), 8);
        for (const auto& c : cases) {
            uint64_t v = c.value;
            responses.push_back(h.access(c.read, w + c.offset, v, c.len));
            statuses.push_back(h.load(w + SYNCRON_MMIO_STATUS));
        }
        // A variable outside the fabric's range.
        h.store(w + SYNCRON_MMIO_VAR_LO, kCounter, 8);
        uint64_t v = 0;
        outside = h.access(true, w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_ACQUIRE), v, 4);
        outside_status = h.load(w + SYNCRON_MMIO_STATUS);
        // A lock used as a semaphore.
        api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 1));
        api.async(SYNCRON_OP_LOCK_RELEASE, var(0, 1));
        api.sync(SYNCRON_OP_SEM_WAIT, var(0, 1), 1);
        kind = h.last;
        kind_status = h.load(w + SYNCRON_MMIO_STATUS);
        // An extended (atomic) load of a blocking slot never blocks.
        {
            uint8_t data[4] = {};
            DummyExtension ext;
            tlm::tlm_generic_payload t;
            t.set_command(tlm::TLM_READ_COMMAND);
            t.set_address(w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_ACQUIRE));
            t.set_data_ptr(data);
            t.set_data_length(4);
            t.set_streaming_width(4);
            t.set_extension(&ext);
            h.socket->b_transport(t, h.offset);
            t.clear_extension(&ext);
            ext_load = t.get_response_status();
            ext_status = h.load(w + SYNCRON_MMIO_STATUS);
        }
        {
            uint8_t data[4] = {};
            uint8_t be[4] = {0xff, 0, 0xff, 0};
            tlm::tlm_generic_payload t;
            t.set_command(tlm::TLM_WRITE_COMMAND);
            t.set_address(w + SYNCRON_MMIO_VAR_LO);
            t.set_data_ptr(data);
            t.set_data_length(4);
            t.set_streaming_width(4);
            t.set_byte_enable_ptr(be);
            t.set_byte_enable_length(4);
            h.socket->b_transport(t, h.offset);
            byte_en = t.get_response_status();
        }
        // The simulation goes on: a proper request still works.
        after = api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 0));
    });
    sc_core::sc_start();
    REQUIRE(b.harts[0]->done);
    REQUIRE(responses.size() == cases.size());
    for (size_t i = 0; i < cases.size(); ++i) {
        INFO(cases[i].what);
        CHECK(responses[i] == cases[i].response);
        CHECK(statuses[i] == cases[i].status);
    }
    CHECK(outside == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(outside_status == SYNCRON_ST_BAD_VARIABLE);
    CHECK(kind == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(kind_status == SYNCRON_ST_KIND_MISMATCH);
    CHECK(ext_load == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(ext_status == SYNCRON_ST_BAD_COMMAND);
    CHECK(byte_en == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    CHECK(after == SYNCRON_ST_OK);
    CHECK(b.fabric.se(0).stats().rejected == 0); // nothing bad ever reached the SE
}

TEST_CASE("front end: windows and variables that do not fit the bus width fail at elaboration", "[frontend]") {
    FabricParams fp = params(2, 4, true, Timing::lt);
    const auto msg = [](const std::function<void()>& f) {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    FabricParams bad = fp;
    bad.window_bytes = 0x600;
    CHECK_THAT(msg([&] { SyncronFabric<64> f("f1", bad); }), Catch::Contains("power of two"));
    bad = fp;
    bad.window_base = kWindows + 0x200;
    CHECK_THAT(msg([&] { SyncronFabric<64> f("f2", bad); }), Catch::Contains("aligned"));
    bad = fp;
    bad.window_base = 0xfffff000; // 8 windows of 1 KiB end beyond 4 GiB
    CHECK_THAT(msg([&] { SyncronFabric<32> f("f3", bad); }), Catch::Contains("32-bit bus"));
    bad = fp;
    bad.vars.var_base = 0xfff00000; // 2 units of 1 MiB
    CHECK_THAT(msg([&] { SyncronFabric<32> f("f4", bad); }), Catch::Contains("32-bit bus"));
    bad = fp;
    bad.window_base = kVars; // on top of the variables
    CHECK_THAT(msg([&] { SyncronFabric<64> f("f5", bad); }), Catch::Contains("overlap"));
    // The same windows are fine on a 64-bit bus, and a 32-bit bus takes a fitting map.
    bad = fp;
    bad.window_base = 0xfffff000;
    CHECK(msg([&] { SyncronFabric<64> f("f6", bad); }) == "no error");
    CHECK(msg([&] { SyncronFabric<32> f("f7", fp); }) == "no error");
}

TEST_CASE("front end: an unbound overflow socket is an error at elaboration", "[frontend]") {
    const FabricParams fp = params(1, 1, false, Timing::lt);
    SyncronFabric<32> fabric("fabric", fp);
    std::string error;
    try {
        sc_core::sc_start(sc_time(1, SC_NS));
    } catch (const sc_core::sc_report& r) {
        error = r.what();
    } catch (const std::exception& e) {
        error = e.what();
    }
    CHECK_THAT(error, Catch::Contains("overflow socket"));
    CHECK_THAT(error, Catch::Contains("not bound"));
}

namespace {
/// A hart on a 32-bit bus, bound straight to a front end: 4-byte accesses only.
class Hart32 : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<Hart32, 32> socket;
    SC_HAS_PROCESS(Hart32);
    Hart32(const sc_core::sc_module_name& n, std::function<void(Hart32&)> script)
        : sc_module(n), socket("socket"), m_script(std::move(script)) {
        SC_THREAD(run);
    }
    uint32_t access(bool read, uint64_t addr, uint32_t value, tlm::tlm_response_status* st = nullptr) {
        tlm::tlm_generic_payload t;
        t.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<uint8_t*>(&value));
        t.set_data_length(4);
        t.set_streaming_width(4);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        socket->b_transport(t, offset);
        if (st) *st = t.get_response_status();
        return value;
    }
    sc_time offset;

private:
    void run() { m_script(*this); }
    std::function<void(Hart32&)> m_script;
};
} // namespace

TEST_CASE("front end: a 32-bit bus drives the fabric with 4-byte accesses", "[frontend]") {
    FabricParams fp = params(1, 1, true, Timing::lt);
    fp.window_base = 0xf0000000;
    fp.vars.var_base = 0x10000000;
    SyncronFabric<32> fabric("fabric", fp);
    std::vector<uint32_t> seen;
    tlm::tlm_response_status st8 = tlm::TLM_OK_RESPONSE;
    Hart32 hart("hart", [&](Hart32& h) {
        const uint64_t w = fp.window_base;
        const uint64_t v = fp.vars.var_base + 0x40;
        h.access(false, w + SYNCRON_MMIO_VAR_LO, static_cast<uint32_t>(v));
        h.access(false, w + SYNCRON_MMIO_VAR_HI, 0);
        seen.push_back(h.access(true, w + SYNCRON_MMIO_VAR_LO, 0));
        seen.push_back(h.access(true, w + SYNCRON_MMIO_HART, 0));
        seen.push_back(h.access(true, w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_ACQUIRE), 99));
        h.access(false, w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_RELEASE), 0);
        seen.push_back(h.access(true, w + SYNCRON_MMIO_STATUS, 99));
        h.access(true, w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_RELEASE), 0, &st8); // a load of a store slot
        seen.push_back(h.access(true, w + SYNCRON_MMIO_STATUS, 99));
    });
    hart.socket.bind(fabric.frontend(0).socket);
    sc_core::sc_start();
    REQUIRE(seen.size() == 5);
    CHECK(seen[0] == fp.vars.var_base + 0x40);
    CHECK(seen[1] == 0);             // hart 0
    CHECK(seen[2] == SYNCRON_ST_OK); // granted
    CHECK(seen[3] == SYNCRON_ST_OK); // released
    CHECK(st8 == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(seen[4] == SYNCRON_ST_BAD_COMMAND);
    CHECK(fabric.frontend(0).stats().grants == 1);
}

// ---------------------------------------------------------------- third-party VPs (docs/integration.md, "If your VP ...")

TEST_CASE("front end: harts that never set the streaming width (0) are served in LT", "[frontend]") {
    Quirks q;
    q.zero_streaming = true;
    run_all_primitives(false, true, 64, nullptr, q);
}

TEST_CASE("front end: harts that never set the streaming width (0) are served in AT", "[frontend]") {
    Quirks q;
    q.zero_streaming = true;
    run_all_primitives(true, true, 64, nullptr, q);
}

TEST_CASE("front end: a streaming width set below the data length is still refused", "[frontend]") {
    const FabricParams fp = params(1, 1, true, Timing::lt);
    tlm::tlm_response_status narrow = tlm::TLM_OK_RESPONSE;
    uint64_t status = 0, hart = 99;
    Bench b(fp, false, [&](PlainHart& h, unsigned) {
        uint8_t data[4] = {};
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(kWindows + SYNCRON_MMIO_HART);
        t.set_data_ptr(data);
        t.set_data_length(4);
        t.set_streaming_width(2);
        h.socket->b_transport(t, h.offset);
        narrow = t.get_response_status();
        status = h.load(kWindows + SYNCRON_MMIO_STATUS);
        h.zero_streaming = true;
        hart = h.load(kWindows + SYNCRON_MMIO_HART);
    });
    sc_core::sc_start();
    CHECK(narrow == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(status == SYNCRON_ST_BAD_SIZE);
    CHECK(hart == 0);
    CHECK(b.harts[0]->last == tlm::TLM_OK_RESPONSE);
}

TEST_CASE("front end: a bus that passes per-port offsets reaches every unit with port_offsets in LT", "[frontend]") {
    FabricParams fp = params(2, 8, true, Timing::lt);
    fp.port_offsets = true;
    run_all_primitives(false, true, 64, &fp);
}

TEST_CASE("front end: a bus that passes per-port offsets reaches every unit with port_offsets in AT", "[frontend]") {
    FabricParams fp = params(2, 8, true, Timing::at);
    fp.port_offsets = true;
    run_all_primitives(true, true, 64, &fp);
}

namespace {
/// Four LT harts contending for one lock under a 200 ns quantum; per
/// blocking load, how much later the hart's time ends than the later of the
/// kernel's time at the return (about the grant) and its own local time +
/// access, and when the run ends.
struct DelayRun {
    unsigned lowered = 0, went_back = 0, calls = 0, bad_status = 0;
    sc_time extra_sum, extra_max, end;
    uint64_t counter = 0;
};
DelayRun run_delay_convention(bool monotonic) {
    constexpr unsigned kHarts = 4, kRounds = 25;
    FabricParams fp = params(1, kHarts, true, Timing::lt);
    fp.monotonic_delay = monotonic;
    const sc_time access(fp.access_ns, SC_NS);
    DelayRun r;
    Bench b(fp, false, [&](PlainHart& h, unsigned g) {
        Api api{h, kWindows + g * fp.window_bytes};
        h.store(api.w + SYNCRON_MMIO_VAR_LO, var(0, 0), 8);
        for (unsigned i = 0; i < kRounds; ++i) {
            h.compute(sc_time(37 + 11 * g, SC_NS));
            const sc_time local = h.now();
            r.bad_status += h.load(api.w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_ACQUIRE)) != SYNCRON_ST_OK;
            const sc_time exact = std::max(sc_core::sc_time_stamp(), local + access);
            const sc_time extra = h.now() - exact;
            ++r.calls;
            r.extra_sum += extra;
            r.extra_max = std::max(r.extra_max, extra);
            const uint64_t v = h.load(kCounter, 8);
            h.compute(sc_time(20, SC_NS));
            h.store(kCounter, v + 1, 8);
            h.store(api.w + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_RELEASE), 0);
        }
    });
    sc_core::sc_start();
    for (const auto& h : b.harts) {
        REQUIRE(h->done);
        r.lowered += h->delay_lowered;
        r.went_back += h->time_went_back;
    }
    r.end = sc_core::sc_time_stamp();
    r.counter = b.mem.read(kCounter, 8);
    CHECK(r.counter == uint64_t(kHarts) * kRounds);
    CHECK(r.bad_status == 0);
    CHECK(r.went_back == 0);
    WARN("monotonic_delay=" << monotonic << ": " << r.calls << " blocking loads, hart time later than the grant by "
                            << r.extra_sum / r.calls << " on average, " << r.extra_max << " at most; run ends at "
                            << r.end);
    return r;
}
} // namespace

TEST_CASE("front end: by default a blocking load may return a smaller delay but never an earlier time", "[frontend]") {
    const DelayRun r = run_delay_convention(false);
    CHECK(r.lowered > 0); // the grant came after the hart's local time: the delay went down
}

TEST_CASE("front end: with monotonic_delay a blocking load never returns a smaller delay", "[frontend]") {
    const DelayRun r = run_delay_convention(true);
    CHECK(r.lowered == 0);
    // The cost: the hart's offset at the call (below its 200 ns quantum) plus access_ns, per blocking load.
    CHECK(r.extra_max <= sc_time(201, SC_NS));
}

TEST_CASE("front end: memory_response_error accepts OK and names the cause and option of an incomplete response",
          "[frontend]") {
    tlm::tlm_generic_payload t;
    t.set_address(0x1234);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    CHECK_FALSE(memory_response_error(t, 0x80000040, false));
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    const auto strict = memory_response_error(t, 0x80000040, false);
    REQUIRE(strict);
    CHECK_THAT(*strict, Catch::Contains(std::to_string(0x80000040)));
    CHECK_THAT(*strict, Catch::Contains("TLM_INCOMPLETE_RESPONSE"));
    CHECK_THAT(*strict, Catch::Contains("never sets the response status"));
    CHECK_THAT(*strict, Catch::Contains("accept_incomplete_response"));
    CHECK_FALSE(memory_response_error(t, 0x80000040, true));
    t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    for (const bool accept : {false, true}) {
        const auto error = memory_response_error(t, 0x80000040, accept); // a real error stays one
        REQUIRE(error);
        CHECK_THAT(*error, Catch::Contains("TLM_ADDRESS_ERROR_RESPONSE"));
        CHECK_THAT(*error, !Catch::Contains("accept_incomplete_response"));
    }
}

namespace {
std::vector<std::string> g_errors; // SC_ERROR reports caught by keep_error
void keep_error(const sc_core::sc_report& r, const sc_core::sc_actions&) {
    if (r.get_severity() == sc_core::SC_ERROR) g_errors.push_back(r.get_msg());
}
} // namespace

TEST_CASE("front end: a memory that never sets the status stops the SE with an error naming the option", "[frontend]") {
    FabricParams fp = params(1, 1, false, Timing::lt);
    fp.se.st_entries = 0; // the first request takes the syncronVar path
    Quirks q;
    q.silent_memory = true;
    Bench b(
        fp, false,
        [&](PlainHart& h, unsigned) {
            Api api{h, kWindows};
            api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 0));
        },
        q);
    // Kept instead of thrown, so that the run ends normally.
    sc_core::sc_report_handler::set_handler(keep_error);
    sc_core::sc_start();
    REQUIRE_FALSE(g_errors.empty());
    CHECK_THAT(g_errors.front(), Catch::Contains("syncronVar access failed at address " + std::to_string(var(0, 0))));
    CHECK_THAT(g_errors.front(), Catch::Contains("never sets the response status"));
    CHECK_THAT(g_errors.front(), Catch::Contains("accept_incomplete_response"));
}

TEST_CASE("front end: accept_incomplete_response runs every primitive on a memory that never sets the status in LT",
          "[frontend]") {
    FabricParams fp = params(2, 8, false, Timing::lt);
    fp.se.accept_incomplete_response = true;
    Quirks q;
    q.silent_memory = true;
    run_all_primitives(false, false, 0, &fp, q);
}

TEST_CASE("front end: accept_incomplete_response runs every primitive on a memory that never sets the status in AT",
          "[frontend]") {
    FabricParams fp = params(2, 8, false, Timing::at);
    fp.se.accept_incomplete_response = true;
    Quirks q;
    q.silent_memory = true;
    run_all_primitives(true, false, 0, &fp, q);
}

namespace {
/// A hart that traps on every error response: with error_responses off,
/// every Table 2 call still returns its STATUS code.
void run_trapping_hart(bool at) {
    FabricParams fp = params(1, 2, true, at ? Timing::at : Timing::lt);
    fp.error_responses = false;
    std::vector<uint64_t> got;
    Bench b(fp, at, [&](PlainHart& h, unsigned g) {
        if (g != 0) return;
        h.trap_on_error = true;
        Api api{h, kWindows};
        got.push_back(api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 0)));             // OK
        got.push_back(api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 0)));             // ALREADY_HELD
        got.push_back(api.async(SYNCRON_OP_LOCK_RELEASE, var(0, 1)));            // NOT_HELD
        got.push_back(api.sync(SYNCRON_OP_BARRIER_WITHIN_UNIT, var(0, 2), 0));   // BAD_ARGUMENT
        got.push_back(h.load(kWindows + 0x2C));                                  // BAD_OFFSET
        got.push_back(h.load(kWindows + SYNCRON_MMIO_CMD(SYNCRON_OP_SEM_POST))); // BAD_COMMAND
        got.push_back(h.load(kWindows + SYNCRON_MMIO_CMD(0)));                   // BAD_OPCODE
        got.push_back(h.load(kWindows + SYNCRON_MMIO_STATUS));                   // STATUS agrees
        got.push_back(api.async(SYNCRON_OP_LOCK_RELEASE, var(0, 0)));            // OK
    });
    sc_core::sc_start();
    REQUIRE(b.harts[0]->done);
    const std::vector<uint64_t> want = {SYNCRON_ST_OK,           SYNCRON_ST_ALREADY_HELD, SYNCRON_ST_NOT_HELD,
                                        SYNCRON_ST_BAD_ARGUMENT, SYNCRON_ST_BAD_OFFSET,   SYNCRON_ST_BAD_COMMAND,
                                        SYNCRON_ST_BAD_OPCODE,   SYNCRON_ST_BAD_OPCODE,   SYNCRON_ST_OK};
    CHECK(got == want);
    CHECK(b.harts[0]->error_responses == 0); // never trapped
    CHECK(b.fabric.frontend(0).stats().errors == 6);
}
} // namespace

TEST_CASE("front end: with error_responses off a trapping hart gets every STATUS code in LT", "[frontend]") {
    run_trapping_hart(false);
}

TEST_CASE("front end: with error_responses off a trapping hart gets every STATUS code in AT", "[frontend]") {
    run_trapping_hart(true);
}

namespace {
/// Hart 0 takes a lock and never releases it; hart 1 waits for it forever.
void stuck_script(PlainHart& h, unsigned g) {
    Api api{h, kWindows + g * SYNCRON_MMIO_DEFAULT_WINDOW};
    if (g == 1) h.compute(sc_time(100, SC_NS));
    api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 0));
}
} // namespace

TEST_CASE("front end: a hart still waiting when the simulation runs out of events is reported", "[frontend]") {
    const FabricParams fp = params(1, 2, true, Timing::lt);
    Bench b(fp, false, stuck_script);
    sc_core::sc_start(); // ends: nothing left to happen
    CHECK(b.harts[0]->done);
    CHECK_FALSE(b.harts[1]->done);
    std::string error;
    try {
        b.fabric.report_waiting();
    } catch (const sc_core::sc_report& r) {
        error = r.what();
    }
    CHECK_THAT(error, Catch::Contains("1 hart(s) still wait"));
    CHECK_THAT(error, Catch::Contains("hart 1: lock_acquire_local on variable " + hex(var(0, 0)) + " since 102 ns"));
    CHECK_THAT(error, Catch::Contains("AMO or LR/SC"));
}

TEST_CASE("front end: a hart still waiting at sc_stop is reported at the end of simulation", "[frontend]") {
    const FabricParams fp = params(1, 2, true, Timing::at);
    Bench b(fp, true, stuck_script);
    sc_core::sc_spawn([] {
        sc_core::wait(sc_time(1, sc_core::SC_US));
        sc_core::sc_stop();
    });
    std::string error;
    try {
        sc_core::sc_start();
    } catch (const sc_core::sc_report& r) {
        error = r.what();
    }
    CHECK_THAT(error, Catch::Contains("hart 1: lock_acquire_local on variable " + hex(var(0, 0)) + " since 102 ns"));
}

TEST_CASE("front end: a run whose harts all completed reports nobody waiting", "[frontend]") {
    const FabricParams fp = params(1, 2, true, Timing::lt);
    Bench b(fp, false, [](PlainHart& h, unsigned g) {
        Api api{h, kWindows + g * SYNCRON_MMIO_DEFAULT_WINDOW};
        api.sync(SYNCRON_OP_LOCK_ACQUIRE, var(0, 0));
        api.async(SYNCRON_OP_LOCK_RELEASE, var(0, 0));
    });
    sc_core::sc_start();
    CHECK(b.fabric.report_waiting() == 0);
}

namespace {

/// The lock's holders by unit, in the order they held it, before and after
/// hart 0 writes SYNCRON_MMIO_FAIRNESS = 1 (threshold 0 until then).
struct FairnessRun {
    std::vector<unsigned> before, after;
    uint64_t across_before = 0, across_after = 0; // the SEs' cross-unit hand-offs at the switch and at the end
    uint64_t within_before = 0, within_after = 0;
    uint32_t read_back = 0;    ///< the register as hart 1 of unit 1 reads it after the write
    uint32_t initial = 99;     ///< the register before the write (se.lock_fairness_threshold, 0)
    uint32_t wide_status = 0;  ///< STATUS after an 8-byte read of the 32-bit register
    uint32_t debug_value = 99; ///< a debug read after the run
    int max_in_cs = 0;
    unsigned bad_status = 0;
    uint64_t counter = 0;
};

FairnessRun run_fairness_switch(bool at) {
    constexpr unsigned kUnits = 2, kHarts = 4, kTotal = kUnits * kHarts, kRounds = 12;
    FairnessRun out;
    const uint64_t lock = var(1, 0), barrier = var(0, 0);
    const FabricParams fp = params(kUnits, kHarts, true, at ? Timing::at : Timing::lt);
    int in_cs = 0;
    bool switched = false;
    std::unique_ptr<Bench> bench;
    const auto handoffs = [&](uint64_t& within, uint64_t& across) {
        within = across = 0;
        for (unsigned u = 0; u < kUnits; ++u)
            for (unsigned v = 0; v < kUnits; ++v) {
                within += bench->fabric.se(u).core().stats().lock_handoffs_within[v];
                across += bench->fabric.se(u).core().stats().lock_handoffs_across[v];
            }
    };
    const auto ok = [&](uint32_t st) { out.bad_status += st != SYNCRON_ST_OK; };
    bench = std::make_unique<Bench>(fp, at, [&](PlainHart& h, unsigned g) {
        Api api{h, kWindows + g * fp.window_bytes};
        if (g == 1) {
            out.initial = static_cast<uint32_t>(h.load(bench->window(g) + SYNCRON_MMIO_FAIRNESS));
            h.load(bench->window(g) + SYNCRON_MMIO_FAIRNESS, 8);
            out.wide_status = static_cast<uint32_t>(h.load(bench->window(g) + SYNCRON_MMIO_STATUS));
        }
        for (const bool second : {false, true}) {
            for (unsigned r = 0; r < kRounds; ++r) {
                ok(api.sync(SYNCRON_OP_LOCK_ACQUIRE, lock));
                out.max_in_cs = std::max(out.max_in_cs, ++in_cs);
                (second ? out.after : out.before).push_back(g / kHarts);
                const uint64_t v = h.load(kCounter, 8);
                h.compute(sc_time(20, SC_NS));
                h.store(kCounter, v + 1, 8);
                --in_cs;
                ok(api.async(SYNCRON_OP_LOCK_RELEASE, lock));
                h.compute(sc_time(5, SC_NS)); // ask again at once: every hart contends
            }
            if (second) break;
            ok(api.sync(SYNCRON_OP_BARRIER_ACROSS_UNITS, barrier, kTotal));
            if (g == 0) { // the host OS changes the threshold while the run goes on
                handoffs(out.within_before, out.across_before);
                h.store(kWindows + SYNCRON_MMIO_FAIRNESS, 1);
                ok(static_cast<uint32_t>(h.load(kWindows + SYNCRON_MMIO_STATUS)));
                switched = true;
            }
            ok(api.sync(SYNCRON_OP_BARRIER_ACROSS_UNITS, barrier, kTotal));
            if (g == kHarts + 1)
                out.read_back = static_cast<uint32_t>(h.load(bench->window(g) + SYNCRON_MMIO_FAIRNESS));
        }
    });
    sc_core::sc_start();
    for (const auto& h : bench->harts) REQUIRE(h->done);
    REQUIRE(switched);
    handoffs(out.within_after, out.across_after);
    uint8_t data[4] = {};
    REQUIRE(bench->fabric.frontend(0).function().debug_read(kWindows + SYNCRON_MMIO_FAIRNESS, data, 4) == 4);
    out.debug_value = data[0];
    out.counter = bench->mem.read(kCounter, 8);
    CHECK(bench->fabric.lock_fairness_threshold() == 1);
    return out;
}

/// Unit changes between consecutive holders.
unsigned unit_changes(const std::vector<unsigned>& holders) {
    unsigned n = 0;
    for (size_t i = 1; i < holders.size(); ++i) n += holders[i] != holders[i - 1];
    return n;
}

void check_fairness_switch(const FairnessRun& r) {
    CHECK(r.bad_status == 0);
    CHECK(r.max_in_cs == 1);               // mutual exclusion in both phases
    CHECK(r.counter == 2ull * 2 * 4 * 12); // two phases, 8 harts, 12 rounds
    CHECK(r.read_back == 1);
    CHECK(r.initial == 0);
    CHECK(r.wide_status == SYNCRON_ST_BAD_SIZE);
    CHECK(r.debug_value == 1);
    REQUIRE(r.before.size() == 96);
    REQUIRE(r.after.size() == 96);
    // Threshold 0: a unit keeps the lock while its harts ask (paper Figure 4);
    // threshold 1: the lock alternates between the units while both ask.
    const unsigned changes_before = unit_changes(r.before), changes_after = unit_changes(r.after);
    INFO("unit changes before " << changes_before << ", after " << changes_after);
    CHECK(changes_before <= 4);
    CHECK(changes_after >= 80);
    // The SEs counted the same: cross-unit hand-offs only after the write.
    const uint64_t across = r.across_after - r.across_before, within = r.within_after - r.within_before;
    INFO("SE hand-offs after the write: " << within << " within, " << across << " across");
    CHECK(r.across_before <= changes_before);
    CHECK(r.within_before >= 80);
    CHECK(across <= changes_after + 1); // +1: the switch itself may move the lock
    CHECK(across >= 80);
    CHECK(within <= 4);
}

} // namespace

TEST_CASE("front end: writing SYNCRON_MMIO_FAIRNESS changes the lock's hand-offs between units in LT",
          "[frontend][fairness]") {
    check_fairness_switch(run_fairness_switch(false));
}

TEST_CASE("front end: writing SYNCRON_MMIO_FAIRNESS changes the lock's hand-offs between units in AT",
          "[frontend][fairness]") {
    check_fairness_switch(run_fairness_switch(true));
}

namespace {

/// The host reference of one read-modify-write (plain C++).
uint64_t host_rmw(unsigned op, uint64_t old, uint64_t x, uint64_t e) {
    switch (op) {
    case SYNCRON_OP_RMW_FETCH_ADD: return old + x;
    case SYNCRON_OP_RMW_SWAP: return x;
    case SYNCRON_OP_RMW_CAS: return old == e ? x : old;
    case SYNCRON_OP_RMW_MIN: return x < old ? x : old;
    default: return x > old ? x : old; // max
    }
}

/// The SE's read-modify-write from the command slots (model extension): 8
/// harts of 2 units add to one word concurrently and increment another by a
/// compare-and-swap loop; hart 0 runs a sequence of every operation against
/// the host reference, reading the old value from the load and from RESULT;
/// an unaligned word is refused with SYNCRON_ST_BAD_ARGUMENT.
void run_rmw(bool at) {
    constexpr unsigned kUnits = 2, kHarts = 4, kTotal = kUnits * kHarts, kAdds = 4, kCas = 3;
    const uint64_t sum = var(1, 5), count = var(0, 6), seq = var(1, 7);
    FabricParams fp = params(kUnits, kHarts, false, at ? Timing::at : Timing::lt);
    unsigned bad = 0, bad_argument = 0;
    uint64_t ref = 0;
    auto bench = std::make_unique<Bench>(fp, at, [&](PlainHart& h, unsigned g) {
        const uint64_t w = kWindows + g * fp.window_bytes;
        const auto rmw = [&](unsigned op, uint64_t word, uint64_t x, uint64_t e = 0) {
            h.store(w + SYNCRON_MMIO_EXPECTED_LO, e, 8);
            h.store(w + SYNCRON_MMIO_VAR_LO, word, 8);
            h.store(w + SYNCRON_MMIO_INFO_LO, x, 8);
            const uint64_t old = h.load(w + SYNCRON_MMIO_CMD(op), 8);
            bad += h.load(w + SYNCRON_MMIO_STATUS) != SYNCRON_ST_OK;
            bad += h.load(w + SYNCRON_MMIO_RESULT_LO, 8) != old; // RESULT keeps the same value
            return old;
        };
        for (unsigned i = 0; i < kAdds; ++i) rmw(SYNCRON_OP_RMW_FETCH_ADD, sum, g + 1);
        for (unsigned i = 0; i < kCas; ++i) {
            uint64_t seen = rmw(SYNCRON_OP_RMW_FETCH_ADD, count, 0);
            for (uint64_t was; (was = rmw(SYNCRON_OP_RMW_CAS, count, seen + 1, seen)) != seen;) seen = was;
        }
        if (g != 0) return;
        for (unsigned i = 0; i < 20; ++i) {
            const unsigned op = SYNCRON_OP_RMW_FETCH_ADD + i % 5;
            const uint64_t x = (i * 37 + 11) % 50 + (uint64_t(i) << 40), e = i % 2 ? ref : 7;
            bad += rmw(op, seq, x, e) != ref;
            ref = host_rmw(op, ref, x, e);
        }
        h.store(w + SYNCRON_MMIO_VAR_LO, seq + 4, 8); // not an 8-byte word
        h.load(w + SYNCRON_MMIO_CMD(SYNCRON_OP_RMW_FETCH_ADD), 8);
        bad_argument = static_cast<unsigned>(h.load(w + SYNCRON_MMIO_STATUS));
    });
    sc_core::sc_start();
    for (const auto& h : bench->harts) REQUIRE(h->done);
    CHECK(bad == 0);
    CHECK(bench->mem.read(sum, 8) == uint64_t(kAdds) * kTotal * (kTotal + 1) / 2);
    CHECK(bench->mem.read(count, 8) == uint64_t(kCas) * kTotal);
    CHECK(bench->mem.read(seq, 8) == ref);
    CHECK(bad_argument == SYNCRON_ST_BAD_ARGUMENT);
}

} // namespace

TEST_CASE("front end: read-modify-write command slots from 8 harts in LT", "[frontend][rmw]") { run_rmw(false); }

TEST_CASE("front end: read-modify-write command slots from 8 harts in AT", "[frontend][rmw]") { run_rmw(true); }
