// The SE sc_module used ALONE, as a third-party virtual platform would use it:
// a testbench initiator writes plain generic payloads to `in`; testbench
// targets on `to_cores` and `to_ses` record every message the SE sends; a
// small memory with real bytes and a fixed latency sits on `to_mem`.
// Topology: 2 units x 16 cores (15 client cores each), real AddressMap.
//
// Expected times are derived from the timing rule of se_module.cpp
// (docs/se.md): a message costs
//   cycles_per_message (covers one ST access)
//   + st_cycles per further ST access + counter_cycles per counter access
// SPU cycles, plus the latency of its syncronVar memory accesses; its replies
// leave annotated with that service time, and the next message starts when
// the service ends.
//
// Each TEST_CASE elaborates its own bench; ctest runs each in its own process.
#include <catch2/catch.hpp>

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/protocol/tlm/syncron_extension.h"
#include "models/protocol/wire_format.h"
#include "models/se/core/syncron_var.h"
#include "models/se/se_module.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using namespace syncron::test;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

const WireLayout kLayout = layout_for(2, 16);
const sc_time kMemLatency = ns(30);

std::string name(Opcode op) { return std::string(to_string(op)); }

Message msg(Opcode op, uint64_t addr, unsigned core = 0, unsigned se = 0, uint64_t info = 0) {
    return Message{addr, op, static_cast<uint16_t>(core), static_cast<uint16_t>(se), info};
}

/// Variable i homed in `unit` (64 B aligned, above the reserved first 64 KiB).
uint64_t var(unsigned unit, unsigned i) { return uint64_t(unit) * MemoryParams{}.unit_bytes + 0x10000 + 64ull * i; }

/// Changes the bench's topology (organization, overflow policy) before the SE is built.
using TopologyTweak = std::function<void(SeTopology&)>;

SeTopology topology(const AddressMap& map, const TopologyTweak& tweak = {}) {
    SeTopology t;
    t.units = 2;
    t.cores_per_unit = 16;
    t.client_cores = {15, 15};
    t.home_unit = [&map](uint64_t a) { return map.home_unit(a); };
    if (tweak) tweak(t);
    return t;
}

/// One message the SE sent, as a third-party receiver sees it.
struct Received {
    sc_time time; ///< sc_time_stamp() + annotated delay
    uint64_t addr = 0;
    unsigned len = 0;
    bool has_ext = false;
    Message ext;
    bool wire_ok = false; ///< data bytes unpacked
    Message wire;
};

/// Records every WRITE it receives; never waits.
class ReplySink : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<ReplySink> socket;
    std::vector<Received> got;

    explicit ReplySink(const sc_core::sc_module_name& n) : sc_module(n), socket("socket") {
        socket.register_b_transport(this, &ReplySink::b_transport);
    }

    unsigned count(Opcode op) const {
        unsigned n = 0;
        for (const auto& r : got) n += r.wire_ok && r.wire.op == op;
        return n;
    }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_time& d) {
        Received r;
        r.time = sc_core::sc_time_stamp() + d;
        r.addr = t.get_address();
        r.len = t.get_data_length();
        if (auto* e = t.get_extension<SyncronExtension>()) r.has_ext = true, r.ext = e->msg;
        if (t.get_data_length() == kWireBytes && t.get_data_ptr()) {
            try {
                r.wire = unpack(t.get_data_ptr(), kLayout);
                r.wire_ok = true;
            } catch (const std::exception&) {
            }
        }
        got.push_back(r);
        t.set_response_status(t.is_write() ? tlm::TLM_OK_RESPONSE : tlm::TLM_COMMAND_ERROR_RESPONSE);
    }
};

/// Memory with real bytes and a fixed latency; logs every timed access.
class SmallMemory : public sc_core::sc_module {
public:
    struct Access {
        tlm::tlm_command cmd;
        uint64_t addr;
        unsigned len;
        sc_time arrival;
    };
    tlm_utils::simple_target_socket<SmallMemory> socket;
    std::vector<Access> log;
    std::map<uint64_t, uint8_t> bytes;

    SmallMemory(const sc_core::sc_module_name& n, sc_time latency)
        : sc_module(n), socket("socket"), m_latency(latency) {
        socket.register_b_transport(this, &SmallMemory::b_transport);
        socket.register_transport_dbg(this, &SmallMemory::transport_dbg);
    }

    std::vector<uint8_t> peek(uint64_t addr, unsigned len) const {
        std::vector<uint8_t> v(len, 0);
        for (unsigned i = 0; i < len; ++i) {
            auto it = bytes.find(addr + i);
            if (it != bytes.end()) v[i] = it->second;
        }
        return v;
    }

private:
    void access(tlm::tlm_generic_payload& t) {
        uint8_t* p = t.get_data_ptr();
        for (unsigned i = 0; i < t.get_data_length(); ++i) {
            if (t.is_read()) {
                auto it = bytes.find(t.get_address() + i);
                p[i] = it == bytes.end() ? 0 : it->second;
            } else {
                bytes[t.get_address() + i] = p[i];
            }
        }
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_time& d) {
        log.push_back({t.get_command(), t.get_address(), t.get_data_length(), sc_core::sc_time_stamp() + d});
        access(t);
        d += m_latency;
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) {
        access(t);
        return t.get_data_length();
    }

    sc_time m_latency;
};

/// The SE of `unit` with every socket bound to a testbench module.
struct Bench {
    AddressMap map{2, 16, MemoryParams{}};
    SeModule se;
    ScriptInitiator tb;
    ReplySink cores;
    ReplySink ses;
    SmallMemory mem;

    Bench(unsigned unit, const SeParams& p, ScriptInitiator::Script script, const TopologyTweak& tweak = {})
        : se("se", unit, p, topology(map, tweak), map), tb("tb", std::move(script)), cores("cores"), ses("ses"),
          mem("mem", kMemLatency) {
        tb.socket.bind(se.in);
        se.to_cores.bind(cores.socket);
        se.to_ses.bind(ses.socket);
        se.to_mem.bind(mem.socket);
    }
    uint64_t port() const { return map.se_address(se.unit()); }
    sc_time cycles(unsigned n) const { return se.cycle() * static_cast<double>(n); }
};

/// One transaction on `in` from a plain generic payload: data bytes as given
/// (empty = no data pointer), extension only if `ext` is set.
tlm::tlm_response_status send(ScriptInitiator& tb, uint64_t addr, tlm::tlm_command cmd, std::vector<uint8_t> data,
                              const Message* ext, sc_time& delay) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data.empty() ? nullptr : data.data());
    t.set_data_length(static_cast<unsigned>(data.size()));
    t.set_streaming_width(static_cast<unsigned>(data.size()));
    t.set_byte_enable_ptr(nullptr);
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    SyncronExtension e;
    if (ext) {
        e.msg = *ext;
        t.set_extension(&e);
    }
    tb.socket->b_transport(t, delay);
    if (ext) t.clear_extension(&e);
    return t.get_response_status();
}

std::vector<uint8_t> wire(const Message& m) {
    const auto b = pack(m, kLayout);
    return {b.begin(), b.end()};
}

/// The message as 18 wire bytes, no extension, sent now.
tlm::tlm_response_status send_wire(ScriptInitiator& tb, uint64_t port, const Message& m) {
    sc_time d = SC_ZERO_TIME;
    return send(tb, port, tlm::TLM_WRITE_COMMAND, wire(m), nullptr, d);
}

// Reports captured by a custom handler (errors must not throw in these tests).
struct Captured {
    sc_core::sc_severity severity;
    std::string type;
    std::string text;
    sc_time when;
};
std::vector<Captured> g_reports;

void capture_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
    g_reports.push_back({rep.get_severity(), rep.get_msg_type(), rep.get_msg(), sc_core::sc_time_stamp()});
    sc_core::sc_report_handler::default_handler(rep, actions);
}

void errors_do_not_throw() {
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_LOG | sc_core::SC_CACHE_REPORT);
    sc_core::sc_report_handler::set_handler(capture_handler);
    g_reports.clear();
}

std::vector<Captured> se_errors() {
    std::vector<Captured> v;
    for (const auto& r : g_reports)
        if (r.severity == sc_core::SC_ERROR && r.type == "/syncron/se") v.push_back(r);
    return v;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

} // namespace

// ---------------------------------------------------------------- wire form

TEST_CASE("SE alone: a lock acquire as 18 plain wire bytes is granted after the SPU service time",
          "[se][se_module][timing]") {
    const SeParams p;             // defaults: 1 GHz, 12 cycles/message, ST 1, counter 2
    const uint64_t L = var(0, 0); // homed in unit 0: SE 0 is its Master SE
    const unsigned core = 5;
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    sc_time delay_after, time_after;

    Bench b(0, p, [&](ScriptInitiator& tb) {
        sc_core::wait(ns(100));
        sc_time d = ns(5); // the initiator's local time offset (temporal decoupling)
        status = send(tb, b.port(), tlm::TLM_WRITE_COMMAND, wire(msg(Opcode::lock_acquire_local, L, core)), nullptr, d);
        delay_after = d;
        time_after = sc_core::sc_time_stamp();
    });
    sc_core::sc_start();

    CHECK(status == tlm::TLM_OK_RESPONSE);
    CHECK(delay_after == ns(5));  // the SE adds nothing to the annotation
    CHECK(time_after == ns(100)); // and never waits in b_transport

    // First request for L: ST lookup (in the 12 cycles) + reserve an entry
    // (1 more ST access) + one indexing-counter check on the miss.
    const unsigned cycles = p.cycles_per_message + p.st_cycles * 1 + p.counter_cycles * 1;
    REQUIRE(cycles == 15);
    const sc_time arrival = ns(105);

    REQUIRE(b.cores.got.size() == 1);
    const Received& r = b.cores.got[0];
    CHECK(r.time == arrival + b.cycles(cycles));
    CHECK(r.time == ns(120));
    CHECK(r.addr == b.map.mailbox_address(0, core));
    CHECK(r.len == kWireBytes);
    REQUIRE(r.wire_ok);
    CHECK(name(r.wire.op) == "lock_grant_local");
    CHECK(r.wire.addr == L);
    CHECK(r.wire.core == core);
    REQUIRE(r.has_ext); // the SE also attaches the extension
    CHECK(r.ext.op == Opcode::lock_grant_local);
    CHECK(r.ext.core == core);

    CHECK(b.ses.got.empty());
    CHECK(b.mem.log.empty());
    CHECK(b.se.stats().processed == 1);
    CHECK(b.se.stats().rejected == 0);
    CHECK(b.se.stats().spu_busy == ns(15));
    CHECK(b.se.st_max() == 1);
    CHECK(b.se.core().table().occupancy() == 1); // the lock is held
}

TEST_CASE("SE alone: the same acquire carried by a SyncronExtension is granted the same way",
          "[se][se_module][timing]") {
    const SeParams p;
    const uint64_t L0 = var(0, 0), L1 = var(0, 1);
    tlm::tlm_response_status s_zero = tlm::TLM_INCOMPLETE_RESPONSE, s_nodata = tlm::TLM_INCOMPLETE_RESPONSE;

    Bench b(0, p, [&](ScriptInitiator& tb) {
        sc_core::wait(ns(100));
        // Extension + 18 zero bytes: the bytes alone would decode as
        // lock_acquire_global of address 0 from SE 0 to itself (an error),
        // so a grant proves the extension is authoritative.
        const Message m0 = msg(Opcode::lock_acquire_local, L0, 3);
        sc_time d = SC_ZERO_TIME;
        s_zero = send(tb, b.port(), tlm::TLM_WRITE_COMMAND, std::vector<uint8_t>(kWireBytes, 0), &m0, d);
        sc_core::wait(ns(100));
        // Extension and no data at all.
        const Message m1 = msg(Opcode::lock_acquire_local, L1, 9);
        d = SC_ZERO_TIME;
        s_nodata = send(tb, b.port(), tlm::TLM_WRITE_COMMAND, {}, &m1, d);
    });
    sc_core::sc_start();

    CHECK(s_zero == tlm::TLM_OK_RESPONSE);
    CHECK(s_nodata == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.cores.got.size() == 2);
    const Received& a = b.cores.got[0];
    const Received& c = b.cores.got[1];
    CHECK(a.time == ns(100) + b.cycles(15));
    CHECK(a.addr == b.map.mailbox_address(0, 3));
    REQUIRE(a.wire_ok);
    CHECK(name(a.wire.op) == "lock_grant_local");
    CHECK(a.wire.addr == L0);
    CHECK(c.time == ns(200) + b.cycles(15));
    CHECK(c.addr == b.map.mailbox_address(0, 9));
    REQUIRE(c.wire_ok);
    CHECK(name(c.wire.op) == "lock_grant_local");
    CHECK(c.wire.addr == L1);
    CHECK(c.wire.core == 9);
    CHECK(b.se.stats().rejected == 0);
    CHECK(b.ses.got.empty());
}

// ---------------------------------------------------------------- Figure 4 at one SE

TEST_CASE("SE alone: Figure 4 at a non-Master SE aggregates two local acquires into one global request",
          "[se][se_module][lock][figure4]") {
    const SeParams p;
    const uint64_t L = var(1, 0); // homed in unit 1: SE 0 is not its Master SE
    unsigned globals_after_acquires = 99;

    Bench b(0, p, [&](ScriptInitiator& tb) {
        sc_core::wait(ns(10));
        send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, L, 3));
        send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, L, 7));
        sc_core::wait(ns(90)); // t = 100: both served
        globals_after_acquires = b.ses.count(Opcode::lock_acquire_global);
        // The Master SE (unit 1) grants the lock to SE 0 as a whole.
        send_wire(tb, b.port(), msg(Opcode::lock_grant_global, L, 0, /*se=*/0));
        sc_core::wait(ns(100)); // t = 200
        send_wire(tb, b.port(), msg(Opcode::lock_release_local, L, 3));
        sc_core::wait(ns(100)); // t = 300
        send_wire(tb, b.port(), msg(Opcode::lock_release_local, L, 7));
    });
    sc_core::sc_start();

    CHECK(globals_after_acquires == 1);

    REQUIRE(b.ses.got.size() == 2);
    const Received& acq = b.ses.got[0];
    const Received& rel = b.ses.got[1];
    CHECK(acq.addr == b.map.se_address(1));
    REQUIRE(acq.wire_ok);
    CHECK(name(acq.wire.op) == "lock_acquire_global");
    CHECK(acq.wire.addr == L);
    CHECK(acq.wire.se == 0);                  // a global request carries the sender's SE ID
    CHECK(acq.time == ns(10) + b.cycles(15)); // first request: entry reserved, counter checked
    CHECK(rel.addr == b.map.se_address(1));
    REQUIRE(rel.wire_ok);
    CHECK(name(rel.wire.op) == "lock_release_global");
    CHECK(rel.wire.se == 0);
    CHECK(rel.time == ns(300) + b.cycles(13)); // lookup + freeing the entry

    REQUIRE(b.cores.got.size() == 2);
    CHECK(b.cores.got[0].addr == b.map.mailbox_address(0, 3)); // first requester first
    CHECK(name(b.cores.got[0].wire.op) == "lock_grant_local");
    CHECK(b.cores.got[0].time == ns(100) + b.cycles(12));
    CHECK(b.cores.got[1].addr == b.map.mailbox_address(0, 7)); // handed over inside the unit
    CHECK(name(b.cores.got[1].wire.op) == "lock_grant_local");
    CHECK(b.cores.got[1].time == ns(200) + b.cycles(12));

    CHECK(b.ses.count(Opcode::lock_acquire_global) == 1);
    CHECK(b.ses.count(Opcode::lock_release_global) == 1);
    CHECK(b.se.core().table().occupancy() == 0);
    CHECK(b.se.stats().processed == 5);
    CHECK(b.se.stats().rejected == 0);
    CHECK(b.mem.log.empty());
}

// ---------------------------------------------------------------- SPU serialization

TEST_CASE("SE alone: messages arriving together are served one service time apart", "[se][se_module][timing]") {
    const SeParams p;
    constexpr unsigned N = 4;
    Bench b(0, p, [&](ScriptInitiator& tb) {
        sc_core::wait(ns(50));
        for (unsigned c = 0; c < N; ++c) send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, var(0, c), c));
    });
    sc_core::sc_start();

    const sc_time service = b.cycles(p.cycles_per_message + p.st_cycles + p.counter_cycles); // 15 ns
    REQUIRE(b.cores.got.size() == N);
    for (unsigned c = 0; c < N; ++c) {
        INFO("core " << c);
        CHECK(b.cores.got[c].addr == b.map.mailbox_address(0, c)); // arrival order kept
        CHECK(b.cores.got[c].time == ns(50) + service * double(c + 1));
        if (c > 0) CHECK(b.cores.got[c].time - b.cores.got[c - 1].time == service);
    }
    CHECK(b.se.stats().spu_busy == service * double(N));
    CHECK(b.se.stats().buffer_max == N);
    CHECK(b.se.stats().buffer_full_events == 0); // 4 <= 16
}

TEST_CASE("SE alone: with free ST and counter accesses the spacing is exactly cycles_per_message",
          "[se][se_module][timing]") {
    SeParams p;
    p.st_cycles = 0;
    p.counter_cycles = 0;
    p.buffer_messages = 2; // over-full: the senders are held back (LT as AT), the services keep their times
    constexpr unsigned N = 6;
    std::vector<sc_time> returned(N);
    Bench b(0, p, [&](ScriptInitiator& tb) {
        sc_core::wait(ns(10));
        for (unsigned c = 0; c < N; ++c) {
            sc_time d = SC_ZERO_TIME;
            send(tb, b.port(), tlm::TLM_WRITE_COMMAND, wire(msg(Opcode::lock_acquire_local, var(0, c), c)), nullptr, d);
            returned[c] = d;
        }
    });
    sc_core::sc_start();

    REQUIRE(b.cores.got.size() == N);
    for (unsigned c = 0; c < N; ++c) {
        INFO("core " << c);
        CHECK(b.cores.got[c].time == ns(10) + ns(12) * double(c + 1));
        // Message c finds c waiting (services starting at 10, 22, 34, ...;
        // the one starting on its arrival counts): the input takes it when
        // the one two places ahead starts, at 10 + 12 (c - 2) ns, and the
        // transfer's delay says how long it was held.
        CHECK(returned[c] == (c < 2 ? SC_ZERO_TIME : ns(12) * double(c - 2)));
    }
    CHECK(b.se.stats().buffer_max == 2); // the buffer never holds more: the rest wait in front of it
    // Arrivals that found 2 or more waiting: messages 2 to 5.
    CHECK(b.se.stats().buffer_full_events == N - 2);
}

// ---------------------------------------------------------------- overflow

TEST_CASE("SE alone: with no ST entries the Master SE serves a lock from syncronVar in memory",
          "[se][se_module][overflow]") {
    SeParams p;
    p.st_entries = 0;
    const uint64_t L = var(0, 0);
    const SyncronVarLayout layout(2, 16);
    std::vector<uint8_t> image_mid;
    uint32_t counter_mid = 99;

    Bench b(0, p, [&](ScriptInitiator& tb) {
        sc_core::wait(ns(100));
        send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, L, 2));
        sc_core::wait(ns(50)); // t = 150, SPU still busy with the first one
        send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, L, 5));
        sc_core::wait(ns(110)); // t = 260
        image_mid = b.mem.peek(L, layout.bytes());
        counter_mid = b.se.core().counters().value(L);
        sc_core::wait(ns(40)); // t = 300
        send_wire(tb, b.port(), msg(Opcode::lock_release_local, L, 2));
        sc_core::wait(ns(200)); // t = 500
        send_wire(tb, b.port(), msg(Opcode::lock_release_local, L, 5));
    });
    sc_core::sc_start();

    const sc_time mem2 = kMemLatency * 2.0; // one read + one write of syncronVar per message
    // Acquire 1: counter check on the miss + counter increment as the
    // variable starts being served from memory.
    const unsigned c_first = p.cycles_per_message + 2 * p.counter_cycles; // 16
    // Later messages: counter check only (the syncronVar is already active).
    const unsigned c_next = p.cycles_per_message + p.counter_cycles; // 14

    REQUIRE(b.cores.got.size() == 2);
    CHECK(b.cores.got[0].addr == b.map.mailbox_address(0, 2));
    CHECK(name(b.cores.got[0].wire.op) == "lock_grant_local");
    CHECK(b.cores.got[0].time == ns(100) + b.cycles(c_first) + mem2);
    CHECK(b.cores.got[0].time == ns(176));
    // Later than the ST path (15 ns) by the two memory accesses (and one more counter access - one ST access).
    CHECK(b.cores.got[0].time - ns(100) - b.cycles(15) == mem2 + b.cycles(1));
    CHECK(b.cores.got[1].addr == b.map.mailbox_address(0, 5));
    CHECK(name(b.cores.got[1].wire.op) == "lock_grant_local");
    CHECK(b.cores.got[1].time == ns(300) + b.cycles(c_next) + mem2);

    // Every message reads then writes the syncronVar at the variable's address.
    REQUIRE(b.mem.log.size() == 8);
    for (unsigned i = 0; i < 8; ++i) {
        INFO("access " << i);
        CHECK(b.mem.log[i].cmd == (i % 2 == 0 ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND));
        CHECK(b.mem.log[i].addr == L);
        CHECK(b.mem.log[i].len == layout.bytes());
    }
    // Accesses start cycles_per_message into the service, one after the other.
    CHECK(b.mem.log[0].arrival == ns(112));
    CHECK(b.mem.log[1].arrival == ns(142));
    CHECK(b.mem.log[2].arrival == ns(176) + ns(12)); // second acquire waited for the SPU
    CHECK(b.mem.log[3].arrival == ns(176) + ns(42));
    CHECK(b.se.stats().mem_accesses == 8);
    CHECK(b.se.st_max() == 0);

    // In memory while core 2 held the lock and core 5 waited.
    REQUIRE(image_mid.size() == layout.bytes());
    VarState s;
    CHECK(layout.decode(image_mid, 0, Primitive::lock, s)); // active
    CHECK(s.info == ((1ull << 63) | 2u));                   // owner: core 2 of SE 0
    CHECK(s.local.test(5));
    CHECK(s.local.count() == 1);
    CHECK(counter_mid == 1);
    // Afterwards nothing is pending: syncronVar inactive, counter back to 0.
    VarState after;
    CHECK_FALSE(layout.decode(b.mem.peek(L, layout.bytes()), 0, Primitive::lock, after));
    CHECK(after.info == 0);
    CHECK(b.se.core().counters().value(L) == 0);
    CHECK(b.se.core().stats().overflow_episodes == 1);
    CHECK(b.ses.got.empty()); // no overflowed SE to notify
}

TEST_CASE("SE alone: with no ST entries a non-Master SE redirects the request as lock_acquire_overflow",
          "[se][se_module][overflow]") {
    SeParams p;
    p.st_entries = 0;
    const uint64_t L = var(1, 0); // Master SE is SE 1
    uint32_t counter_mid = 99;

    Bench b(0, p, [&](ScriptInitiator& tb) {
        sc_core::wait(ns(100));
        send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, L, 4));
        sc_core::wait(ns(100)); // t = 200: the Master SE grants through overflow
        send_wire(tb, b.port(), msg(Opcode::lock_grant_overflow, L, 4, 0));
        sc_core::wait(ns(100)); // t = 300
        send_wire(tb, b.port(), msg(Opcode::lock_release_local, L, 4));
        sc_core::wait(ns(50));
        counter_mid = b.se.core().counters().value(L);
        sc_core::wait(ns(50)); // t = 400: the Master SE is done with the variable
        send_wire(tb, b.port(), msg(Opcode::decrease_indexing_counter, L, 0, 0, /*increments=*/1));
    });
    sc_core::sc_start();

    REQUIRE(b.ses.got.size() == 2);
    const Received& acq = b.ses.got[0];
    CHECK(acq.addr == b.map.se_address(1));
    REQUIRE(acq.wire_ok);
    CHECK(name(acq.wire.op) == "lock_acquire_overflow");
    CHECK(acq.wire.addr == L);
    CHECK(acq.wire.core == 4); // CoreID = SE 0 | local core 4
    CHECK(acq.wire.se == 0);
    CHECK(acq.time == ns(100) + b.cycles(p.cycles_per_message + p.counter_cycles));
    const Received& rel = b.ses.got[1];
    CHECK(rel.addr == b.map.se_address(1));
    CHECK(name(rel.wire.op) == "lock_release_overflow");
    CHECK(rel.wire.core == 4);
    CHECK(rel.time == ns(300) + b.cycles(p.cycles_per_message + p.counter_cycles));

    REQUIRE(b.cores.got.size() == 1);
    CHECK(b.cores.got[0].addr == b.map.mailbox_address(0, 4));
    CHECK(name(b.cores.got[0].wire.op) == "lock_grant_local");
    CHECK(b.cores.got[0].time == ns(200) + b.cycles(12));

    CHECK(b.mem.log.empty()); // only the Master SE touches syncronVar
    CHECK(counter_mid == 1);
    CHECK(b.se.core().counters().value(L) == 0);
    CHECK(b.se.core().table().occupancy() == 0);
    CHECK(b.se.stats().rejected == 0);
}

// ---------------------------------------------------------------- flat organization, abort policy

TEST_CASE("SE alone, flat organization: grants go to the mailbox of the core's own unit, cond_wait's "
          "release of a lock homed elsewhere to that lock's Master SE",
          "[se][se_module][flat]") {
    const SeParams p;
    const uint64_t L = var(0, 0), C = var(0, 1), K = var(1, 0);
    const unsigned flat = 1 * 16 + 4; // core 4 of unit 1

    Bench b(
        0, p,
        [&](ScriptInitiator& tb) {
            sc_core::wait(ns(100));
            send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, L, flat, 1));
            sc_core::wait(ns(100));
            send_wire(tb, b.port(), msg(Opcode::cond_wait_local, C, flat, 1, K));
        },
        [](SeTopology& t) { t.organization = SeOrganization::flat; });
    sc_core::sc_start();

    REQUIRE(b.cores.got.size() == 1);
    const Received& g = b.cores.got[0];
    CHECK(g.addr == b.map.mailbox_address(1, 4));
    CHECK(g.time == ns(100) + b.cycles(15));
    REQUIRE(g.wire_ok);
    CHECK(name(g.wire.op) == "lock_grant_local");
    CHECK(g.wire.core == flat); // the local-level CoreID carries the flat index
    CHECK(g.ext.se == 1);
    REQUIRE(b.ses.got.size() == 1);
    const Received& rel = b.ses.got[0];
    CHECK(rel.addr == b.map.se_address(1));
    REQUIRE(rel.wire_ok);
    CHECK(name(rel.wire.op) == "lock_release_local");
    CHECK(rel.wire.addr == K);
    CHECK(rel.wire.core == flat);
    CHECK(rel.time == ns(200) + b.cycles(15)); // one SPU slot: the release is SE 1's message
    CHECK(b.se.core().table().find(C)->state.local.size() == 32);
    CHECK(b.se.stats().rejected == 0);
}

TEST_CASE("SE alone, abort policy: a release of a variable in software goes to the fallback server's mailbox",
          "[se][se_module][misar]") {
    SeParams p;
    p.st_entries = 1;
    const uint64_t A = var(0, 0), B = var(0, 1);

    Bench b(
        0, p,
        [&](ScriptInitiator& tb) {
            sc_core::wait(ns(100));
            send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, A, 0));
            sc_core::wait(ns(100));
            send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, B, 1)); // ST full: aborted
            sc_core::wait(ns(100));
            send_wire(tb, b.port(), msg(Opcode::lock_release_local, B, 1)); // after the server granted it
        },
        [](SeTopology& t) {
            t.overflow = OverflowPolicy::abort;
            t.fallback_server = [](uint64_t) { return 1u; };
        });
    sc_core::sc_start();

    REQUIRE(b.cores.got.size() == 2);
    const Received& ab = b.cores.got[1];
    CHECK(ab.addr == b.map.mailbox_address(0, 1));
    REQUIRE(ab.wire_ok);
    CHECK(name(ab.wire.op) == "abort_local");
    CHECK(ab.wire.info == abort_info::make(Opcode::lock_acquire_local));
    CHECK(ab.time == ns(200) + b.cycles(12 + 2 + 2)); // counter checked and incremented

    REQUIRE(b.ses.got.size() == 1); // to_ses: through the crossbar like SE-to-SE messages
    const Received& fwd = b.ses.got[0];
    CHECK(fwd.addr == b.map.mailbox_address(1, 15)); // server_core(1) = client_cores[1]
    REQUIRE(fwd.wire_ok);
    CHECK(name(fwd.wire.op) == "lock_release_local");
    CHECK(fwd.wire.addr == B);
    CHECK(fwd.wire.core == 1); // flat index of core 1 of unit 0
    REQUIRE(fwd.has_ext);
    CHECK(fwd.ext == Message{B, Opcode::lock_release_local, 1, 0, 0});
    CHECK(fwd.time == ns(300) + b.cycles(12 + 2 + 2));
    CHECK(b.se.core().counters().value(B) == 2);
    CHECK(b.se.core().stats().forwarded_to_server == 1);
    CHECK(b.se.core().stats().diverted == 1);
    CHECK(b.mem.log.empty()); // the abort policy never touches syncronVar
}

// ---------------------------------------------------------------- errors

TEST_CASE("SE alone: malformed messages get an error response and a report, and the SE keeps working",
          "[se][se_module][errors]") {
    errors_do_not_throw();
    const SeParams p;
    const uint64_t L = var(0, 0);
    std::vector<tlm::tlm_response_status> status;
    std::vector<std::string> cached;

    Bench b(0, p, [&](ScriptInitiator& tb) {
        const auto note_cached = [&] {
            const sc_core::sc_report* r = sc_core::sc_report_handler::get_cached_report();
            cached.push_back(r ? r->get_msg() : "");
            sc_core::sc_report_handler::clear_cached_report();
        };
        sc_core::wait(ns(10));
        sc_time d = SC_ZERO_TIME;
        // 1. unknown opcode 57 in the wire bytes (bits 64..69 = byte 8 bits 0..5)
        auto bad_op = wire(msg(Opcode::lock_acquire_local, L, 1));
        bad_op[8] = static_cast<uint8_t>((bad_op[8] & 0xC0) | 57);
        status.push_back(send(tb, b.port(), tlm::TLM_WRITE_COMMAND, bad_op, nullptr, d));
        note_cached();
        // 2. core ID out of range, via the extension
        const Message far = msg(Opcode::lock_acquire_local, L, 40);
        status.push_back(
            send(tb, b.port(), tlm::TLM_WRITE_COMMAND, wire(msg(Opcode::lock_acquire_local, L, 1)), &far, d));
        note_cached();
        // 3. neither an extension nor 18 bytes
        status.push_back(send(tb, b.port(), tlm::TLM_WRITE_COMMAND, std::vector<uint8_t>(8, 0), nullptr, d));
        note_cached();
        // 4. a READ of a valid message
        status.push_back(
            send(tb, b.port(), tlm::TLM_READ_COMMAND, wire(msg(Opcode::lock_acquire_local, L, 1)), nullptr, d));
        note_cached();
        // 5. a valid message afterwards
        status.push_back(send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, L, 1)));
    });
    sc_core::sc_start();
    sc_core::sc_report_handler::set_handler(nullptr);

    REQUIRE(status.size() == 5);
    CHECK(status[0] == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(status[1] == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(status[2] == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(status[3] == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(status[4] == tlm::TLM_OK_RESPONSE);

    const auto errs = se_errors();
    REQUIRE(errs.size() == 4);
    CHECK(contains(errs[0].text, "unknown opcode 57"));
    CHECK(contains(errs[1].text, "core ID 40 out of range"));
    CHECK(contains(errs[2].text, "got 8 bytes"));
    CHECK(contains(errs[3].text, "writes only"));
    for (const auto& e : errs) {
        CHECK(contains(e.text, "rejected message"));
        CHECK(e.when == ns(10)); // reported at once, in b_transport
    }
    REQUIRE(cached.size() == 4); // the same reports, through the report cache
    for (unsigned i = 0; i < 4; ++i) CHECK(cached[i] == errs[i].text);

    REQUIRE(b.cores.got.size() == 1);
    CHECK(b.cores.got[0].addr == b.map.mailbox_address(0, 1));
    CHECK(name(b.cores.got[0].wire.op) == "lock_grant_local");
    CHECK(b.cores.got[0].time == ns(10) + b.cycles(15)); // rejected messages cost the SPU nothing
    CHECK(b.se.stats().rejected == 4);
    CHECK(b.se.stats().processed == 1);
}

TEST_CASE("SE alone: releasing a lock that is not held is reported", "[se][se_module][errors][lock]") {
    errors_do_not_throw();
    const SeParams p;
    const uint64_t L = var(0, 0); // SE 0 is the Master SE
    const uint64_t R = var(1, 0); // SE 0 is a local SE
    std::vector<tlm::tlm_response_status> status;

    Bench b(0, p, [&](ScriptInitiator& tb) {
        sc_core::wait(ns(10));
        status.push_back(send_wire(tb, b.port(), msg(Opcode::lock_release_local, L, 1))); // nobody holds L
        sc_core::wait(ns(40));                                                            // t = 50
        status.push_back(send_wire(tb, b.port(), msg(Opcode::lock_acquire_local, L, 1)));
        sc_core::wait(ns(50));                                                            // t = 100
        status.push_back(send_wire(tb, b.port(), msg(Opcode::lock_release_local, L, 2))); // core 1 holds it
        sc_core::wait(ns(100));                                                           // t = 200
        status.push_back(send_wire(tb, b.port(), msg(Opcode::lock_release_local, L, 1)));
        sc_core::wait(ns(100)); // t = 300: a stray release at a non-Master SE
        status.push_back(send_wire(tb, b.port(), msg(Opcode::lock_release_local, R, 4)));
    });
    sc_core::sc_start();
    sc_core::sc_report_handler::set_handler(nullptr);

    // The message is well-formed, so it is accepted; the SPU finds the error.
    for (auto s : status) CHECK(s == tlm::TLM_OK_RESPONSE);
    const auto errs = se_errors();
    REQUIRE(errs.size() == 3);
    CHECK(contains(errs[0].text, "not held"));
    CHECK(contains(errs[0].text, "release of a lock that is not held"));
    CHECK(errs[0].when == ns(10));
    CHECK(contains(errs[1].text, "not held by core 2"));
    CHECK(errs[1].when == ns(100));
    // At a non-Master SE a release with no ST entry is legitimate only for a
    // lock granted through overflow, while the indexing counter is raised:
    // with the counter at zero it is caught locally, nothing is forwarded.
    CHECK(contains(errs[2].text, "not held by core 4"));
    CHECK(errs[2].when == ns(300));

    REQUIRE(b.cores.got.size() == 1); // only core 1's grant
    CHECK(b.cores.got[0].addr == b.map.mailbox_address(0, 1));
    CHECK(b.cores.got[0].time == ns(50) + b.cycles(15));
    CHECK(b.se.core().table().occupancy() == 0);
    CHECK(b.se.core().stats().errors == 3);
    CHECK(b.ses.got.empty());
}

// ---------------------------------------------------------------- debug and non-blocking access

TEST_CASE("SE alone: transport_dbg on `in` shows the next buffered message and never advances time",
          "[se][se_module][debug]") {
    // In LT only messages from other SEs wait in the buffer (a core's message
    // is served inside its sender's call): SE 1 asks Master SE 0 for a lock.
    const SeParams p;
    const uint64_t L = var(0, 0);
    const Message m = msg(Opcode::lock_acquire_global, L, 0, 1);
    unsigned n_empty = 99, n_read = 0, n_write = 99, n_short = 99, n_after = 99;
    std::vector<uint8_t> seen(kWireBytes, 0);
    sc_time t_before, t_after;
    sc_dt::uint64 delta_before = 0, delta_after = 1;
    uint64_t processed_during = 99;

    Bench b(0, p, [&](ScriptInitiator& tb) {
        std::vector<uint8_t> buf(kWireBytes, 0);
        n_empty = tb.debug(tlm::TLM_READ_COMMAND, b.port(), buf.data(), kWireBytes);
        sc_core::wait(ns(20));
        sc_time d = ns(30); // arrives at 50 ns: still buffered now
        send(tb, b.port(), tlm::TLM_WRITE_COMMAND, wire(m), nullptr, d);
        t_before = sc_core::sc_time_stamp();
        delta_before = sc_core::sc_delta_count();
        n_read = tb.debug(tlm::TLM_READ_COMMAND, b.port(), seen.data(), kWireBytes);
        n_write = tb.debug(tlm::TLM_WRITE_COMMAND, b.port(), buf.data(), kWireBytes);
        std::vector<uint8_t> small(8, 0);
        n_short = tb.debug(tlm::TLM_READ_COMMAND, b.port(), small.data(), 8);
        t_after = sc_core::sc_time_stamp();
        delta_after = sc_core::sc_delta_count();
        processed_during = b.se.stats().processed;
        sc_core::wait(ns(100));
        n_after = tb.debug(tlm::TLM_READ_COMMAND, b.port(), buf.data(), kWireBytes);
    });
    sc_core::sc_start();

    CHECK(n_empty == 0);
    CHECK(n_read == kWireBytes);
    CHECK(seen == wire(m));
    CHECK(n_write == 0);
    CHECK(n_short == 0);
    CHECK(n_after == 0); // buffer empty again
    CHECK(t_before == ns(20));
    CHECK(t_after == t_before);
    CHECK(delta_after == delta_before);
    CHECK(processed_during == 0);
    // The debug reads changed nothing: the message is served as usual.
    REQUIRE(b.ses.got.size() == 1);
    CHECK(b.ses.got[0].wire.op == Opcode::lock_grant_global);
    CHECK(b.ses.got[0].time == ns(50) + b.cycles(15));
    CHECK(b.se.stats().processed == 1);
}

namespace {

/// Counts frees; the payload itself lives in the initiator.
class CountingMm : public tlm::tlm_mm_interface {
public:
    void free(tlm::tlm_generic_payload* t) override {
        ++frees;
        t->reset();
    }
    unsigned frees = 0;
};

/// Base-protocol AT initiator: BEGIN_REQ on the forward path, BEGIN_RESP back.
class NbInitiator : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<NbInitiator> socket;

    tlm::tlm_sync_enum fw_status = tlm::TLM_COMPLETED;
    tlm::tlm_phase fw_phase_out = tlm::UNINITIALIZED_PHASE;
    std::vector<tlm::tlm_phase> bw_phases;
    sc_time bw_time;
    tlm::tlm_response_status response = tlm::TLM_INCOMPLETE_RESPONSE;
    bool completed = false;
    CountingMm mm;

    SC_HAS_PROCESS(NbInitiator);
    NbInitiator(const sc_core::sc_module_name& n, uint64_t port, Message m)
        : sc_module(n), socket("socket"), m_port(port), m_msg(m) {
        socket.register_nb_transport_bw(this, &NbInitiator::nb_transport_bw);
        SC_THREAD(run);
    }

private:
    void run() {
        sc_core::wait(ns(10));
        const auto bytes = pack(m_msg, kLayout);
        std::copy(bytes.begin(), bytes.end(), m_data.begin());
        m_trans.set_mm(&mm);
        m_trans.acquire();
        m_trans.set_command(tlm::TLM_WRITE_COMMAND);
        m_trans.set_address(m_port);
        m_trans.set_data_ptr(m_data.data());
        m_trans.set_data_length(kWireBytes);
        m_trans.set_streaming_width(kWireBytes);
        m_trans.set_byte_enable_ptr(nullptr);
        m_trans.set_dmi_allowed(false);
        m_trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_time t = ns(5);
        fw_status = socket->nb_transport_fw(m_trans, phase, t);
        fw_phase_out = phase;
        if (fw_status == tlm::TLM_COMPLETED) {
            response = m_trans.get_response_status();
        } else {
            sc_core::wait(m_response); // BEGIN_RESP on the backward path
        }
        completed = true;
        m_trans.release();
    }

    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& t) {
        bw_phases.push_back(phase);
        if (phase == tlm::BEGIN_RESP) {
            bw_time = sc_core::sc_time_stamp() + t;
            response = trans.get_response_status();
            m_response.notify(t);
            return tlm::TLM_COMPLETED; // END_RESP implied
        }
        return tlm::TLM_ACCEPTED; // END_REQ
    }

    uint64_t m_port;
    Message m_msg;
    std::array<uint8_t, kWireBytes> m_data{};
    tlm::tlm_generic_payload m_trans;
    sc_core::sc_event m_response;
};

} // namespace

TEST_CASE("SE alone: nb_transport_fw BEGIN_REQ on `in` is accepted and answered in four phases",
          "[se][se_module][nb]") {
    const SeParams p;
    const AddressMap map(2, 16, MemoryParams{});
    const uint64_t L = var(0, 0);
    SeModule se("se", 0, p, topology(map), map);
    NbInitiator ini("ini", map.se_address(0), msg(Opcode::lock_acquire_local, L, 6));
    ReplySink cores("cores"), ses("ses");
    SmallMemory mem("mem", kMemLatency);
    ini.socket.bind(se.in);
    se.to_cores.bind(cores.socket);
    se.to_ses.bind(ses.socket);
    se.to_mem.bind(mem.socket);
    sc_core::sc_start();

    CHECK(ini.fw_status == tlm::TLM_ACCEPTED);
    CHECK(ini.fw_phase_out == tlm::BEGIN_REQ);
    REQUIRE(ini.bw_phases.size() == 2);
    CHECK(ini.bw_phases[0] == tlm::END_REQ);    // accepted into the SPU buffer...
    CHECK(ini.bw_phases[1] == tlm::BEGIN_RESP); // ...and answered at once
    CHECK(ini.bw_time == ns(15));               // BEGIN_REQ sent at 10 ns annotated with 5 ns
    CHECK(ini.response == tlm::TLM_OK_RESPONSE);
    CHECK(ini.completed);
    CHECK(ini.mm.frees == 1);

    REQUIRE(cores.got.size() == 1);
    CHECK(cores.got[0].addr == map.mailbox_address(0, 6));
    CHECK(name(cores.got[0].wire.op) == "lock_grant_local");
    CHECK(cores.got[0].time == ns(15) + se.cycle() * 15.0);
    CHECK(se.stats().processed == 1);
}
