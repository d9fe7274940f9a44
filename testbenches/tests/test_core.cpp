// NDP core (models/core/ndp_core.h) and its L1 tag store (l1_cache.h).
// Each SystemC test case elaborates its own tiny design (core -> router ->
// {memory, fake SE}, fake SE -> core mailbox) and calls sc_start once; the
// programs only record what they see, the assertions run after sc_start,
// because a REQUIRE thrown inside a SystemC process becomes an sc_report.
#include <catch2/catch.hpp>

#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/core/l1_cache.h"
#include "models/core/ndp_core.h"
#include "models/protocol/tlm/syncron_extension.h"
#include "models/protocol/wire_format.h"
#include "testbenches/tests/core_table2_check.h"
#include "testbenches/tests/core_test_helpers.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

sc_time ns(double v) { return sc_time(v, SC_NS); }

// ------------------------------------------------------------------ test modules

/// Memory at [0, size) with a fixed 50 ns latency; logs every timed access.
class TestMemory : public sc_core::sc_module {
public:
    struct Access {
        tlm::tlm_command cmd;
        uint64_t addr;
        unsigned len;
    };

    tlm_utils::simple_target_socket<TestMemory> socket;
    std::vector<uint8_t> bytes;
    std::vector<Access> log;

    TestMemory(sc_core::sc_module_name name, uint64_t size = 1 << 20)
        : sc_module(name), socket("socket"), bytes(size, 0) {
        socket.register_b_transport(this, &TestMemory::b_transport);
        socket.register_transport_dbg(this, &TestMemory::transport_dbg);
    }

    unsigned count(tlm::tlm_command cmd) const {
        unsigned n = 0;
        for (const Access& a : log) n += a.cmd == cmd;
        return n;
    }
    uint64_t peek(uint64_t addr, unsigned size) const {
        uint64_t v = 0;
        for (unsigned i = 0; i < size; ++i) v |= uint64_t(bytes[addr + i]) << (8 * i);
        return v;
    }
    void poke(uint64_t addr, uint64_t v, unsigned size) {
        for (unsigned i = 0; i < size; ++i) bytes[addr + i] = uint8_t(v >> (8 * i));
    }

private:
    bool in_range(const tlm::tlm_generic_payload& t) const {
        return t.get_address() + t.get_data_length() <= bytes.size();
    }
    void copy(tlm::tlm_generic_payload& t) {
        uint8_t* mem = &bytes[t.get_address()];
        if (t.is_read())
            std::memcpy(t.get_data_ptr(), mem, t.get_data_length());
        else if (t.is_write())
            std::memcpy(mem, t.get_data_ptr(), t.get_data_length());
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
        if (!in_range(t)) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        log.push_back({t.get_command(), t.get_address(), t.get_data_length()});
        copy(t);
        delay += ns(50);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) {
        if (!in_range(t)) return 0;
        copy(t);
        return t.get_data_length();
    }
};

/// The SE's message port: records every message; acquire-type ones get the
/// matching grant 100 ns after they arrived, sent from an SC_THREAD.
class FakeSe : public sc_core::sc_module {
public:
    struct Received {
        Message msg;
        sc_time arrival;
        std::vector<uint8_t> data;
        bool has_extension;
    };
    struct Sent {
        Message msg;
        sc_time at;
        tlm::tlm_response_status status;
    };

    tlm_utils::simple_target_socket<FakeSe> in;
    tlm_utils::simple_initiator_socket<FakeSe> out; ///< bound straight to the core mailbox

    std::vector<Received> received;
    std::vector<Sent> sent;
    /// Replies to send before the correct one for the next acquire (error tests).
    std::deque<Opcode> wrong_replies;
    bool fail_requests = false; ///< answer every message with an error response

    SC_HAS_PROCESS(FakeSe);
    FakeSe(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
        in.register_b_transport(this, &FakeSe::b_transport);
        SC_THREAD(reply_thread);
    }

    static Opcode grant_for(Opcode op) {
        switch (op) {
        case Opcode::lock_acquire_local: return Opcode::lock_grant_local;
        case Opcode::barrier_wait_local_within_unit:
        case Opcode::barrier_wait_local_across_units: return Opcode::barrier_depart_local;
        case Opcode::sem_wait_local: return Opcode::sem_grant_local;
        case Opcode::cond_wait_local: return Opcode::cond_grant_local;
        default: return op;
        }
    }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
        auto* ext = t.get_extension<SyncronExtension>();
        Received r{ext ? ext->msg : Message{}, sc_core::sc_time_stamp() + delay,
                   std::vector<uint8_t>(t.get_data_ptr(), t.get_data_ptr() + t.get_data_length()), ext != nullptr};
        received.push_back(r);
        delay += ns(10);
        if (fail_requests) {
            t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        if (ext && is_sync_request(ext->msg.op)) {
            m_pending.push_back(r);
            m_wake.notify(sc_core::SC_ZERO_TIME);
        }
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }

    void reply_thread() {
        for (;;) {
            while (m_pending.empty()) wait(m_wake);
            const Received r = m_pending.front();
            m_pending.pop_front();
            const sc_time due = r.arrival + ns(100);
            if (due > sc_core::sc_time_stamp()) wait(due - sc_core::sc_time_stamp());
            while (!wrong_replies.empty()) {
                reply(r.msg, wrong_replies.front());
                wrong_replies.pop_front();
            }
            reply(r.msg, grant_for(r.msg.op));
        }
    }

    void reply(const Message& request, Opcode op) {
        Message m = request;
        m.op = op;
        sc_time delay = sc_core::SC_ZERO_TIME;
        const tlm::tlm_response_status status = syncron::test::write_message(out, m, delay);
        sent.push_back({m, sc_core::sc_time_stamp(), status});
    }

    std::deque<Received> m_pending;
    sc_core::sc_event m_wake;
};

/// The unit crossbar reduced to an address decoder: MMIO to the SE, the rest to memory.
class TestRouter : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<TestRouter> in;
    tlm_utils::simple_initiator_socket<TestRouter> to_mem;
    tlm_utils::simple_initiator_socket<TestRouter> to_se;
    uint64_t se_address = 0;

    TestRouter(sc_core::sc_module_name name) : sc_module(name), in("in"), to_mem("to_mem"), to_se("to_se") {
        in.register_b_transport(this, &TestRouter::b_transport);
        in.register_transport_dbg(this, &TestRouter::transport_dbg);
    }

private:
    bool is_se(const tlm::tlm_generic_payload& t) const { return t.get_address() >= AddressMap::kIoBase; }
    void b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
        if (is_se(t)) {
            if (t.get_address() != se_address) {
                t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
                return;
            }
            to_se->b_transport(t, delay);
        } else {
            to_mem->b_transport(t, delay);
        }
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) { return is_se(t) ? 0 : to_mem->transport_dbg(t); }
};

/// Records SC_ERROR reports instead of throwing, so a test can inspect them.
std::vector<std::string> g_errors;
void capture_errors(const sc_core::sc_report& r, const sc_core::sc_actions& a) {
    if (r.get_severity() == sc_core::SC_ERROR) {
        g_errors.push_back(r.get_msg());
        return;
    }
    sc_core::sc_report_handler::default_handler(r, a);
}

constexpr unsigned kUnit = 1;
constexpr unsigned kLocal = 3;
constexpr unsigned kGlobal = 18;

/// One core wired to a router, a memory and a fake SE of unit kUnit.
struct Bench {
    AddressMap map{4, 16, MemoryParams{}};
    CoreParams params;
    TestMemory mem{"mem"};
    FakeSe se{"se"};
    TestRouter router{"router"};
    NdpCore core;
    std::unique_ptr<SyncClient> client = test::inject_syncron(core);

    explicit Bench(
        std::function<bool(uint64_t)> cacheable = [](uint64_t) { return false; }, CoreParams p = {})
        : params(p), core("core", kUnit, kLocal, kGlobal, params, map, std::move(cacheable)) {
        router.se_address = map.se_address(kUnit);
        core.bus.bind(router.in);
        router.to_mem.bind(mem.socket);
        router.to_se.bind(se.in);
        se.out.bind(core.mailbox);
    }
};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

} // namespace

// ------------------------------------------------------------------ L1 (plain C++)

TEST_CASE("core l1: Table 5 geometry", "[core][l1]") {
    L1Cache l1{CoreParams{}};
    CHECK(l1.sets() == 128);
    CHECK(l1.ways() == 2);
    CHECK(l1.line_bytes() == 64);
    CHECK(l1.line_address(0x12345) == 0x12340);
}

TEST_CASE("core l1: invalid geometry is rejected", "[core][l1]") {
    CoreParams p;
    p.l1_line_bytes = 48;
    CHECK_THROWS_AS(L1Cache{p}, std::invalid_argument);
    p = CoreParams{};
    p.l1_ways = 0;
    CHECK_THROWS_AS(L1Cache{p}, std::invalid_argument);
    p = CoreParams{};
    p.l1_bytes = 1000;
    CHECK_THROWS_AS(L1Cache{p}, std::invalid_argument);
}

TEST_CASE("core l1: miss allocates, hit follows, stats count", "[core][l1]") {
    L1Cache l1{CoreParams{}};
    CHECK_FALSE(l1.access(0x1008, false).hit);
    CHECK(l1.access(0x1030, false).hit); // same line
    CHECK(l1.access(0x1038, true).hit);
    CHECK(l1.contains(0x1000));
    CHECK_FALSE(l1.contains(0x1040));
    CHECK(l1.stats().hits == 2);
    CHECK(l1.stats().misses == 1);
    CHECK(l1.stats().writebacks == 0);
}

TEST_CASE("core l1: LRU victim, dirty victims are written back", "[core][l1]") {
    L1Cache l1{CoreParams{}};
    const uint64_t stride = 128 * 64; // same set
    const uint64_t a = 0x40, b = a + stride, c = a + 2 * stride, d = a + 3 * stride;
    CHECK_FALSE(l1.access(a, true).hit);  // a dirty
    CHECK_FALSE(l1.access(b, false).hit); // b clean
    CHECK(l1.access(a, false).hit);       // a most recent: b is LRU
    L1Cache::AccessResult r = l1.access(c, false);
    CHECK_FALSE(r.hit);
    CHECK_FALSE(r.writeback); // b was clean
    CHECK_FALSE(l1.contains(b));
    r = l1.access(d, false); // evicts a (LRU, dirty)
    CHECK_FALSE(r.hit);
    CHECK(r.writeback);
    CHECK(r.victim_addr == a);
    CHECK(l1.stats().writebacks == 1);
    l1.invalidate_all();
    CHECK_FALSE(l1.contains(c));
}

TEST_CASE("core l1: write-allocate marks the new line dirty", "[core][l1]") {
    CoreParams p;
    p.l1_bytes = 128;
    p.l1_ways = 1; // 2 sets, direct mapped
    L1Cache l1{p};
    CHECK_FALSE(l1.access(0, true).hit);
    const L1Cache::AccessResult r = l1.access(128, false);
    CHECK(r.writeback);
    CHECK(r.victim_addr == 0);
    CHECK_FALSE(l1.access(0, false).writeback); // 128 was clean
}

// ------------------------------------------------------------------ NdpCore

TEST_CASE("core: compute(1000) takes exactly 400 ns", "[core][timing]") {
    Bench b;
    sc_time seen_before_done;
    b.core.set_program([&](CoreApi& c) { c.compute(1000); });
    CHECK(tlm::tlm_global_quantum::instance().get() == ns(100)); // set by the core
    sc_core::sc_start();
    CHECK(b.core.done());
    CHECK(b.core.state() == NdpCore::CoreState::done);
    CHECK(b.core.finish_time() == ns(400));
    CHECK(b.core.stats().finish_time == ns(400));
    CHECK(b.core.stats().instructions == 1000);
    CHECK(b.mem.log.empty());
}

TEST_CASE("core: small computes are decoupled and still add up", "[core][timing]") {
    Bench b;
    std::vector<sc_time> stamps;
    b.core.set_program([&](CoreApi& c) {
        for (int i = 0; i < 300; ++i) {
            c.compute(1);
            stamps.push_back(sc_core::sc_time_stamp());
        }
    });
    sc_core::sc_start();
    CHECK(b.core.finish_time() == ns(120));
    // Kernel time moves only at quantum boundaries (100 ns = 250 cycles).
    CHECK(stamps[0] == sc_core::SC_ZERO_TIME);
    CHECK(stamps[248] == sc_core::SC_ZERO_TIME);
    CHECK(stamps[249] == ns(100));
}

TEST_CASE("core: with a memory quantum plain work runs ahead and a Table 2 call syncs past the quantum",
          "[core][timing]") {
    CoreParams p;
    p.memory_quantum_ns = 500; // the quantum stays 100 ns
    Bench b([](uint64_t) { return false; }, p);
    std::vector<sc_time> before, after;
    sc_time at_release;
    b.core.set_program([&](CoreApi& c) {
        for (int i = 0; i < 1000; ++i) { // 400 ns of work: within the memory quantum, no sync
            c.compute(1);
            before.push_back(sc_core::sc_time_stamp());
        }
        c.lock_release(0x4000); // past the 100 ns quantum: the core reaches its own time first
        at_release = sc_core::sc_time_stamp();
        for (int i = 0; i < 300; ++i) {
            c.compute(1);
            after.push_back(sc_core::sc_time_stamp());
        }
    });
    sc_core::sc_start();
    CHECK(before.back() == sc_core::SC_ZERO_TIME); // without it: 300 ns (test above)
    CHECK(at_release == ns(400));
    REQUIRE(b.se.received.size() == 1);
    CHECK(b.se.received[0].arrival == ns(400)); // the message leaves at the core's own time
    // The next memory sync point is the memory quantum's next boundary, 500 ns:
    // the issue cycle of the release and 249 computes reach it.
    CHECK(after[247] == ns(400));
    CHECK(after[248] == ns(500));
    CHECK(b.core.finish_time() == ns(400) + b.core.cycle_time() * 301);
}

TEST_CASE("core: done_event fires at the finish time", "[core][timing]") {
    Bench b;
    b.core.set_program([&](CoreApi& c) { c.compute(25); });
    sc_time fired;
    struct Watcher : sc_core::sc_module {
        SC_HAS_PROCESS(Watcher);
        Watcher(sc_core::sc_module_name n, NdpCore& core, sc_time& out) : sc_module(n), m_core(core), m_out(out) {
            SC_THREAD(run);
        }
        void run() {
            wait(m_core.done_event());
            m_out = sc_core::sc_time_stamp();
        }
        NdpCore& m_core;
        sc_time& m_out;
    } watcher("watcher", b.core, fired);
    sc_core::sc_start();
    CHECK(fired == ns(10));
}

TEST_CASE("core: shared data store then load is two timed accesses", "[core][memory]") {
    Bench b;
    uint64_t value = 0;
    b.core.set_program([&](CoreApi& c) {
        c.store(0x100, 0x1122334455667788ull, 8);
        value = c.load(0x100, 8);
    });
    sc_core::sc_start();
    CHECK(value == 0x1122334455667788ull);
    REQUIRE(b.mem.log.size() == 2);
    CHECK(b.mem.log[0].cmd == tlm::TLM_WRITE_COMMAND);
    CHECK(b.mem.log[0].addr == 0x100);
    CHECK(b.mem.log[0].len == 8);
    CHECK(b.mem.log[1].cmd == tlm::TLM_READ_COMMAND);
    CHECK(b.mem.log[1].len == 8);
    CHECK(b.mem.peek(0x100, 8) == 0x1122334455667788ull);
    CHECK(b.core.finish_time() == ns(100));
    CHECK(b.core.stats().loads == 1);
    CHECK(b.core.stats().stores == 1);
    CHECK(b.core.stats().l1_hits + b.core.stats().l1_misses == 0);
}

TEST_CASE("core: odd sizes are little-endian and exact", "[core][memory]") {
    Bench b;
    b.mem.poke(0x200, 0xa1a2a3a4a5a6a7a8ull, 8);
    uint64_t three = 0;
    b.core.set_program([&](CoreApi& c) {
        three = c.load(0x201, 3);
        c.store(0x208, 0xffeeddccbbull, 5);
    });
    sc_core::sc_start();
    CHECK(three == 0xa5a6a7);
    CHECK(b.mem.peek(0x208, 8) == 0xffeeddccbbull);
    REQUIRE(b.mem.log.size() == 2);
    CHECK(b.mem.log[0].len == 3);
    CHECK(b.mem.log[1].len == 5);
}

TEST_CASE("core: cacheable data misses once, then hits in 4 cycles", "[core][memory][l1]") {
    Bench b([](uint64_t) { return true; });
    b.mem.poke(0x1010, 0xabcdef, 8);
    uint64_t first = 0, second = 0;
    b.core.set_program([&](CoreApi& c) {
        first = c.load(0x1010, 8);
        second = c.load(0x1030, 4); // same line
    });
    sc_core::sc_start();
    CHECK(first == 0xabcdef);
    CHECK(second == 0);
    REQUIRE(b.mem.log.size() == 1);
    CHECK(b.mem.log[0].cmd == tlm::TLM_READ_COMMAND);
    CHECK(b.mem.log[0].addr == 0x1000);
    CHECK(b.mem.log[0].len == 64);
    CHECK(b.core.stats().l1_misses == 1);
    CHECK(b.core.stats().l1_hits == 1);
    // miss: 50 ns fill + 4 cycles; hit: 4 cycles (1.6 ns at 2.5 GHz)
    CHECK(b.core.finish_time() == ns(50) + ns(1.6) + ns(1.6));
}

TEST_CASE("core: cacheable store is visible in memory at once", "[core][memory][l1]") {
    Bench b([](uint64_t) { return true; });
    b.core.set_program([&](CoreApi& c) { c.store(0x2000, 0x55aa, 2); });
    sc_core::sc_start();
    CHECK(b.mem.peek(0x2000, 2) == 0x55aa);
    REQUIRE(b.mem.log.size() == 1); // only the write-allocate fill
    CHECK(b.mem.log[0].cmd == tlm::TLM_READ_COMMAND);
}

TEST_CASE("core: a dirty eviction issues a 64 B write-back", "[core][memory][l1]") {
    Bench b([](uint64_t a) { return a < 0x80000; });
    const uint64_t stride = 128 * 64; // 16 KB / 2 ways / 64 B: same set every 8 KB
    uint64_t back = 0;
    b.core.set_program([&](CoreApi& c) {
        c.store(0x0, 0x77, 1);     // miss, dirty
        c.load(stride, 8);         // miss, clean
        c.load(2 * stride, 8);     // miss, evicts line 0 (LRU, dirty)
        back = c.load(0x90000, 1); // uncacheable: sees the store in memory
    });
    sc_core::sc_start();
    REQUIRE(b.mem.log.size() == 5);
    CHECK(b.mem.log[0].addr == 0x0);
    CHECK(b.mem.log[1].addr == stride);
    CHECK(b.mem.log[2].cmd == tlm::TLM_WRITE_COMMAND);
    CHECK(b.mem.log[2].addr == 0x0);
    CHECK(b.mem.log[2].len == 64);
    CHECK(b.mem.log[3].cmd == tlm::TLM_READ_COMMAND);
    CHECK(b.mem.log[3].addr == 2 * stride);
    CHECK(b.mem.peek(0x0, 1) == 0x77);
    CHECK(back == 0);
    CHECK(b.core.stats().l1_writebacks == 1);
    CHECK(b.core.stats().l1_misses == 3);
    CHECK(b.core.finish_time() == ns(5 * 50) + 3 * ns(1.6));
}

TEST_CASE("core: lock_acquire returns no earlier than the grant", "[core][sync]") {
    Bench b;
    const SyncVar lock = 0x4000;
    sc_time returned;
    b.core.set_program([&](CoreApi& c) {
        c.compute(25); // 10 ns
        c.lock_acquire(lock);
        returned = sc_core::sc_time_stamp();
    });
    std::optional<NdpCore::CoreState> mid_state;
    struct Probe : sc_core::sc_module {
        SC_HAS_PROCESS(Probe);
        Probe(sc_core::sc_module_name n, NdpCore& core, std::optional<NdpCore::CoreState>& out)
            : sc_module(n), m_core(core), m_out(out) {
            SC_THREAD(run);
        }
        void run() {
            wait(ns(60));
            m_out = m_core.state();
        }
        NdpCore& m_core;
        std::optional<NdpCore::CoreState>& m_out;
    } probe("probe", b.core, mid_state);
    sc_core::sc_start();

    REQUIRE(b.se.received.size() == 1);
    const FakeSe::Received& r = b.se.received[0];
    CHECK(r.has_extension);
    CHECK(r.msg.op == Opcode::lock_acquire_local);
    CHECK(r.msg.addr == lock);
    CHECK(r.msg.core == kLocal);
    CHECK(r.msg.se == kUnit);
    CHECK(r.arrival == ns(10));
    REQUIRE(r.data.size() == kWireBytes);
    const auto wire = pack(r.msg, layout_for(4, 16));
    CHECK(std::equal(wire.begin(), wire.end(), r.data.begin()));

    REQUIRE(b.se.sent.size() == 1);
    CHECK(b.se.sent[0].status == tlm::TLM_OK_RESPONSE);
    CHECK(b.se.sent[0].at == ns(110));
    CHECK(returned >= b.se.sent[0].at);
    CHECK(returned == ns(110));
    CHECK(b.core.finish_time() == ns(110));
    REQUIRE(mid_state);
    CHECK(*mid_state == NdpCore::CoreState::waiting_sync);
    CHECK(b.core.stats().sync_ops == 1);
    CHECK(b.core.stats().messages(Opcode::lock_acquire_local) == 1);
    CHECK(b.core.stats().ack_wait_time == ns(100));
}

TEST_CASE("core: lock_release does not wait", "[core][sync]") {
    Bench b;
    const SyncVar lock = 0x4000;
    b.core.set_program([&](CoreApi& c) {
        c.lock_acquire(lock);
        c.lock_release(lock);
    });
    sc_core::sc_start();
    REQUIRE(b.se.received.size() == 2);
    CHECK(b.se.received[1].msg.op == Opcode::lock_release_local);
    CHECK(b.se.received[1].msg.addr == lock);
    CHECK(b.se.received[1].arrival == ns(100));
    CHECK(b.se.sent.size() == 1); // no ACK for the release
    // 100 ns to the grant, then only the issue cycle of the release (a
    // posted message: the core does not wait for the port's 10 ns).
    CHECK(b.core.finish_time() == ns(100) + b.core.cycle_time());
    CHECK(b.core.stats().sync_ops == 2);
}

TEST_CASE("core: cond_wait waits for the signal, then re-acquires the lock", "[core][sync]") {
    Bench b;
    const SyncVar cond = 0x5000, lock = 0x5040;
    b.core.set_program([&](CoreApi& c) { c.cond_wait(cond, lock); });
    sc_core::sc_start();
    REQUIRE(b.se.received.size() == 2);
    CHECK(b.se.received[0].msg.op == Opcode::cond_wait_local);
    CHECK(b.se.received[0].msg.addr == cond);
    CHECK(b.se.received[0].msg.info == lock);
    REQUIRE(b.se.sent.size() == 2);
    CHECK(b.se.sent[0].msg.op == Opcode::cond_grant_local);
    CHECK(b.se.received[1].msg.op == Opcode::lock_acquire_local);
    CHECK(b.se.received[1].msg.addr == lock);
    CHECK(b.se.received[1].arrival >= b.se.sent[0].at);
    CHECK(b.se.sent[1].msg.op == Opcode::lock_grant_local);
    // each req_sync: the grant comes 100 ns after the request reached the SE
    CHECK(b.core.finish_time() == ns(200));
    CHECK(b.core.stats().sync_ops == 1);
}

TEST_CASE("core: barrier, semaphore and condvar calls carry their opcode and info", "[core][sync]") {
    Bench b;
    b.core.set_program(syncron::test::table2_program);
    sc_core::sc_start();
    syncron::test::check_table2_requests(b.se.received);
    REQUIRE(b.se.sent.size() == 3);
    CHECK(b.se.sent[0].msg.op == Opcode::barrier_depart_local);
    CHECK(b.se.sent[1].msg.op == Opcode::barrier_depart_local);
    CHECK(b.se.sent[2].msg.op == Opcode::sem_grant_local);
    // three req_sync of 100 ns each (the grant comes 100 ns after the request
    // reached the SE), three req_async of one issue cycle each
    CHECK(b.core.finish_time() == ns(3 * 100) + 3 * b.core.cycle_time());
    CHECK(b.core.stats().sync_ops == 6);
    CHECK(b.core.stats().ack_wait_time == ns(3 * 100));
}

TEST_CASE("core: a reply with the wrong opcode gets an error response", "[core][sync][error]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture_errors);
    Bench b;
    b.se.wrong_replies = {Opcode::sem_grant_local};
    b.core.set_program([&](CoreApi& c) { c.lock_acquire(0x4000); });
    sc_core::sc_start();
    REQUIRE(b.se.sent.size() == 2);
    CHECK(b.se.sent[0].msg.op == Opcode::sem_grant_local);
    CHECK(b.se.sent[0].status == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(b.se.sent[1].status == tlm::TLM_OK_RESPONSE);
    REQUIRE(g_errors.size() == 1);
    CHECK(contains(g_errors[0], "sem_grant_local"));
    CHECK(contains(g_errors[0], "0x4000"));
    CHECK(b.core.done()); // the right grant still completes the acquire
}

TEST_CASE("core: mailbox rejects replies nobody waits for and payloads without a message", "[core][sync][error]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture_errors);
    AddressMap map{4, 16, MemoryParams{}};
    TestMemory mem{"mem"};
    NdpCore core("core", kUnit, kLocal, kGlobal, CoreParams{}, map, [](uint64_t) { return false; });
    const auto client = test::inject_syncron(core);
    core.bus.bind(mem.socket);
    std::vector<tlm::tlm_response_status> statuses;
    struct Poker : sc_core::sc_module {
        tlm_utils::simple_initiator_socket<Poker> out{"out"};
        std::vector<tlm::tlm_response_status>& m_st;
        SC_HAS_PROCESS(Poker);
        Poker(sc_core::sc_module_name n, std::vector<tlm::tlm_response_status>& st) : sc_module(n), m_st(st) {
            SC_THREAD(run);
        }
        void send(SyncronExtension* ext) {
            uint8_t data[kWireBytes] = {};
            tlm::tlm_generic_payload t;
            t.set_command(tlm::TLM_WRITE_COMMAND);
            t.set_data_ptr(data);
            t.set_data_length(kWireBytes);
            t.set_streaming_width(kWireBytes);
            if (ext) t.set_extension(ext);
            sc_time d;
            out->b_transport(t, d);
            if (ext) t.clear_extension(ext);
            m_st.push_back(t.get_response_status());
        }
        void run() {
            wait(ns(5));
            send(nullptr);
            Message m;
            m.op = Opcode::lock_grant_local;
            m.addr = 0x4000;
            SyncronExtension ext(m);
            send(&ext);
        }
    } poker("poker", statuses);
    poker.out.bind(core.mailbox);
    sc_core::sc_start();
    REQUIRE(statuses.size() == 2);
    CHECK(statuses[0] == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(statuses[1] == tlm::TLM_GENERIC_ERROR_RESPONSE);
    REQUIRE(g_errors.size() == 1);
    CHECK(contains(g_errors[0], "lock_grant_local"));
    CHECK(contains(g_errors[0], "not waiting"));
}

TEST_CASE("core: an error response to a message is reported with its opcode", "[core][sync][error]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture_errors);
    Bench b;
    b.se.fail_requests = true;
    b.core.set_program([&](CoreApi& c) {
        c.sem_post(0x7000);
        c.lock_acquire(0x7040); // rejected: no ACK will come, the core must not hang
    });
    sc_core::sc_start();
    REQUIRE(g_errors.size() == 2);
    CHECK(contains(g_errors[0], "sem_post_local"));
    CHECK(contains(g_errors[1], "lock_acquire_local"));
    CHECK(b.core.done());
    CHECK(b.se.sent.empty());
}

TEST_CASE("core: a load of size 9 is reported with its size", "[core][memory][error]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture_errors);
    Bench b;
    b.core.set_program([&](CoreApi& c) {
        c.load(0x100, 9);
        c.store(0x100, 1, 0);
        c.load(0x13c, 8); // crosses 0x140
    });
    sc_core::sc_start();
    REQUIRE(g_errors.size() == 3);
    CHECK(contains(g_errors[0], "size 9"));
    CHECK(contains(g_errors[1], "size 0"));
    CHECK(contains(g_errors[2], "crosses"));
    CHECK(b.mem.log.empty());
}

TEST_CASE("core: an error response from memory names address and command", "[core][memory][error]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture_errors);
    Bench b;
    b.core.set_program([&](CoreApi& c) { c.load(0x200000, 4); }); // beyond the 1 MB test memory
    sc_core::sc_start();
    REQUIRE(g_errors.size() == 1);
    CHECK(contains(g_errors[0], "READ"));
    CHECK(contains(g_errors[0], "0x200000"));
}
