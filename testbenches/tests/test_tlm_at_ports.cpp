// The AT engine (models/tlm/at_target_port.h, at_initiator_port.h) under the
// project's ProtocolChecker: a small target built on AtTargetPort (a queue of
// `depth` requests served one per `service`, END_REQ withheld while full) and
// a small initiator built on AtInitiatorPort, in every combination of direct
// and deferred phases, single- and multi-socket, with initiators that end the
// response late and targets that answer on the return path. Each TEST_CASE
// elaborates its own design and calls sc_start once (ctest runs every case in
// its own process); the test asserts after sc_start returns.
#include <catch2/catch.hpp>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/tlm/at_initiator_port.h"
#include "models/tlm/at_target_port.h"
#include "models/tlm/payload_pool.h"
#include "models/tlm/protocol_checker.h"
#include "testbenches/tests/at_script_initiator.h"

using namespace syncron;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

namespace {

sc_time ns(double v) { return sc_time(v, sc_core::SC_NS); }

struct QuietChecker : ProtocolChecker {
    explicit QuietChecker(const sc_core::sc_module_name& n) : ProtocolChecker(n) {
        ProtocolChecker::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY);
    }
};

/// A target on AtTargetPort over a multi-socket: requests enter a FIFO of
/// `depth` (END_REQ withheld while full), one is served every `service`, its
/// response goes back on the socket it came from.
class QueueTarget : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<QueueTarget> socket;
    std::vector<sc_time> served; ///< when each request left the queue
    unsigned withheld = 0;

    SC_HAS_PROCESS(QueueTarget);
    QueueTarget(const sc_core::sc_module_name& n, unsigned depth, sc_time service, AtTargetPort::Options opt)
        : sc_module(n), socket("socket"), m_depth(depth), m_service(service),
          m_port(
              *this, "port_peq",
              [this](unsigned i, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                  return socket[static_cast<int>(i)]->nb_transport_bw(t, p, d);
              },
              {[this](unsigned i, tlm::tlm_generic_payload& t) { request(i, t); }, nullptr}, opt) {
        socket.register_nb_transport_fw(this, &QueueTarget::nb_transport_fw);
        SC_THREAD(serve);
    }
    std::size_t in_flight() const { return m_port.in_flight(); }

private:
    tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
        return m_port.nb_transport_fw(static_cast<unsigned>(id), t, p, d);
    }
    void request(unsigned i, tlm::tlm_generic_payload& t) {
        if (m_queue.size() >= m_depth) {
            ++withheld;
            m_waiting.push_back({i, &t});
            return;
        }
        m_queue.push_back({i, &t});
        m_port.accept(i, t);
        m_kick.notify();
    }
    void serve() {
        for (;;) {
            while (m_queue.empty()) wait(m_kick);
            wait(m_service);
            const Entry e = m_queue.front();
            m_queue.pop_front();
            served.push_back(sc_core::sc_time_stamp());
            e.trans->set_response_status(tlm::TLM_OK_RESPONSE);
            m_port.respond(e.index, *e.trans);
            if (!m_waiting.empty()) {
                const Entry w = m_waiting.front();
                m_waiting.pop_front();
                m_queue.push_back(w);
                m_port.accept(w.index, *w.trans);
            }
        }
    }

    struct Entry {
        unsigned index;
        tlm::tlm_generic_payload* trans;
    };
    unsigned m_depth;
    sc_time m_service;
    std::deque<Entry> m_queue, m_waiting;
    sc_core::sc_event m_kick;
    AtTargetPort m_port;
};

/// An initiator on AtInitiatorPort: sends `count` writes back to back (the
/// next once the previous request phase has ended) and records the times.
class PortInitiator : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<PortInitiator> socket;
    std::vector<sc_time> end_req, responses;

    SC_HAS_PROCESS(PortInitiator);
    PortInitiator(const sc_core::sc_module_name& n, unsigned count, AtInitiatorPort::Options opt)
        : sc_module(n), socket("socket"), m_count(count),
          m_port(
              *this, "port_peq",
              [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                  return socket->nb_transport_fw(t, p, d);
              },
              {[this](unsigned, tlm::tlm_generic_payload&) {
                   end_req.push_back(sc_core::sc_time_stamp());
                   m_ready.notify();
               },
               [this](unsigned, tlm::tlm_generic_payload& t) {
                   responses.push_back(sc_core::sc_time_stamp());
                   if (t.is_response_error()) ++errors;
                   t.release();
               }},
              opt) {
        socket.register_nb_transport_bw(this, &PortInitiator::nb_transport_bw);
        SC_THREAD(run);
    }
    unsigned errors = 0;
    std::size_t in_flight() const { return m_port.in_flight(); }
    std::size_t pool_in_use() const { return m_pool.in_use(); }

private:
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
        return m_port.nb_transport_bw(0, t, p, d);
    }
    void run() {
        for (unsigned k = 0; k < m_count; ++k) {
            while (m_port.request_open(0)) wait(m_ready);
            tlm::tlm_generic_payload& t = m_pool.acquire();
            t.set_command(tlm::TLM_WRITE_COMMAND);
            t.set_address(64 * k);
            t.set_data_length(8);
            t.set_streaming_width(8);
            m_port.send(0, t);
        }
    }
    unsigned m_count;
    PayloadPool m_pool;
    sc_core::sc_event m_ready;
    AtInitiatorPort m_port;
};

/// A target answering on the return path: TLM_COMPLETED (early completion)
/// or TLM_UPDATED/BEGIN_RESP, with an annotated delay.
class ReturnTarget : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<ReturnTarget> socket;
    bool complete = true;
    sc_time delay = ns(5);
    unsigned end_resps = 0;

    explicit ReturnTarget(const sc_core::sc_module_name& n) : sc_module(n), socket("socket") {
        socket.register_nb_transport_fw(this, &ReturnTarget::nb_transport_fw);
    }

private:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
        if (p == tlm::END_RESP) {
            ++end_resps;
            return tlm::TLM_COMPLETED;
        }
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        d += delay;
        if (complete) return tlm::TLM_COMPLETED;
        p = tlm::BEGIN_RESP;
        return tlm::TLM_UPDATED;
    }
};

struct Bench {
    std::vector<std::unique_ptr<sc_core::sc_module>> keep;
    std::vector<QuietChecker*> checkers;
    template <class I, class T> void bind(I& initiator_socket, T& target_socket, const std::string& name) {
        auto* c = new QuietChecker(name.c_str());
        keep.emplace_back(c);
        checkers.push_back(c);
        initiator_socket.bind(c->target);
        c->initiator.bind(target_socket);
    }
    uint64_t violations() const {
        uint64_t n = 0;
        for (const auto* c : checkers) n += c->violations();
        return n;
    }
};

void engine_pair(bool defer_target, bool defer_initiator) {
    Bench b;
    QueueTarget target("target", 2, ns(10), AtTargetPort::Options{defer_target, false});
    PortInitiator init("init", 6, AtInitiatorPort::Options{defer_initiator});
    b.bind(init.socket, target.socket, "check");
    sc_core::sc_start();
    CHECK(b.violations() == 0);
    REQUIRE(init.responses.size() == 6);
    REQUIRE(target.served.size() == 6);
    for (unsigned k = 0; k < 6; ++k) {
        CHECK(target.served[k] == ns(10) * (k + 1));
        CHECK(init.responses[k] == target.served[k]); // BEGIN_RESP at once, completed at once
    }
    // Two requests fit the queue at time 0; the third waits for a slot
    // (END_REQ withheld), each further one for the next service.
    CHECK(init.end_req[0] == SC_ZERO_TIME);
    CHECK(init.end_req[1] == SC_ZERO_TIME);
    CHECK(init.end_req[2] == ns(10));
    CHECK(init.end_req[5] == ns(40));
    CHECK(target.withheld == 4);
    CHECK(target.in_flight() == 0);
    CHECK(init.in_flight() == 0);
    CHECK(init.pool_in_use() == 0);
}

} // namespace

TEST_CASE("tlm: AT ports: back-pressure and responses with direct phases", "[tlm][at]") { engine_pair(false, false); }

TEST_CASE("tlm: AT ports: back-pressure and responses with deferred phases", "[tlm][at]") { engine_pair(true, true); }

TEST_CASE("tlm: AT target port: multi-socket with a delayed BEGIN_REQ and a late END_RESP", "[tlm][at]") {
    Bench b;
    QueueTarget target("target", 4, ns(10), AtTargetPort::Options{});
    using test::AtScriptInitiator;
    AtScriptInitiator a("a", [](AtScriptInitiator& i) {
        i.write(0, std::vector<uint8_t>(8, 1), ns(3)); // through the queue
        i.write(64, std::vector<uint8_t>(8, 2));
    });
    AtScriptInitiator c("c", [](AtScriptInitiator& i) { i.write(128, std::vector<uint8_t>(8, 3)); });
    a.end_resp_delay = ns(25); // holds each response phase open for 25 ns
    b.bind(a.socket, target.socket, "check_a");
    b.bind(c.socket, target.socket, "check_c");
    sc_core::sc_start();
    CHECK(b.violations() == 0);
    REQUIRE(a.txns.size() == 2);
    REQUIRE(c.txns.size() == 1);
    CHECK(a.txns[0].end_req == ns(3)); // accepted at its effective time
    CHECK(c.txns[0].end_req == SC_ZERO_TIME);
    CHECK(c.txns[0].begin_resp == ns(10));
    CHECK(a.txns[0].begin_resp == ns(20));
    // Served at 30 ns, but a's response phase stays open until 20 + 25 ns.
    CHECK(a.txns[1].begin_resp == ns(45));
    CHECK(target.in_flight() == 0);
}

TEST_CASE("tlm: AT initiator port: early completion and TLM_UPDATED/BEGIN_RESP", "[tlm][at]") {
    Bench b;
    PortInitiator early("early", 3, AtInitiatorPort::Options{});
    ReturnTarget t1("t1");
    PortInitiator updated("updated", 3, AtInitiatorPort::Options{true});
    ReturnTarget t2("t2");
    t2.complete = false;
    b.bind(early.socket, t1.socket, "check_early");
    b.bind(updated.socket, t2.socket, "check_updated");
    sc_core::sc_start();
    CHECK(b.violations() == 0);
    REQUIRE(early.responses.size() == 3);
    REQUIRE(updated.responses.size() == 3);
    for (unsigned k = 0; k < 3; ++k) {
        CHECK(early.responses[k] == ns(5) * (k + 1)); // each request after the previous one ended
        CHECK(updated.responses[k] == ns(5) * (k + 1));
    }
    CHECK(t1.end_resps == 0);
    CHECK(t2.end_resps == 3); // a response on the return path is ended with END_RESP
    CHECK(early.pool_in_use() == 0);
    CHECK(updated.pool_in_use() == 0);
}

TEST_CASE("tlm: AT target port: accept at once", "[tlm][at]") {
    Bench b;
    QueueTarget target("target", 8, ns(10), AtTargetPort::Options{false, true});
    PortInitiator init("init", 3, AtInitiatorPort::Options{});
    b.bind(init.socket, target.socket, "check");
    sc_core::sc_start();
    CHECK(b.violations() == 0);
    REQUIRE(init.end_req.size() == 3);
    for (const sc_time& t : init.end_req) CHECK(t == SC_ZERO_TIME); // END_REQ on the return path
    REQUIRE(init.responses.size() == 3);
    CHECK(init.responses[2] == ns(30));
}
