// TLM-2.0 base-protocol checker (models/tlm/protocol_checker.h). A
// well-behaved AT initiator/target pair, LT b_transport and debug transport
// pass through the checker without a violation; then one deliberately
// misbehaving initiator or target per rule must give exactly one violation of
// that rule. Each TEST_CASE elaborates its own design and calls sc_start once
// (ctest runs every case in its own process); assertions follow sc_start.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/memory/backing_store.h"
#include "models/protocol/tlm/atomic_extension.h"
#include "models/tlm/payload_fill.h"
#include "models/tlm/payload_pool.h"
#include "models/tlm/protocol_checker.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using syncron::test::ns;
using syncron::test::RecordingTarget;
using syncron::test::ScriptInitiator;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;
using tlm::tlm_phase;
using tlm::tlm_sync_enum;

TLM_DECLARE_EXTENDED_PHASE(CHECKER_TEST_PHASE);

namespace {

// ------------------------------------------------------------------ reports

/// Records the checker's reports instead of letting them throw; every other
/// report goes to the default handler.
struct ReportCapture {
    struct Entry {
        std::string type;
        std::string msg;
    };
    static std::vector<Entry>& entries() {
        static std::vector<Entry> e;
        return e;
    }
    static void handler(const sc_core::sc_report& r, const sc_core::sc_actions& a) {
        const std::string type = r.get_msg_type();
        if (type.rfind("/syncron/check/", 0) == 0) {
            entries().push_back({type, r.get_msg()});
            return;
        }
        sc_core::sc_report_handler::default_handler(r, a);
    }
    ReportCapture() { sc_core::sc_report_handler::set_handler(&handler); }
    ~ReportCapture() { sc_core::sc_report_handler::set_handler(&sc_core::sc_report_handler::default_handler); }
};

std::string all_messages(const ProtocolChecker& c) {
    std::string s;
    for (const auto& m : c.messages()) s += m + "\n";
    return s;
}

/// Exactly one violation, of `rule`, reported under its message type and
/// with a message that starts "<checker name>: <rule>: ".
void require_single(const ProtocolChecker& c, const std::string& rule) {
    INFO(all_messages(c));
    REQUIRE(c.violations(rule) == 1);
    REQUIRE(c.violations() == 1);
    REQUIRE(c.messages().size() == 1);
    CHECK(c.messages()[0].rfind(std::string(c.name()) + ": " + rule + ": ", 0) == 0);
    REQUIRE(ReportCapture::entries().size() == 1);
    CHECK(ReportCapture::entries()[0].type == "/syncron/check/" + rule);
    CHECK(ReportCapture::entries()[0].msg == c.messages()[0]);
}

uint64_t value_for(unsigned i) { return 0x0123456789abcdefull ^ (uint64_t(i) * 0x9e3779b97f4a7c15ull); }

// ------------------------------------------------------------------ well-behaved AT pair

/// AT initiator following docs/timing.md: pooled payloads, at most
/// `max_outstanding` transactions in flight, a new BEGIN_REQ only after the
/// previous END_REQ, every phase taking effect through a PEQ. It writes `n`
/// 8-byte values, drains, reads them back and counts mismatches. BEGIN_RESP
/// is answered in turn with TLM_COMPLETED, TLM_UPDATED/END_RESP and
/// TLM_ACCEPTED followed by END_RESP on the forward path.
class AtInitiator : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<AtInitiator> socket;

    SC_HAS_PROCESS(AtInitiator);
    AtInitiator(const sc_core::sc_module_name& name, unsigned n, unsigned max_outstanding, uint64_t base = 0)
        : sc_module(name), socket("socket"), m_n(n), m_max(max_outstanding), m_base(base),
          m_peq(this, &AtInitiator::peq_cb) {
        socket.register_nb_transport_bw(this, &AtInitiator::nb_transport_bw);
        SC_THREAD(run);
    }

    unsigned completed() const { return m_completed; }
    unsigned mismatches() const { return m_mismatches; }
    unsigned errors() const { return m_errors; }
    bool done() const { return m_done; }
    const sc_time& finish_time() const { return m_finish; }
    const PayloadPool& pool() const { return m_pool; }

private:
    struct Pending {
        unsigned index = 0;
        bool must_end_resp = false;
    };

    void run() {
        for (tlm::tlm_command cmd : {tlm::TLM_WRITE_COMMAND, tlm::TLM_READ_COMMAND}) {
            for (unsigned i = 0; i < m_n; ++i) {
                while (m_outstanding >= m_max) wait(m_done_one);
                issue(cmd, i);
            }
            while (m_outstanding > 0) wait(m_done_one);
        }
        m_finish = sc_core::sc_time_stamp();
        m_done = true;
    }

    void issue(tlm::tlm_command cmd, unsigned i) {
        tlm_generic_payload& t = m_pool.acquire();
        t.set_command(cmd);
        t.set_address(m_base + 8ull * i);
        t.set_data_length(8);
        t.set_streaming_width(8);
        const uint64_t v = cmd == tlm::TLM_WRITE_COMMAND ? value_for(i) : 0;
        std::memcpy(t.get_data_ptr(), &v, 8);
        m_pending[&t] = Pending{i, false};
        m_req = &t;
        ++m_outstanding;
        tlm_phase ph = tlm::BEGIN_REQ;
        sc_time d = ns(i % 3);
        switch (socket->nb_transport_fw(t, ph, d)) {
        case tlm::TLM_ACCEPTED:
            while (m_req == &t) wait(m_end_req);
            break;
        case tlm::TLM_UPDATED:
            if (ph == tlm::END_REQ) {
                m_req = nullptr;
                wait(d);
            } else if (ph == tlm::BEGIN_RESP) {
                m_req = nullptr;
                m_pending[&t].must_end_resp = true;
                m_peq.notify(t, ph, d);
                wait(d);
            } else {
                ++m_errors;
            }
            break;
        case tlm::TLM_COMPLETED:
            m_req = nullptr;
            m_peq.notify(t, tlm::BEGIN_RESP, d);
            wait(d);
            break;
        }
    }

    tlm_sync_enum nb_transport_bw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
        if (ph == tlm::END_REQ) {
            m_peq.notify(t, ph, d);
            return tlm::TLM_ACCEPTED;
        }
        if (ph != tlm::BEGIN_RESP) {
            ++m_errors;
            return tlm::TLM_ACCEPTED;
        }
        Pending& p = m_pending.at(&t);
        m_peq.notify(t, ph, d);
        switch (m_responses++ % 3) {
        case 0: return tlm::TLM_COMPLETED;
        case 1:
            ph = tlm::END_RESP;
            d += ns(1);
            return tlm::TLM_UPDATED;
        default: p.must_end_resp = true; return tlm::TLM_ACCEPTED;
        }
    }

    void peq_cb(tlm_generic_payload& t, const tlm_phase& ph) {
        if (m_req == &t) { // END_REQ, or BEGIN_RESP implying it
            m_req = nullptr;
            m_end_req.notify();
        }
        if (ph != tlm::BEGIN_RESP) return;
        auto it = m_pending.find(&t);
        if (it == m_pending.end()) {
            ++m_errors;
            return;
        }
        if (!t.is_response_ok()) ++m_errors;
        if (t.is_read()) {
            uint64_t v = 0;
            std::memcpy(&v, t.get_data_ptr(), 8);
            if (v != value_for(it->second.index)) ++m_mismatches;
        }
        if (it->second.must_end_resp) {
            tlm_phase e = tlm::END_RESP;
            sc_time d = ns(1);
            const tlm_sync_enum s = socket->nb_transport_fw(t, e, d);
            if (s == tlm::TLM_UPDATED) ++m_errors;
        }
        m_pending.erase(it);
        t.release();
        --m_outstanding;
        ++m_completed;
        m_done_one.notify();
    }

    unsigned m_n, m_max;
    uint64_t m_base;
    PayloadPool m_pool;
    tlm_utils::peq_with_cb_and_phase<AtInitiator> m_peq;
    std::unordered_map<tlm_generic_payload*, Pending> m_pending;
    tlm_generic_payload* m_req = nullptr; ///< in its request phase
    sc_core::sc_event m_end_req, m_done_one;
    unsigned m_outstanding = 0, m_responses = 0, m_completed = 0, m_mismatches = 0, m_errors = 0;
    bool m_done = false;
    sc_time m_finish;
};

/// AT memory target: acquires each payload it keeps, accepts requests in turn
/// with TLM_UPDATED/END_REQ, TLM_ACCEPTED then END_REQ on the backward path,
/// and TLM_UPDATED/BEGIN_RESP (when no response is pending); responds
/// `latency` after acceptance, one response phase at a time. Also serves
/// b_transport and transport_dbg.
class AtTarget : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<AtTarget> socket;

    AtTarget(const sc_core::sc_module_name& name, sc_time latency = ns(10), sc_time accept = ns(2))
        : sc_module(name), socket("socket"), m_latency(latency), m_accept(accept), m_peq(this, &AtTarget::peq_cb),
          m_ready(this, &AtTarget::ready_cb) {
        socket.register_nb_transport_fw(this, &AtTarget::nb_transport_fw);
        socket.register_b_transport(this, &AtTarget::b_transport);
        socket.register_transport_dbg(this, &AtTarget::transport_dbg);
    }

    unsigned errors() const { return m_errors; }
    uint64_t requests() const { return m_requests; }
    /// Requests answered at once with TLM_UPDATED/BEGIN_RESP.
    uint64_t early_responses() const { return m_early; }

private:
    tlm_sync_enum nb_transport_fw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
        if (ph == tlm::BEGIN_REQ) {
            if (t.has_mm()) t.acquire();
            const unsigned style = m_requests++ % 3;
            if (style == 2 && m_resp == nullptr && m_queue.empty()) {
                access(t);
                ph = tlm::BEGIN_RESP;
                d += m_latency;
                m_resp = &t;
                ++m_early;
                return tlm::TLM_UPDATED;
            }
            if (style == 0) {
                ph = tlm::END_REQ;
                d += m_accept;
                m_ready.notify(t, tlm::BEGIN_RESP, d + m_latency);
                return tlm::TLM_UPDATED;
            }
            m_peq.notify(t, ph, d);
            return tlm::TLM_ACCEPTED;
        }
        if (ph == tlm::END_RESP) {
            m_peq.notify(t, ph, d);
            return tlm::TLM_COMPLETED;
        }
        ++m_errors;
        return tlm::TLM_COMPLETED;
    }

    void peq_cb(tlm_generic_payload& t, const tlm_phase& ph) {
        if (ph == tlm::BEGIN_REQ) {
            tlm_phase e = tlm::END_REQ;
            sc_time d = m_accept;
            if (socket->nb_transport_bw(t, e, d) != tlm::TLM_ACCEPTED) ++m_errors;
            m_ready.notify(t, tlm::BEGIN_RESP, m_accept + m_latency);
        } else if (ph == tlm::END_RESP) {
            if (m_resp == &t)
                m_resp = nullptr;
            else
                ++m_errors;
            release(t);
            try_send();
        }
    }

    void ready_cb(tlm_generic_payload& t, const tlm_phase&) {
        access(t);
        m_queue.push_back(&t);
        try_send();
    }

    void try_send() {
        while (m_resp == nullptr && !m_queue.empty()) {
            tlm_generic_payload* t = m_queue.front();
            m_queue.pop_front();
            tlm_phase ph = tlm::BEGIN_RESP;
            sc_time d = SC_ZERO_TIME;
            const tlm_sync_enum s = socket->nb_transport_bw(*t, ph, d);
            if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::END_RESP))
                release(*t);
            else
                m_resp = t;
        }
    }

    static void release(tlm_generic_payload& t) {
        if (t.has_mm()) t.release();
    }

    void access(tlm_generic_payload& t) {
        if (t.is_read())
            m_store.read(t.get_address(), t.get_data_ptr(), t.get_data_length());
        else if (t.is_write())
            m_store.write(t.get_address(), t.get_data_ptr(), t.get_data_length());
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }

    void b_transport(tlm_generic_payload& t, sc_time& d) {
        access(t);
        d += m_latency;
    }
    unsigned transport_dbg(tlm_generic_payload& t) {
        access(t);
        return t.get_data_length();
    }

    sc_time m_latency, m_accept;
    tlm_utils::peq_with_cb_and_phase<AtTarget> m_peq, m_ready;
    std::deque<tlm_generic_payload*> m_queue;
    tlm_generic_payload* m_resp = nullptr; ///< in its response phase
    BackingStore m_store;
    uint64_t m_requests = 0, m_early = 0;
    unsigned m_errors = 0;
};

// ------------------------------------------------------------------ scriptable raw modules

/// Initiator driven by a script, with a scriptable backward path. By default
/// it records what comes back and answers BEGIN_RESP with TLM_COMPLETED.
class RawInitiator : public sc_core::sc_module {
public:
    using Script = std::function<void(RawInitiator&)>;
    using BwHandler = std::function<tlm_sync_enum(tlm_generic_payload&, tlm_phase&, sc_time&)>;

    tlm_utils::simple_initiator_socket<RawInitiator> socket;
    PayloadPool pool;
    BwHandler on_bw;
    std::vector<tlm_phase> bw_phases;
    std::vector<std::pair<uint64_t, uint64_t>> invalidations;
    sc_core::sc_event bw_event;

    SC_HAS_PROCESS(RawInitiator);
    RawInitiator(const sc_core::sc_module_name& name, Script script)
        : sc_module(name), socket("socket"), m_script(std::move(script)) {
        socket.register_nb_transport_bw(this, &RawInitiator::nb_transport_bw);
        socket.register_invalidate_direct_mem_ptr(this, &RawInitiator::invalidate);
        SC_THREAD(run);
    }

    /// A pooled payload (reference count 1) set up for an 8-byte access.
    tlm_generic_payload& make(tlm::tlm_command cmd, uint64_t addr) {
        tlm_generic_payload& t = pool.acquire();
        setup(t, cmd, addr, t.get_data_ptr(), 8);
        return t;
    }
    static void setup(tlm_generic_payload& t, tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
        fill_payload(t, cmd, addr, data, len);
    }
    tlm_sync_enum fw(tlm_generic_payload& t, tlm_phase ph, sc_time d = SC_ZERO_TIME) {
        return socket->nb_transport_fw(t, ph, d);
    }
    void wait_bw(size_t n) {
        while (bw_phases.size() < n) wait(bw_event);
    }

private:
    void run() { m_script(*this); }
    tlm_sync_enum nb_transport_bw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
        bw_phases.push_back(ph);
        bw_event.notify();
        if (on_bw) return on_bw(t, ph, d);
        return ph == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
    }
    void invalidate(sc_dt::uint64 s, sc_dt::uint64 e) { invalidations.emplace_back(s, e); }

    Script m_script;
};

/// Target with scriptable callbacks and an optional script thread for the
/// backward path. Defaults: BEGIN_REQ is recorded and TLM_ACCEPTED, END_RESP
/// TLM_COMPLETED, other phases TLM_ACCEPTED; b_transport sets TLM_OK_RESPONSE
/// and adds 1 ns; transport_dbg returns the data length; DMI is denied.
class RawTarget : public sc_core::sc_module {
public:
    using Script = std::function<void(RawTarget&)>;
    using FwHandler = std::function<tlm_sync_enum(tlm_generic_payload&, tlm_phase&, sc_time&)>;

    tlm_utils::simple_target_socket<RawTarget> socket;
    FwHandler on_fw;
    std::function<void(tlm_generic_payload&, sc_time&)> on_b;
    std::function<unsigned(tlm_generic_payload&)> on_dbg;
    std::vector<tlm_generic_payload*> requests;
    sc_core::sc_event request_event;

    SC_HAS_PROCESS(RawTarget);
    explicit RawTarget(const sc_core::sc_module_name& name, Script script = {})
        : sc_module(name), socket("socket"), m_script(std::move(script)) {
        socket.register_nb_transport_fw(this, &RawTarget::nb_transport_fw);
        socket.register_b_transport(this, &RawTarget::b_transport);
        socket.register_transport_dbg(this, &RawTarget::transport_dbg);
        socket.register_get_direct_mem_ptr(this, &RawTarget::get_direct_mem_ptr);
        if (m_script) SC_THREAD(run);
    }

    tlm_sync_enum bw(tlm_generic_payload& t, tlm_phase ph, sc_time d = SC_ZERO_TIME) {
        return socket->nb_transport_bw(t, ph, d);
    }
    void wait_requests(size_t n) {
        while (requests.size() < n) wait(request_event);
    }
    /// END_REQ then (after `gap`) BEGIN_RESP with TLM_OK_RESPONSE.
    void respond(tlm_generic_payload& t, sc_time gap = ns(5), bool end_req = true) {
        if (end_req) bw(t, tlm::END_REQ);
        wait(gap);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        bw(t, tlm::BEGIN_RESP);
    }

private:
    void run() { m_script(*this); }
    tlm_sync_enum nb_transport_fw(tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
        if (ph == tlm::BEGIN_REQ) {
            requests.push_back(&t);
            request_event.notify();
        }
        if (on_fw) return on_fw(t, ph, d);
        return ph == tlm::END_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
    }
    void b_transport(tlm_generic_payload& t, sc_time& d) {
        if (on_b) return on_b(t, d);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        d += ns(1);
    }
    unsigned transport_dbg(tlm_generic_payload& t) {
        if (on_dbg) return on_dbg(t);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        return t.get_data_length();
    }
    bool get_direct_mem_ptr(tlm_generic_payload&, tlm::tlm_dmi& dmi) {
        dmi.allow_read_write();
        dmi.set_start_address(0);
        dmi.set_end_address(~sc_dt::uint64(0));
        return false;
    }

    Script m_script;
};

/// RawInitiator -> checker -> RawTarget.
struct RawBench {
    ReportCapture capture;
    RawInitiator init;
    ProtocolChecker checker;
    RawTarget target;

    RawBench(RawInitiator::Script is, RawTarget::Script ts = {})
        : init("init", std::move(is)), checker("checker"), target("target", std::move(ts)) {
        init.socket.bind(checker.target);
        checker.initiator.bind(target.socket);
    }
};

/// Target answer: accept BEGIN_REQ at once (TLM_UPDATED/END_REQ).
tlm_sync_enum accept_now(tlm_generic_payload&, tlm_phase& ph, sc_time&) {
    if (ph == tlm::BEGIN_REQ) {
        ph = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    return ph == tlm::END_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
}

/// Target script: respond to each of the first n requests (no END_REQ when the
/// target accepted at once).
RawTarget::Script respond_to(size_t n, bool end_req) {
    return [n, end_req](RawTarget& t) {
        t.wait_requests(n);
        for (size_t k = 0; k < n; ++k) t.respond(*t.requests[k], ns(5), end_req);
    };
}

class NullMM : public tlm::tlm_mm_interface {
public:
    void free(tlm_generic_payload*) override {}
};

} // namespace

// ================================================================== no violations

TEST_CASE("interconnect: checker: well-behaved AT initiator and target pass many transactions without violation",
          "[interconnect][checker][at]") {
    AtInitiator init("init", 150, 4);
    ProtocolChecker checker("checker");
    AtTarget target("target");
    init.socket.bind(checker.target);
    checker.initiator.bind(target.socket);
    sc_core::sc_start();

    INFO(all_messages(checker));
    REQUIRE(init.done());
    CHECK(init.completed() == 300);
    CHECK(init.mismatches() == 0);
    CHECK(init.errors() == 0);
    CHECK(target.errors() == 0);
    CHECK(target.requests() == 300);
    CHECK(target.early_responses() > 0);
    CHECK(init.pool().in_use() == 0);
    CHECK(checker.violations() == 0);
    CHECK(checker.messages().empty());
    CHECK(checker.nb_transactions() == 300);
    CHECK(checker.in_flight() == 0);
}

TEST_CASE("interconnect: checker: is transparent (same results and timing as without it) and checkers chain",
          "[interconnect][checker][at]") {
    AtInitiator plain_init("plain_init", 60, 3);
    AtTarget plain_target("plain_target");
    plain_init.socket.bind(plain_target.socket);

    AtInitiator init("init", 60, 3);
    ProtocolChecker first("first"), second("second");
    AtTarget target("target");
    init.socket.bind(first.target);
    first.initiator.bind(second.target);
    second.initiator.bind(target.socket);
    sc_core::sc_start();

    REQUIRE(plain_init.done());
    REQUIRE(init.done());
    CHECK(init.finish_time() == plain_init.finish_time());
    CHECK(init.completed() == plain_init.completed());
    CHECK(init.mismatches() == 0);
    CHECK(init.errors() == 0);
    CHECK(first.violations() == 0);
    CHECK(second.violations() == 0);
    CHECK(first.nb_transactions() == 120);
    CHECK(second.nb_transactions() == 120);
    CHECK(first.in_flight() == 0);
    CHECK(second.in_flight() == 0);
}

TEST_CASE("interconnect: checker: AT initiator to a b_transport-only target (socket adapter) without violation",
          "[interconnect][checker][at]") {
    AtInitiator init("init", 40, 2);
    ProtocolChecker checker("checker");
    RecordingTarget target("target", ns(7));
    init.socket.bind(checker.target);
    checker.initiator.bind(target.socket);
    sc_core::sc_start();

    INFO(all_messages(checker));
    REQUIRE(init.done());
    CHECK(init.completed() == 80);
    CHECK(init.mismatches() == 0);
    CHECK(init.errors() == 0);
    CHECK(target.transports() == 80);
    CHECK(checker.violations() == 0);
    CHECK(checker.in_flight() == 0);
}

TEST_CASE("interconnect: checker: LT b_transport and transport_dbg and DMI requests pass without violation",
          "[interconnect][checker][lt]") {
    std::vector<uint64_t> got;
    unsigned dbg_bytes = 0;
    bool dmi = true;
    ScriptInitiator init("init", [&](ScriptInitiator& i) {
        sc_time d = SC_ZERO_TIME;
        for (unsigned k = 0; k < 50; ++k) i.write64(0x100 + 8 * k, value_for(k), d);
        for (unsigned k = 0; k < 50; ++k) got.push_back(i.read64(0x100 + 8 * k, d));
        uint64_t v = 0;
        dbg_bytes = i.debug(tlm::TLM_READ_COMMAND, 0x100, reinterpret_cast<uint8_t*>(&v), 8);
        tlm_generic_payload t;
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(0x100);
        tlm::tlm_dmi dmi_data;
        dmi = i.socket->get_direct_mem_ptr(t, dmi_data);
    });
    ProtocolChecker checker("checker");
    RecordingTarget target("target", ns(3));
    init.socket.bind(checker.target);
    checker.initiator.bind(target.socket);
    sc_core::sc_start();

    INFO(all_messages(checker));
    REQUIRE(init.done());
    REQUIRE(got.size() == 50);
    for (unsigned k = 0; k < 50; ++k) CHECK(got[k] == value_for(k));
    CHECK(dbg_bytes == 8);
    CHECK_FALSE(dmi);
    CHECK(checker.violations() == 0);
    CHECK(checker.b_transports() == 100);
    CHECK(checker.debug_transports() == 1);
    CHECK(checker.dmi_requests() == 1);
    CHECK(checker.in_flight() == 0);
    CHECK(target.transports() == 100);
}

TEST_CASE("interconnect: checker: a b_transport target may wait and return a smaller delay",
          "[interconnect][checker][lt]") {
    sc_time end;
    RawBench b([&](RawInitiator& i) {
        uint64_t v = 0;
        tlm_generic_payload t;
        RawInitiator::setup(t, tlm::TLM_READ_COMMAND, 0x80, reinterpret_cast<uint8_t*>(&v), 8);
        sc_time d = ns(20);
        i.socket->b_transport(t, d);
        end = sc_core::sc_time_stamp() + d;
    });
    b.target.on_b = [](tlm_generic_payload& t, sc_time& d) {
        sc_core::wait(d); // synchronise, then continue from "now"
        d = ns(4);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    };
    sc_core::sc_start();
    INFO(all_messages(b.checker));
    CHECK(end == ns(24));
    CHECK(b.checker.violations() == 0);
}

TEST_CASE("interconnect: checker: invalidate_direct_mem_ptr is forwarded to the initiator",
          "[interconnect][checker][dmi]") {
    RawBench b([](RawInitiator&) {}, [](RawTarget& t) { t.socket->invalidate_direct_mem_ptr(0x1000, 0x1fff); });
    sc_core::sc_start();
    REQUIRE(b.init.invalidations.size() == 1);
    CHECK(b.init.invalidations[0] == std::make_pair(uint64_t(0x1000), uint64_t(0x1fff)));
    CHECK(b.checker.violations() == 0);
}

TEST_CASE("interconnect: checker: a target answering END_REQ and BEGIN_RESP inside the forward call is followed",
          "[interconnect][checker][at]") {
    RawBench b([](RawInitiator& i) {
        auto& t = i.make(tlm::TLM_READ_COMMAND, 0x30);
        i.fw(t, tlm::BEGIN_REQ); // END_REQ and BEGIN_RESP arrive before this returns TLM_ACCEPTED
    });
    b.target.on_fw = [&b](tlm_generic_payload& t, tlm_phase& ph, sc_time& d) {
        if (ph == tlm::BEGIN_REQ) {
            b.target.bw(t, tlm::END_REQ, d);
            t.set_response_status(tlm::TLM_OK_RESPONSE);
            b.target.bw(t, tlm::BEGIN_RESP, d + ns(1)); // answered TLM_COMPLETED
        }
        return tlm::TLM_ACCEPTED;
    };
    sc_core::sc_start();
    INFO(all_messages(b.checker));
    CHECK(b.init.bw_phases.size() == 2);
    CHECK(b.checker.violations() == 0);
    CHECK(b.checker.in_flight() == 0);
}

// ================================================================== phase_sequence

TEST_CASE("interconnect: checker: phase_sequence: END_RESP before BEGIN_RESP", "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            auto& t = i.make(tlm::TLM_READ_COMMAND, 0x40);
            i.fw(t, tlm::BEGIN_REQ); // accepted at once
            i.fw(t, tlm::END_RESP);  // no response yet
            i.wait_bw(1);
        },
        respond_to(1, false));
    b.target.on_fw = accept_now;
    sc_core::sc_start();
    require_single(b.checker, "phase_sequence");
    CHECK(b.checker.messages()[0].find("END_RESP before BEGIN_RESP") != std::string::npos);
    CHECK(b.checker.messages()[0].find("address 0x40") != std::string::npos);
    CHECK(b.checker.messages()[0].find("phase END_RESP") != std::string::npos);
    CHECK(b.checker.in_flight() == 0);
}

TEST_CASE("interconnect: checker: phase_sequence: BEGIN_REQ twice", "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            auto& t = i.make(tlm::TLM_WRITE_COMMAND, 0x48);
            i.fw(t, tlm::BEGIN_REQ);
            i.fw(t, tlm::BEGIN_REQ);
            i.wait_bw(2);
        },
        respond_to(1, true));
    sc_core::sc_start();
    require_single(b.checker, "phase_sequence");
    CHECK(b.checker.messages()[0].find("BEGIN_REQ for a transaction already in flight") != std::string::npos);
    CHECK(b.checker.in_flight() == 0);
}

TEST_CASE("interconnect: checker: phase_sequence: an unknown phase", "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            auto& t = i.make(tlm::TLM_READ_COMMAND, 0x50);
            i.fw(t, tlm::BEGIN_REQ);
            i.fw(t, CHECKER_TEST_PHASE);
            i.wait_bw(1);
        },
        respond_to(1, false));
    b.target.on_fw = accept_now;
    sc_core::sc_start();
    require_single(b.checker, "phase_sequence");
    CHECK(b.checker.messages()[0].find("CHECKER_TEST_PHASE") != std::string::npos);
    CHECK(b.checker.messages()[0].find("not a base-protocol phase") != std::string::npos);
}

TEST_CASE("interconnect: checker: phase_sequence: target answers BEGIN_REQ with TLM_UPDATED/END_RESP",
          "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            auto& t = i.make(tlm::TLM_READ_COMMAND, 0x58);
            i.fw(t, tlm::BEGIN_REQ);
            i.wait_bw(2);
        },
        respond_to(1, true));
    b.target.on_fw = [](tlm_generic_payload&, tlm_phase& ph, sc_time&) {
        if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
        ph = tlm::END_RESP;
        return tlm::TLM_UPDATED;
    };
    sc_core::sc_start();
    require_single(b.checker, "phase_sequence");
    CHECK(b.checker.messages()[0].find("TLM_UPDATED with END_RESP in answer to BEGIN_REQ") != std::string::npos);
}

// ================================================================== exclusion rules

TEST_CASE("interconnect: checker: request_exclusion: BEGIN_REQ before the previous END_REQ",
          "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            i.fw(i.make(tlm::TLM_READ_COMMAND, 0x100), tlm::BEGIN_REQ);
            i.fw(i.make(tlm::TLM_READ_COMMAND, 0x200), tlm::BEGIN_REQ); // no END_REQ for 0x100 yet
            i.wait_bw(4);
        },
        respond_to(2, true));
    sc_core::sc_start();
    require_single(b.checker, "request_exclusion");
    CHECK(b.checker.messages()[0].find("address 0x200") != std::string::npos);
    CHECK(b.checker.messages()[0].find("transaction at 0x100") != std::string::npos);
    CHECK(b.checker.in_flight() == 0);
}

TEST_CASE("interconnect: checker: response_exclusion: BEGIN_RESP before the previous END_RESP",
          "[interconnect][checker][rule]") {
    std::vector<tlm_generic_payload*> resp;
    RawBench b(
        [&](RawInitiator& i) {
            i.fw(i.make(tlm::TLM_READ_COMMAND, 0x100), tlm::BEGIN_REQ);
            i.fw(i.make(tlm::TLM_READ_COMMAND, 0x200), tlm::BEGIN_REQ);
            i.wait_bw(2);
            for (auto* t : resp) i.fw(*t, tlm::END_RESP, ns(1));
        },
        [](RawTarget& t) {
            t.wait_requests(2);
            sc_core::wait(ns(5));
            for (auto* p : t.requests) {
                p->set_response_status(tlm::TLM_OK_RESPONSE);
                t.bw(*p, tlm::BEGIN_RESP); // second one while the first is unanswered
            }
        });
    b.target.on_fw = accept_now;
    b.init.on_bw = [&](tlm_generic_payload& t, tlm_phase&, sc_time&) {
        resp.push_back(&t);
        return tlm::TLM_ACCEPTED;
    };
    sc_core::sc_start();
    require_single(b.checker, "response_exclusion");
    CHECK(b.checker.messages()[0].find("address 0x200") != std::string::npos);
    CHECK(b.checker.messages()[0].find("transaction at 0x100") != std::string::npos);
    CHECK(b.checker.in_flight() == 0);
}

// ================================================================== timing

TEST_CASE("interconnect: checker: timing: a later phase with an earlier effective time",
          "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            i.fw(i.make(tlm::TLM_READ_COMMAND, 0x60), tlm::BEGIN_REQ);
            i.wait_bw(1);
        },
        [](RawTarget& t) {
            t.wait_requests(1);
            t.requests[0]->set_response_status(tlm::TLM_OK_RESPONSE);
            t.bw(*t.requests[0], tlm::BEGIN_RESP, ns(2)); // END_REQ took effect at 10 ns
        });
    b.target.on_fw = [](tlm_generic_payload&, tlm_phase& ph, sc_time& d) {
        ph = tlm::END_REQ;
        d += ns(10);
        return tlm::TLM_UPDATED;
    };
    sc_core::sc_start();
    require_single(b.checker, "timing");
    CHECK(b.checker.messages()[0].find("phase BEGIN_RESP") != std::string::npos);
    CHECK(b.checker.messages()[0].find("earlier than the previous phase") != std::string::npos);
}

TEST_CASE("interconnect: checker: timing: b_transport returns before it was called (delay reduced without a wait)",
          "[interconnect][checker][rule]") {
    RawBench b([](RawInitiator& i) {
        uint64_t v = 0;
        tlm_generic_payload t;
        RawInitiator::setup(t, tlm::TLM_READ_COMMAND, 0x68, reinterpret_cast<uint8_t*>(&v), 8);
        sc_time d = ns(20);
        i.socket->b_transport(t, d);
    });
    b.target.on_b = [](tlm_generic_payload& t, sc_time& d) {
        d = ns(5);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    };
    sc_core::sc_start();
    require_single(b.checker, "timing");
    CHECK(b.checker.messages()[0].find("b_transport returned at effective time") != std::string::npos);
}

TEST_CASE("interconnect: checker: timing: delay changed with TLM_ACCEPTED", "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            i.fw(i.make(tlm::TLM_READ_COMMAND, 0x70), tlm::BEGIN_REQ);
            i.wait_bw(2);
        },
        respond_to(1, true));
    b.target.on_fw = [](tlm_generic_payload&, tlm_phase&, sc_time& d) {
        d += ns(3);
        return tlm::TLM_ACCEPTED;
    };
    sc_core::sc_start();
    require_single(b.checker, "timing");
    CHECK(b.checker.messages()[0].find("with TLM_ACCEPTED") != std::string::npos);
}

// ================================================================== blocking / non-blocking

TEST_CASE("interconnect: checker: blocking_nonblocking_mix: b_transport with a payload in flight on nb",
          "[interconnect][checker][rule]") {
    // This case uses ProtocolChecker::set_actions instead of a report handler.
    ProtocolChecker::set_actions(sc_core::SC_ERROR, sc_core::SC_LOG);
    RawInitiator init("init", [](RawInitiator& i) {
        auto& t = i.make(tlm::TLM_READ_COMMAND, 0x78);
        i.fw(t, tlm::BEGIN_REQ);
        sc_time d = SC_ZERO_TIME;
        i.socket->b_transport(t, d);
        i.wait_bw(1);
    });
    ProtocolChecker checker("checker");
    RawTarget target("target", respond_to(1, false));
    target.on_fw = accept_now;
    init.socket.bind(checker.target);
    checker.initiator.bind(target.socket);
    sc_core::sc_start();

    INFO(all_messages(checker));
    REQUIRE(checker.violations("blocking_nonblocking_mix") == 1);
    REQUIRE(checker.violations() == 1);
    CHECK(checker.messages()[0].rfind("checker: blocking_nonblocking_mix: b_transport", 0) == 0);
    CHECK(checker.in_flight() == 0);
}

TEST_CASE("interconnect: checker: blocking_nonblocking_mix: nb_transport_fw with a payload in b_transport",
          "[interconnect][checker][rule]") {
    tlm_generic_payload* shared = nullptr;
    RawBench b([&](RawInitiator& i) {
        auto& t = i.make(tlm::TLM_READ_COMMAND, 0x88);
        shared = &t;
        sc_core::sc_spawn([&i, &t] {
            sc_core::wait(ns(5));
            i.fw(t, tlm::BEGIN_REQ); // while b_transport (until 10 ns) is in progress
        });
        sc_time d = SC_ZERO_TIME;
        i.socket->b_transport(t, d);
    });
    b.target.on_b = [](tlm_generic_payload& t, sc_time& d) {
        sc_core::wait(ns(10));
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    };
    sc_core::sc_start();
    require_single(b.checker, "blocking_nonblocking_mix");
    CHECK(b.checker.messages()[0].find("nb_transport_fw with a payload that is in a b_transport call") !=
          std::string::npos);
    CHECK(b.checker.in_flight() == 0);
    CHECK(shared != nullptr);
}

// ================================================================== memory manager

TEST_CASE("interconnect: checker: memory_manager: BEGIN_REQ payload without a memory manager",
          "[interconnect][checker][rule]") {
    uint64_t v = 0;
    tlm_generic_payload t; // no memory manager
    RawBench b(
        [&](RawInitiator& i) {
            RawInitiator::setup(t, tlm::TLM_READ_COMMAND, 0x90, reinterpret_cast<uint8_t*>(&v), 8);
            i.fw(t, tlm::BEGIN_REQ);
            i.wait_bw(1);
        },
        respond_to(1, false));
    b.target.on_fw = accept_now;
    sc_core::sc_start();
    require_single(b.checker, "memory_manager");
    CHECK(b.checker.messages()[0].find("no memory manager") != std::string::npos);
}

TEST_CASE("interconnect: checker: memory_manager: BEGIN_REQ payload with reference count 0",
          "[interconnect][checker][rule]") {
    uint64_t v = 0;
    NullMM mm;
    tlm_generic_payload t(&mm); // never acquired
    RawBench b(
        [&](RawInitiator& i) {
            RawInitiator::setup(t, tlm::TLM_READ_COMMAND, 0x98, reinterpret_cast<uint8_t*>(&v), 8);
            i.fw(t, tlm::BEGIN_REQ);
            i.wait_bw(1);
        },
        respond_to(1, false));
    b.target.on_fw = accept_now;
    sc_core::sc_start();
    require_single(b.checker, "memory_manager");
    CHECK(b.checker.messages()[0].find("reference count 0") != std::string::npos);
}

TEST_CASE("interconnect: checker: memory_manager: reference count dropped to 0 while in flight",
          "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            auto& t = i.make(tlm::TLM_READ_COMMAND, 0xa0);
            i.fw(t, tlm::BEGIN_REQ);
            t.release(); // back to the pool although the response is still to come
            i.wait_bw(1);
        },
        respond_to(1, false));
    b.target.on_fw = accept_now;
    sc_core::sc_start();
    require_single(b.checker, "memory_manager");
    CHECK(b.checker.messages()[0].find("dropped to 0") != std::string::npos);
    CHECK(b.checker.messages()[0].find("phase BEGIN_RESP") != std::string::npos);
}

// ================================================================== payload modified

TEST_CASE("interconnect: checker: payload_modified: target changes the address", "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            i.fw(i.make(tlm::TLM_READ_COMMAND, 0x100), tlm::BEGIN_REQ);
            i.wait_bw(1);
        },
        respond_to(1, false));
    b.target.on_fw = [](tlm_generic_payload& t, tlm_phase& ph, sc_time&) {
        t.set_address(t.get_address() + 0x40);
        ph = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    };
    sc_core::sc_start();
    require_single(b.checker, "payload_modified");
    CHECK(b.checker.messages()[0].find("address 0x100 -> 0x140") != std::string::npos);
    CHECK(b.checker.messages()[0].find("return from nb_transport_fw") != std::string::npos);
}

TEST_CASE("interconnect: checker: payload_modified: initiator changes write data in flight",
          "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            auto& t = i.make(tlm::TLM_WRITE_COMMAND, 0x108);
            i.fw(t, tlm::BEGIN_REQ);
            t.get_data_ptr()[3] ^= 0xff;
            i.wait_bw(1);
        },
        respond_to(1, false));
    b.target.on_fw = accept_now;
    sc_core::sc_start();
    require_single(b.checker, "payload_modified");
    CHECK(b.checker.messages()[0].find("write data contents changed") != std::string::npos);
}

TEST_CASE("interconnect: checker: payload_modified: b_transport target changes the data length",
          "[interconnect][checker][rule]") {
    RawBench b([](RawInitiator& i) {
        uint64_t v = 0;
        tlm_generic_payload t;
        RawInitiator::setup(t, tlm::TLM_READ_COMMAND, 0x110, reinterpret_cast<uint8_t*>(&v), 8);
        sc_time d = SC_ZERO_TIME;
        i.socket->b_transport(t, d);
    });
    b.target.on_b = [](tlm_generic_payload& t, sc_time&) {
        t.set_data_length(4);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    };
    sc_core::sc_start();
    require_single(b.checker, "payload_modified");
    CHECK(b.checker.messages()[0].find("data length 8 -> 4") != std::string::npos);
}

TEST_CASE("interconnect: checker: payload_modified: a target writing an atomic WRITE's data is flagged (no exemption)",
          "[interconnect][checker][rule]") {
    RawBench b([](RawInitiator& i) {
        uint64_t v = 5;
        AtomicExtension ext(AtomicOp::faa, 0);
        tlm_generic_payload t;
        RawInitiator::setup(t, tlm::TLM_WRITE_COMMAND, 0x118, reinterpret_cast<uint8_t*>(&v), 8);
        t.set_extension(&ext);
        sc_time d = SC_ZERO_TIME;
        i.socket->b_transport(t, d);
        t.clear_extension(&ext);
    });
    b.target.on_b = [](tlm_generic_payload& t, sc_time&) {
        t.get_data_ptr()[0] = 0; // "returns the old value" in the buffer: forbidden by §14.7
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    };
    sc_core::sc_start();
    require_single(b.checker, "payload_modified");
    CHECK(b.checker.messages()[0].find("write data contents changed") != std::string::npos);
}

// ================================================================== response status

TEST_CASE("interconnect: checker: response_status: BEGIN_RESP with TLM_INCOMPLETE_RESPONSE",
          "[interconnect][checker][rule]") {
    RawBench b(
        [](RawInitiator& i) {
            i.fw(i.make(tlm::TLM_READ_COMMAND, 0x118), tlm::BEGIN_REQ);
            i.wait_bw(1);
        },
        [](RawTarget& t) {
            t.wait_requests(1);
            t.bw(*t.requests[0], tlm::BEGIN_RESP); // status never set
        });
    b.target.on_fw = accept_now;
    sc_core::sc_start();
    require_single(b.checker, "response_status");
    CHECK(b.checker.messages()[0].find("phase BEGIN_RESP") != std::string::npos);
}

TEST_CASE("interconnect: checker: response_status: b_transport returns TLM_INCOMPLETE_RESPONSE",
          "[interconnect][checker][rule]") {
    RawBench b([](RawInitiator& i) {
        uint64_t v = 0;
        tlm_generic_payload t;
        RawInitiator::setup(t, tlm::TLM_WRITE_COMMAND, 0x120, reinterpret_cast<uint8_t*>(&v), 8);
        sc_time d = SC_ZERO_TIME;
        i.socket->b_transport(t, d);
    });
    b.target.on_b = [](tlm_generic_payload&, sc_time& d) { d += ns(1); };
    sc_core::sc_start();
    require_single(b.checker, "response_status");
    CHECK(b.checker.messages()[0].find("b_transport returned with TLM_INCOMPLETE_RESPONSE") != std::string::npos);
}

// ================================================================== debug and DMI

TEST_CASE("interconnect: checker: debug_payload: transport_dbg with byte enables", "[interconnect][checker][rule]") {
    RawBench b([](RawInitiator& i) {
        uint64_t v = 0;
        uint8_t be[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
        tlm_generic_payload t;
        RawInitiator::setup(t, tlm::TLM_READ_COMMAND, 0x128, reinterpret_cast<uint8_t*>(&v), 8);
        t.set_byte_enable_ptr(be);
        t.set_byte_enable_length(8);
        i.socket->transport_dbg(t);
    });
    sc_core::sc_start();
    require_single(b.checker, "debug_payload");
    CHECK(b.checker.messages()[0].find("byte enable") != std::string::npos);
}

TEST_CASE("interconnect: checker: debug_payload: transport_dbg streaming width differs from data length",
          "[interconnect][checker][rule]") {
    RawBench b([](RawInitiator& i) {
        uint64_t v = 0;
        tlm_generic_payload t;
        RawInitiator::setup(t, tlm::TLM_READ_COMMAND, 0x130, reinterpret_cast<uint8_t*>(&v), 8);
        t.set_streaming_width(4);
        i.socket->transport_dbg(t);
    });
    sc_core::sc_start();
    require_single(b.checker, "debug_payload");
    CHECK(b.checker.messages()[0].find("streaming width 4 different from data length 8") != std::string::npos);
}

TEST_CASE("interconnect: checker: debug_payload: transport_dbg returns more bytes than requested",
          "[interconnect][checker][rule]") {
    unsigned n = 0;
    RawBench b([&](RawInitiator& i) {
        uint64_t v = 0;
        tlm_generic_payload t;
        RawInitiator::setup(t, tlm::TLM_READ_COMMAND, 0x138, reinterpret_cast<uint8_t*>(&v), 8);
        n = i.socket->transport_dbg(t);
    });
    b.target.on_dbg = [](tlm_generic_payload& t) { return t.get_data_length() + 4; };
    sc_core::sc_start();
    require_single(b.checker, "debug_payload");
    CHECK(n == 12); // forwarded unchanged
    CHECK(b.checker.messages()[0].find("returned 12 bytes") != std::string::npos);
}

TEST_CASE("interconnect: checker: debug_payload: transport_dbg advances simulation time",
          "[interconnect][checker][rule]") {
    RawBench b([](RawInitiator& i) {
        uint64_t v = 0;
        tlm_generic_payload t;
        RawInitiator::setup(t, tlm::TLM_READ_COMMAND, 0x13c, reinterpret_cast<uint8_t*>(&v), 8);
        i.socket->transport_dbg(t);
    });
    b.target.on_dbg = [](tlm_generic_payload& t) {
        sc_core::wait(ns(3));
        return t.get_data_length();
    };
    sc_core::sc_start();
    require_single(b.checker, "debug_payload");
    CHECK(b.checker.messages()[0].find("advanced simulation time") != std::string::npos);
}

TEST_CASE("interconnect: checker: debug_payload: DMI request with TLM_IGNORE_COMMAND",
          "[interconnect][checker][rule]") {
    RawBench b([](RawInitiator& i) {
        tlm_generic_payload t;
        t.set_command(tlm::TLM_IGNORE_COMMAND);
        t.set_address(0x140);
        tlm::tlm_dmi dmi;
        i.socket->get_direct_mem_ptr(t, dmi);
    });
    sc_core::sc_start();
    require_single(b.checker, "debug_payload");
    CHECK(b.checker.messages()[0].find("get_direct_mem_ptr with command TLM_IGNORE_COMMAND") != std::string::npos);
    CHECK(b.checker.dmi_requests() == 1);
}

TEST_CASE("interconnect: checker: violations() rejects an unknown rule name", "[interconnect][checker]") {
    ProtocolChecker checker("checker");
    CHECK(checker.violations("timing") == 0);
    CHECK_THROWS_AS(checker.violations("no_such_rule"), std::invalid_argument);
    CHECK(std::string(ProtocolChecker::msg_type(ProtocolChecker::Rule::payload_modified)) ==
          "/syncron/check/payload_modified");
}
