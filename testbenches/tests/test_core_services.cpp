// What synchronization schemes build on (docs/schemes.md): where a scheme's
// client sends a core's requests, the server mailbox that takes messages in
// arrival order, replies accepted in place of a grant, and the argument
// checks of remote atomics. One elaboration per test case.
#include <catch2/catch.hpp>

#include <deque>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/core/ndp_core.h"
#include "models/protocol/tlm/syncron_extension.h"
#include "models/schemes/message_client.h"
#include "testbenches/tests/core_test_helpers.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using sc_core::sc_time;

namespace {

using syncron::test::ns;

/// The core's bus target: records every message (address, message, arrival)
/// and answers each req_sync with `reply` (or its grant) 50 ns later.
class Recorder : public sc_core::sc_module {
public:
    struct Seen {
        uint64_t addr;
        Message msg;
        sc_time at;
    };
    tlm_utils::simple_target_socket<Recorder> in;
    tlm_utils::simple_initiator_socket<Recorder> out; ///< to the core's mailbox
    std::vector<Seen> seen;
    std::optional<Opcode> reply; ///< instead of the grant

    SC_HAS_PROCESS(Recorder);
    explicit Recorder(sc_core::sc_module_name n) : sc_module(n), in("in"), out("out") {
        in.register_b_transport(this, &Recorder::b_transport);
        SC_THREAD(replies);
    }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
        const auto* ext = t.get_extension<SyncronExtension>();
        REQUIRE(ext);
        seen.push_back({t.get_address(), ext->msg, sc_core::sc_time_stamp() + delay});
        if (is_sync_request(ext->msg.op)) {
            m_due.push_back(seen.back());
            m_wake.notify(sc_core::SC_ZERO_TIME);
        }
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    void replies() {
        for (;;) {
            while (m_due.empty()) wait(m_wake);
            const Seen s = m_due.front();
            m_due.pop_front();
            wait(s.at + ns(50) - sc_core::sc_time_stamp());
            Message m = s.msg;
            m.op = reply ? *reply : grant_of(s.msg.op);
            sc_time d = sc_core::SC_ZERO_TIME;
            syncron::test::write_message(out, m, d);
        }
    }
    std::deque<Seen> m_due;
    sc_core::sc_event m_wake;
};

/// Writes scripted messages into a mailbox at given annotated times, in the
/// order given (not the order of the times).
class Sender : public sc_core::sc_module {
public:
    struct Item {
        Opcode op;
        sc_time at;
    };
    tlm_utils::simple_initiator_socket<Sender> out;
    std::vector<Item> script;
    std::vector<tlm::tlm_response_status> statuses;

    SC_HAS_PROCESS(Sender);
    explicit Sender(sc_core::sc_module_name n) : sc_module(n), out("out") { SC_THREAD(run); }

private:
    void run() {
        for (size_t i = 0; i < script.size(); ++i) {
            Message m;
            m.addr = 0x1000 + 0x40 * i;
            m.op = script[i].op;
            sc_time d = script[i].at - sc_core::sc_time_stamp(); // decoupled: annotated, not waited
            statuses.push_back(syncron::test::write_message(out, m, d, Endpoint::core(1, static_cast<unsigned>(i))));
        }
    }
};

/// Takes anything.
class NullTarget : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<NullTarget> in;
    explicit NullTarget(sc_core::sc_module_name n) : sc_module(n), in("in") {
        in.register_b_transport(this, &NullTarget::b_transport);
    }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_time&) { t.set_response_status(tlm::TLM_OK_RESPONSE); }
};

struct CoreBench {
    MemoryParams mem;
    AddressMap map{4, 16, mem};
    NdpCore core{"core", 2, 3, 33, CoreParams{}, map, nullptr};
    std::unique_ptr<SyncClient> client = test::inject_syncron(core);
    Recorder rec{"rec"};
    CoreBench() {
        core.bus.bind(rec.in);
        rec.out.bind(core.mailbox);
    }
};

/// Records SC_ERROR reports instead of throwing.
std::vector<std::string> g_errors;
void capture(const sc_core::sc_report& r, const sc_core::sc_actions&) {
    if (r.get_severity() == sc_core::SC_ERROR) g_errors.push_back(r.get_msg());
}

} // namespace

TEST_CASE("core services: the flat client sends to the Master SE with the core's flat index", "[core][schemes]") {
    CoreBench b;
    const auto client = MessageClient::flat(b.map);
    b.core.set_sync_client(client.get());
    const uint64_t lock = b.map.unit_base(1) + 0x10000; // homed in unit 1
    b.core.set_program([&](CoreApi& c) {
        c.lock_acquire(lock);
        c.lock_release(lock);
    });
    sc_core::sc_start();
    REQUIRE(b.rec.seen.size() == 2);
    for (const auto& s : b.rec.seen) {
        CHECK(s.addr == b.map.se_address(1)); // not the core's own SE (unit 2)
        CHECK(s.msg.core == 2 * 16 + 3);
        CHECK(s.msg.se == 2);
    }
    CHECK(b.rec.seen[0].msg.op == Opcode::lock_acquire_local);
    CHECK(b.core.done());
}

namespace {
void table2_pair(CoreApi& c) {
    c.sem_post(0x20000);
    c.barrier_wait_across_units(0x20040, 60);
}
} // namespace

TEST_CASE("core services: the central client sends to the system's server core", "[core][schemes]") {
    CoreBench b;
    const auto central = MessageClient::central(b.map, 0, 15);
    b.core.set_sync_client(central.get());
    b.core.set_program(table2_pair);
    sc_core::sc_start();
    REQUIRE(b.rec.seen.size() == 2);
    for (const auto& s : b.rec.seen) CHECK(s.addr == b.map.mailbox_address(0, 15));
    CHECK(b.rec.seen[0].msg.core == 2 * 16 + 3); // the system-wide server knows cores by flat index
    CHECK(b.rec.seen[1].msg.info == 60);
    CHECK(b.core.done());
}

TEST_CASE("core services: the hier client sends to its own unit's server core", "[core][schemes]") {
    CoreBench b;
    const auto hier = MessageClient::hier(b.map, [](unsigned) { return 15u; });
    b.core.set_sync_client(hier.get());
    b.core.set_program(table2_pair);
    sc_core::sc_start();
    REQUIRE(b.rec.seen.size() == 2);
    for (const auto& s : b.rec.seen) CHECK(s.addr == b.map.mailbox_address(2, 15));
    CHECK(b.rec.seen[0].msg.core == 3);
    CHECK(b.core.done());
}

TEST_CASE("core services: exchange accepts the alternative reply and returns it", "[core][schemes]") {
    CoreBench b;
    b.rec.reply = Opcode::abort_local;
    std::optional<Message> got;
    sc_time when;
    b.core.set_program([&](CoreApi&) {
        got = b.core.exchange(b.map.se_address(2), b.core.message(Opcode::lock_acquire_local, 0x3000),
                              Opcode::lock_grant_local, Opcode::abort_local);
        when = sc_core::sc_time_stamp();
    });
    sc_core::sc_start();
    REQUIRE(got);
    CHECK(got->op == Opcode::abort_local);
    CHECK(got->addr == 0x3000);
    CHECK(when == ns(50)); // the reply's arrival is the core's time
}

TEST_CASE("core services: a server mailbox hands messages out in arrival order", "[core][schemes][server]") {
    MemoryParams mem;
    AddressMap map(4, 16, mem);
    NdpCore server("server", 0, 15, 60, CoreParams{}, map, nullptr);
    // The server's bus goes to a recorder (nothing is sent here; every
    // socket must be bound).
    Recorder sink("sink");
    NullTarget null("null");
    Sender sender("sender");
    server.bus.bind(sink.in);
    sink.out.bind(null.in);
    sender.out.bind(server.mailbox);
    server.set_server_mailbox(true);
    // Written in this order, stamped out of order: the mailbox must sort them.
    sender.script = {
        {Opcode::lock_acquire_local, ns(30)}, {Opcode::sem_post_local, ns(10)}, {Opcode::cond_signal_local, ns(20)}};
    std::vector<std::pair<Opcode, sc_time>> taken;
    server.set_program([&](CoreApi&) {
        for (int i = 0; i < 3; ++i) {
            const NdpCore::Received r = server.receive();
            taken.emplace_back(r.msg.op, sc_core::sc_time_stamp());
            CHECK(r.src.kind == Endpoint::Kind::core);
            CHECK(r.src.unit == 1);
            server.compute(25); // 10 ns of handling
        }
    });
    sc_core::sc_start();
    CHECK(sender.statuses == std::vector<tlm::tlm_response_status>(3, tlm::TLM_OK_RESPONSE));
    REQUIRE(taken.size() == 3);
    CHECK(taken[0].first == Opcode::sem_post_local);
    CHECK(taken[0].second == ns(10));
    CHECK(taken[1].first == Opcode::cond_signal_local);
    CHECK(taken[1].second == ns(20)); // busy until 20 ns with the first
    CHECK(taken[2].first == Opcode::lock_acquire_local);
    CHECK(taken[2].second == ns(30));
    CHECK(server.stats().messages_received[static_cast<unsigned>(Opcode::sem_post_local)] == 1);
}

TEST_CASE("core services: remote atomics of a bad size or alignment are reported, not sent",
          "[core][schemes][errors]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture);
    CoreBench b;
    b.core.set_program([&](CoreApi&) {
        b.core.atomic(AtomicOp::cas, 0x1000, 1, 0, 3);
        b.core.atomic(AtomicOp::faa, 0x1004, 1, 0, 8);
    });
    sc_core::sc_start();
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    REQUIRE(g_errors.size() == 2);
    CHECK_THAT(g_errors[0], Catch::Contains("cas") && Catch::Contains("only 4 and 8 bytes"));
    CHECK_THAT(g_errors[1], Catch::Contains("faa") && Catch::Contains("0x1004") && Catch::Contains("not aligned"));
    CHECK(b.rec.seen.empty());
    CHECK(b.core.stats().atomics[0] == 0);
}

TEST_CASE("core services: a core the platform gave no scheme reports its Table 2 calls", "[core][schemes][errors]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture);
    CoreBench b;
    b.core.set_sync_client(nullptr); // as built, before the platform injects a scheme
    b.core.set_program([&](CoreApi& c) { c.lock_acquire(0x3000); });
    sc_core::sc_start();
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    REQUIRE(g_errors.size() == 1);
    CHECK_THAT(g_errors[0],
               Catch::Contains("core: lock_acquire_local for 0x3000") && Catch::Contains("no synchronization scheme"));
    CHECK(b.rec.seen.empty());
    CHECK(b.core.done());
}
