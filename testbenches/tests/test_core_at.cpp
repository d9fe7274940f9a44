// NDP core (models/core/ndp_core.h), approximately-timed path (set_timing(Timing::at)).
// Each test case elaborates its own small design: core -> AtRouter (address
// decoder + base-protocol checker) -> {AtMemory, AtFakeSe}, with the fake SE
// bound straight to the core mailbox. The test targets below speak the
// 4-phase protocol of docs/timing.md (and b_transport, for the LT benches the
// AT timing is compared with). Programs only record what they see; the
// assertions run after sc_start.
#include <catch2/catch.hpp>

#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/core/ndp_core.h"
#include "models/protocol/tlm/syncron_extension.h"
#include "models/protocol/wire_format.h"
#include "models/tlm/payload_pool.h"
#include "testbenches/tests/core_table2_check.h"
#include "testbenches/tests/core_test_helpers.h"

using namespace syncron;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;

namespace {

sc_time ns(double v) { return sc_time(v, SC_NS); }
sc_time now() { return sc_core::sc_time_stamp(); }

void release_ref(tlm::tlm_generic_payload& t) {
    if (t.has_mm()) t.release();
}

/// Records SC_ERROR reports instead of throwing, so a test can inspect them.
std::vector<std::string> g_errors;
void capture_errors(const sc_core::sc_report& r, const sc_core::sc_actions& a) {
    if (r.get_severity() == sc_core::SC_ERROR) {
        g_errors.push_back(r.get_msg());
        return;
    }
    sc_core::sc_report_handler::default_handler(r, a);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// ------------------------------------------------------------------ test targets

/// Memory at [0, size). AT: `at_once` accepts with TLM_UPDATED/END_REQ and
/// sends BEGIN_RESP `latency` later; `withheld` answers TLM_ACCEPTED, sends
/// END_REQ `end_req_delay` later and BEGIN_RESP `latency` after that;
/// `on_return` answers TLM_UPDATED/BEGIN_RESP with +latency (then expects
/// END_RESP). b_transport adds end_req_delay + latency, the same total.
/// bw_annotation > 0 makes the backward END_REQ / BEGIN_RESP calls that much
/// early, with the difference as their timing annotation (same effective time).
class AtMemory : public sc_core::sc_module {
public:
    enum class Accept { at_once, withheld, on_return };
    struct Access {
        tlm::tlm_command cmd;
        uint64_t addr;
        unsigned len;
        sc_time at; ///< effective arrival time
        bool operator==(const Access& o) const { return cmd == o.cmd && addr == o.addr && len == o.len && at == o.at; }
    };

    tlm_utils::simple_target_socket<AtMemory> socket;
    std::vector<uint8_t> bytes;
    std::vector<Access> log;
    sc_time latency = ns(50);
    sc_time end_req_delay = SC_ZERO_TIME;
    sc_time bw_annotation = SC_ZERO_TIME; ///< at most latency and end_req_delay
    Accept accept = Accept::at_once;
    std::vector<std::string> violations;

    AtMemory(sc_core::sc_module_name name, uint64_t size = 1 << 20)
        : sc_module(name), socket("socket"), bytes(size, 0), m_peq(this, &AtMemory::peq_cb) {
        socket.register_b_transport(this, &AtMemory::b_transport);
        socket.register_nb_transport_fw(this, &AtMemory::nb_transport_fw);
        socket.register_transport_dbg(this, &AtMemory::transport_dbg);
    }

    uint64_t peek(uint64_t addr, unsigned size) const {
        uint64_t v = 0;
        for (unsigned i = 0; i < size; ++i) v |= uint64_t(bytes[addr + i]) << (8 * i);
        return v;
    }
    void poke(uint64_t addr, uint64_t v, unsigned size) {
        for (unsigned i = 0; i < size; ++i) bytes[addr + i] = uint8_t(v >> (8 * i));
    }
    bool idle() const { return m_held == 0 && !m_resp && m_queue.empty(); }

private:
    bool in_range(const tlm::tlm_generic_payload& t) const {
        return t.get_address() + t.get_data_length() <= bytes.size();
    }
    void arrive(const tlm::tlm_generic_payload& t, const sc_time& at) {
        if (in_range(t)) log.push_back({t.get_command(), t.get_address(), t.get_data_length(), at});
    }
    void execute(tlm::tlm_generic_payload& t) {
        if (!in_range(t)) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        uint8_t* mem = &bytes[t.get_address()];
        if (t.is_read())
            std::memcpy(t.get_data_ptr(), mem, t.get_data_length());
        else if (t.is_write())
            std::memcpy(mem, t.get_data_ptr(), t.get_data_length());
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
        arrive(t, now() + delay);
        execute(t);
        delay += end_req_delay + latency;
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) {
        if (!in_range(t)) return 0;
        execute(t);
        return t.get_data_length();
    }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
        if (phase == tlm::END_RESP) {
            if (&t != m_resp) violations.push_back("END_RESP for a payload not in its response phase");
            m_resp = nullptr;
            --m_held;
            release_ref(t);
            send_responses();
            return tlm::TLM_COMPLETED;
        }
        if (phase != tlm::BEGIN_REQ) {
            violations.push_back(std::string("unexpected phase ") + phase.get_name());
            return tlm::TLM_COMPLETED;
        }
        if (!t.has_mm()) violations.push_back("BEGIN_REQ without a memory manager");
        t.acquire();
        ++m_held;
        arrive(t, now() + delay);
        switch (accept) {
        case Accept::at_once:
            m_peq.notify(t, tlm::BEGIN_RESP, delay + latency - bw_annotation);
            phase = tlm::END_REQ;
            return tlm::TLM_UPDATED;
        case Accept::withheld:
            m_peq.notify(t, tlm::END_REQ, delay + end_req_delay - bw_annotation);
            return tlm::TLM_ACCEPTED;
        case Accept::on_return:
            if (m_resp) violations.push_back("response exclusion: on_return while a response is open");
            execute(t);
            m_resp = &t;
            phase = tlm::BEGIN_RESP;
            delay += latency;
            return tlm::TLM_UPDATED;
        }
        return tlm::TLM_ACCEPTED;
    }
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase) {
        if (phase == tlm::END_REQ) {
            tlm::tlm_phase ph = tlm::END_REQ;
            sc_time d = bw_annotation;
            if (socket->nb_transport_bw(t, ph, d) != tlm::TLM_ACCEPTED)
                violations.push_back("END_REQ not answered with TLM_ACCEPTED");
            m_peq.notify(t, tlm::BEGIN_RESP, latency); // END_REQ's effective time + latency - annotation
        } else {
            m_queue.push_back(&t);
            send_responses();
        }
    }
    void send_responses() {
        while (!m_resp && !m_queue.empty()) {
            tlm::tlm_generic_payload& t = *m_queue.front();
            m_queue.pop_front();
            execute(t);
            tlm::tlm_phase ph = tlm::BEGIN_RESP;
            sc_time d = bw_annotation;
            if (socket->nb_transport_bw(t, ph, d) == tlm::TLM_COMPLETED) {
                --m_held;
                release_ref(t);
            } else {
                m_resp = &t;
            }
        }
    }

    tlm_utils::peq_with_cb_and_phase<AtMemory> m_peq;
    std::deque<tlm::tlm_generic_payload*> m_queue;
    tlm::tlm_generic_payload* m_resp = nullptr;
    int m_held = 0;
};

/// The SE's message port. Accepts at once (TLM_UPDATED/END_REQ) or, with
/// end_req_delay > 0, withholds END_REQ that long; BEGIN_RESP follows END_REQ
/// by resp_latency. Acquire-type messages get their grant 100 ns after they
/// arrived, sent to the core mailbox with nb_transport_fw on pooled payloads
/// (or with b_transport, as an LT SE, when blocking_grants is set).
class AtFakeSe : public sc_core::sc_module {
public:
    struct Received {
        Message msg;
        sc_time arrival;
        std::vector<uint8_t> data;
        bool has_extension;
    };
    struct Sent {
        Message msg;
        sc_time at; ///< BEGIN_REQ of the grant
        tlm::tlm_sync_enum fw_return = tlm::TLM_ACCEPTED;
        tlm::tlm_phase fw_phase = tlm::UNINITIALIZED_PHASE;
        tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
        sc_time resp_at; ///< BEGIN_RESP from the mailbox
    };

    tlm_utils::simple_target_socket<AtFakeSe> in;
    tlm_utils::simple_initiator_socket<AtFakeSe> out; ///< bound straight to the core mailbox

    std::vector<Received> received;
    std::vector<sc_time> end_req_at; ///< when each message's END_REQ took effect
    std::vector<sc_time> resp_at;    ///< when each message's BEGIN_RESP was sent
    std::vector<Sent> sent;
    std::deque<Opcode> wrong_replies; ///< sent before the correct one for the next acquire
    bool fail_requests = false;       ///< every message gets an error response (and no grant)
    bool grant = true;                ///< grant acquire-type messages at all
    bool blocking_grants = false;     ///< send grants with b_transport (an LT SE)
    sc_time end_req_delay = SC_ZERO_TIME;
    sc_time resp_latency = ns(10);
    PayloadPool pool;

    SC_HAS_PROCESS(AtFakeSe);
    AtFakeSe(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out"), m_peq(this, &AtFakeSe::peq_cb) {
        in.register_nb_transport_fw(this, &AtFakeSe::nb_transport_fw);
        out.register_nb_transport_bw(this, &AtFakeSe::out_nb_transport_bw);
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
    bool idle() const { return m_held == 0 && !m_out_req && m_pending.empty(); }

private:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
        if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED; // END_RESP: never (the core completes)
        t.acquire();
        ++m_held;
        auto* ext = t.get_extension<SyncronExtension>();
        Received r{ext ? ext->msg : Message{}, now() + delay,
                   std::vector<uint8_t>(t.get_data_ptr(), t.get_data_ptr() + t.get_data_length()), ext != nullptr};
        received.push_back(r);
        if (ext && !fail_requests && grant && is_sync_request(ext->msg.op)) {
            m_pending.push_back(r);
            m_wake.notify(SC_ZERO_TIME);
        }
        if (end_req_delay == SC_ZERO_TIME) {
            end_req_at.push_back(now() + delay);
            m_peq.notify(t, tlm::BEGIN_RESP, delay + resp_latency);
            phase = tlm::END_REQ;
            return tlm::TLM_UPDATED;
        }
        m_peq.notify(t, tlm::END_REQ, delay + end_req_delay);
        return tlm::TLM_ACCEPTED;
    }

    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase) {
        tlm::tlm_phase ph = phase;
        sc_time d = SC_ZERO_TIME;
        if (phase == tlm::END_REQ) {
            end_req_at.push_back(now());
            in->nb_transport_bw(t, ph, d);
            m_peq.notify(t, tlm::BEGIN_RESP, resp_latency);
            return;
        }
        t.set_response_status(fail_requests ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
        resp_at.push_back(now());
        in->nb_transport_bw(t, ph, d); // the core answers TLM_COMPLETED
        --m_held;
        t.release();
    }

    void reply_thread() {
        for (;;) {
            while (m_pending.empty()) wait(m_wake);
            const Received r = m_pending.front();
            m_pending.pop_front();
            const sc_time due = r.arrival + ns(100);
            if (due > now()) wait(due - now());
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
        Sent s;
        s.msg = m;
        s.at = now();
        if (blocking_grants) {
            SyncronExtension ext(m);
            uint8_t data[kWireBytes] = {};
            tlm::tlm_generic_payload t;
            t.set_command(tlm::TLM_WRITE_COMMAND);
            t.set_address(0);
            t.set_data_ptr(data);
            t.set_data_length(kWireBytes);
            t.set_streaming_width(kWireBytes);
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            t.set_extension(&ext);
            sc_time delay = SC_ZERO_TIME;
            out->b_transport(t, delay);
            t.clear_extension(&ext);
            s.status = t.get_response_status();
            s.resp_at = now() + delay;
            sent.push_back(s);
            return;
        }
        while (m_out_req) wait(m_out_event); // request exclusion on `out`
        tlm::tlm_generic_payload& t = pool.acquire();
        pool.message_extension(t).msg = m;
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(0); // routed by binding
        t.set_data_length(kWireBytes);
        t.set_streaming_width(kWireBytes);
        m_sent_index[&t] = sent.size();
        sent.push_back(s);
        m_out_req = &t;
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_time delay = SC_ZERO_TIME;
        const tlm::tlm_sync_enum r = out->nb_transport_fw(t, phase, delay);
        sent.back().fw_return = r;
        sent.back().fw_phase = phase;
        if (r == tlm::TLM_UPDATED && phase == tlm::END_REQ) m_out_req = nullptr;
    }

    tlm::tlm_sync_enum out_nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
        if (phase == tlm::END_REQ) {
            m_out_req = nullptr;
            m_out_event.notify(delay);
            return tlm::TLM_ACCEPTED;
        }
        if (m_out_req == &t) m_out_req = nullptr; // BEGIN_RESP implies END_REQ
        Sent& s = sent[m_sent_index.at(&t)];
        s.status = t.get_response_status();
        s.resp_at = now() + delay;
        m_sent_index.erase(&t);
        t.release();
        return tlm::TLM_COMPLETED;
    }

    tlm_utils::peq_with_cb_and_phase<AtFakeSe> m_peq;
    std::deque<Received> m_pending;
    sc_core::sc_event m_wake;
    tlm::tlm_generic_payload* m_out_req = nullptr;
    sc_core::sc_event m_out_event;
    std::map<const tlm::tlm_generic_payload*, size_t> m_sent_index;
    int m_held = 0;
};

/// The unit crossbar reduced to an address decoder (MMIO to the SE, the rest
/// to memory) with a small base-protocol checker on the core side: phase
/// order, request and response exclusion, non-decreasing timing per payload,
/// memory manager and reference count, BEGIN_RESP answered with TLM_COMPLETED.
class AtRouter : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<AtRouter> in;
    tlm_utils::simple_initiator_socket<AtRouter> to_mem;
    tlm_utils::simple_initiator_socket<AtRouter> to_se;
    std::vector<std::string> violations;
    unsigned begin_reqs = 0;
    unsigned end_resps = 0; ///< END_RESPs the core sent (after TLM_UPDATED/BEGIN_RESP)

    AtRouter(sc_core::sc_module_name name) : sc_module(name), in("in"), to_mem("to_mem"), to_se("to_se") {
        in.register_b_transport(this, &AtRouter::b_transport);
        in.register_nb_transport_fw(this, &AtRouter::nb_transport_fw);
        in.register_transport_dbg(this, &AtRouter::transport_dbg);
        to_mem.register_nb_transport_bw(this, &AtRouter::mem_bw);
        to_se.register_nb_transport_bw(this, &AtRouter::se_bw);
    }

    bool idle() const { return m_open.empty() && !m_req && !m_resp; }

private:
    enum class Stage { request, between, response };
    struct Open {
        Stage stage;
        sc_time last; ///< effective time of the latest phase
        bool to_se;
    };

    static bool is_se(const tlm::tlm_generic_payload& t) { return t.get_address() >= AddressMap::kIoBase; }
    void violation(const std::string& what) { violations.push_back(what + " at " + now().to_string()); }
    void timing(Open& o, const sc_time& at, const char* phase) {
        if (at < o.last) violation(std::string(phase) + " annotated before the previous phase");
        o.last = at;
    }

    void b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
        if (is_se(t))
            to_se->b_transport(t, delay);
        else
            to_mem->b_transport(t, delay);
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) { return is_se(t) ? 0 : to_mem->transport_dbg(t); }

    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
        if (!t.has_mm())
            violation("nb_transport_fw without a memory manager");
        else if (t.get_ref_count() <= 0)
            violation("nb_transport_fw on a payload with reference count 0");
        const bool se = is_se(t);
        if (phase == tlm::BEGIN_REQ) {
            ++begin_reqs;
            if (m_req) violation("request exclusion: BEGIN_REQ while another request is open");
            if (m_open.count(&t)) violation("BEGIN_REQ for a payload already in flight");
            m_open[&t] = Open{Stage::request, now() + delay, se};
            m_req = &t;
        } else if (phase == tlm::END_RESP) {
            ++end_resps;
            auto it = m_open.find(&t);
            if (it == m_open.end() || it->second.stage != Stage::response || m_resp != &t) {
                violation("END_RESP for a payload not in its response phase");
            } else {
                timing(it->second, now() + delay, "END_RESP");
                m_open.erase(it);
                m_resp = nullptr;
            }
            return (target(se))->nb_transport_fw(t, phase, delay);
        } else {
            violation(std::string("initiator sent ") + phase.get_name());
        }
        const tlm::tlm_sync_enum r = target(se)->nb_transport_fw(t, phase, delay);
        Open& o = m_open[&t];
        if (r == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
            timing(o, now() + delay, "END_REQ");
            o.stage = Stage::between;
            m_req = nullptr;
        } else if (r == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
            timing(o, now() + delay, "BEGIN_RESP");
            if (m_resp) violation("response exclusion: BEGIN_RESP while another response is open");
            o.stage = Stage::response;
            m_req = nullptr;
            m_resp = &t;
        } else if (r == tlm::TLM_COMPLETED) {
            violation("early completion (TLM_COMPLETED to BEGIN_REQ) is not used");
            m_open.erase(&t);
            m_req = nullptr;
        }
        return r;
    }

    tlm::tlm_initiator_socket<>& target(bool se) { return se ? to_se : to_mem; }

    tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
        auto it = m_open.find(&t);
        if (it == m_open.end()) {
            violation(std::string(phase.get_name()) + " on the backward path for an unknown payload");
            return in->nb_transport_bw(t, phase, delay);
        }
        Open& o = it->second;
        if (phase == tlm::END_REQ) {
            if (o.stage != Stage::request) violation("END_REQ outside the request phase");
            timing(o, now() + delay, "END_REQ");
            o.stage = Stage::between;
            if (m_req == &t) m_req = nullptr;
            const tlm::tlm_sync_enum r = in->nb_transport_bw(t, phase, delay);
            if (r != tlm::TLM_ACCEPTED) violation("END_REQ not answered with TLM_ACCEPTED");
            return r;
        }
        if (phase == tlm::BEGIN_RESP) {
            if (o.stage == Stage::response) violation("second BEGIN_RESP");
            if (m_resp) violation("response exclusion: BEGIN_RESP while another response is open");
            timing(o, now() + delay, "BEGIN_RESP");
            if (m_req == &t) m_req = nullptr;
            const tlm::tlm_sync_enum r = in->nb_transport_bw(t, phase, delay);
            if (r == tlm::TLM_COMPLETED) {
                m_open.erase(it);
            } else {
                violation("BEGIN_RESP not answered with TLM_COMPLETED");
                o.stage = Stage::response;
                m_resp = &t;
            }
            return r;
        }
        violation(std::string("target sent ") + phase.get_name());
        return in->nb_transport_bw(t, phase, delay);
    }
    tlm::tlm_sync_enum mem_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
        return bw(t, phase, delay);
    }
    tlm::tlm_sync_enum se_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
        return bw(t, phase, delay);
    }

    std::map<const tlm::tlm_generic_payload*, Open> m_open;
    const tlm::tlm_generic_payload* m_req = nullptr;
    const tlm::tlm_generic_payload* m_resp = nullptr;
};

constexpr unsigned kUnit = 1;
constexpr unsigned kLocal = 3;
constexpr unsigned kGlobal = 18;

/// One core (LT or AT) wired to a checking router, a memory and a fake SE of unit kUnit.
struct Bench {
    AddressMap map{4, 16, MemoryParams{}};
    AtMemory mem;
    AtFakeSe se;
    AtRouter router;
    NdpCore core;
    std::unique_ptr<SyncClient> client = test::inject_syncron(core);

    explicit Bench(
        Timing timing = Timing::at, const std::string& prefix = "",
        std::function<bool(uint64_t)> cacheable = [](uint64_t) { return false; })
        : mem((prefix + "mem").c_str()), se((prefix + "se").c_str()), router((prefix + "router").c_str()),
          core((prefix + "core").c_str(), kUnit, kLocal, kGlobal, CoreParams{}, map, std::move(cacheable)) {
        core.set_timing(timing);
        core.bus.bind(router.in);
        router.to_mem.bind(mem.socket);
        router.to_se.bind(se.in);
        se.out.bind(core.mailbox);
    }

    /// Everything returned and nothing broke the base protocol.
    void check_clean() const {
        for (const std::string& v : router.violations) UNSCOPED_INFO(v);
        for (const std::string& v : mem.violations) UNSCOPED_INFO(v);
        CHECK(router.violations.empty());
        CHECK(mem.violations.empty());
        CHECK(router.idle());
        CHECK(mem.idle());
        CHECK(se.idle());
        CHECK(core.payload_pool().in_use() == 0);
        CHECK(se.pool.in_use() == 0);
    }
};

/// Samples a core's state at one time.
struct Probe : sc_core::sc_module {
    SC_HAS_PROCESS(Probe);
    Probe(sc_core::sc_module_name n, const NdpCore& core, sc_time at) : sc_module(n), m_core(core), m_at(at) {
        SC_THREAD(run);
    }
    void run() {
        wait(m_at);
        state = m_core.state();
    }
    std::optional<NdpCore::CoreState> state;
    const NdpCore& m_core;
    sc_time m_at;
};

} // namespace

// ------------------------------------------------------------------ timing against LT

TEST_CASE("core at: compute, loads and stores take exactly the LT time", "[core][at][timing]") {
    const uint64_t stride = 128 * 64; // same L1 set every 8 KB
    uint64_t lt_value = 0, at_value = 0;
    auto program = [stride](uint64_t& value) {
        return [stride, &value](CoreApi& c) {
            c.compute(1000);                            // 400 ns
            c.store(0x90000, 0x1122334455667788ull, 8); // uncacheable: 50
            c.compute(25);                              // 10
            value = c.load(0x90000, 8);                 // 50
            c.store(0x0, 0x77, 1);                      // miss (fill) 50 + 1.6, line dirty
            c.load(0x8, 8);                             // hit 1.6
            c.load(stride, 8);                          // miss 50 + 1.6
            c.compute(3);                               // 1.2
            c.load(2 * stride, 8);                      // miss, dirty victim: write-back 50 + fill 50 + 1.6
        };
    };
    auto cacheable = [](uint64_t a) { return a < 0x80000; };
    Bench lt(Timing::lt, "lt_", cacheable);
    Bench at(Timing::at, "at_", cacheable);
    lt.core.set_program(program(lt_value));
    at.core.set_program(program(at_value));
    sc_core::sc_start();

    const sc_time formula = ns(400 + 50 + 10 + 50 + 50 + 1.6 + 1.6 + 50 + 1.6 + 1.2 + 50 + 50 + 1.6);
    CHECK(lt.core.finish_time() == formula);
    CHECK(at.core.finish_time() == formula);
    CHECK(at.core.done());
    CHECK(at.core.timing() == Timing::at);
    CHECK(lt_value == 0x1122334455667788ull);
    CHECK(at_value == 0x1122334455667788ull);
    REQUIRE(at.mem.log.size() == 6);
    CHECK(at.mem.log == lt.mem.log); // same accesses at the same effective times
    CHECK(at.mem.log[0].at == ns(400));
    CHECK(at.mem.log[4].cmd == tlm::TLM_WRITE_COMMAND); // the write-back
    CHECK(at.mem.log[4].len == 64);
    CHECK(at.core.stats().l1_writebacks == 1);
    CHECK(at.core.stats().instructions == lt.core.stats().instructions);
    CHECK(at.router.begin_reqs == 6);
    CHECK(lt.router.begin_reqs == 0); // LT never uses nb_transport
    at.check_clean();
    CHECK(at.core.payload_pool().allocated() == 1); // one outstanding operation: one payload recycled
}

TEST_CASE("core at: store then load returns the value whichever way the memory accepts", "[core][at][memory]") {
    Bench once(Timing::at, "once_");
    Bench held(Timing::at, "held_");
    Bench ret(Timing::at, "ret_");
    Bench ann(Timing::at, "ann_"); // as `held`, with annotated backward calls
    held.mem.accept = AtMemory::Accept::withheld;
    held.mem.end_req_delay = ns(30);
    ann.mem.accept = AtMemory::Accept::withheld;
    ann.mem.end_req_delay = ns(30);
    ann.mem.bw_annotation = ns(20);
    ret.mem.accept = AtMemory::Accept::on_return;
    struct Seen {
        uint64_t value = 0, three = 0;
        sc_time after_store;
    };
    Seen s_once, s_held, s_ret, s_ann;
    auto program = [](Seen& s) {
        return [&s](CoreApi& c) {
            c.store(0x100, 0x1122334455667788ull, 8);
            s.after_store = sc_core::sc_time_stamp();
            s.value = c.load(0x100, 8);
            s.three = c.load(0x101, 3);
        };
    };
    once.core.set_program(program(s_once));
    held.core.set_program(program(s_held));
    ret.core.set_program(program(s_ret));
    ann.core.set_program(program(s_ann));
    sc_core::sc_start();

    for (const Seen* s : {&s_once, &s_held, &s_ret, &s_ann}) {
        CHECK(s->value == 0x1122334455667788ull);
        CHECK(s->three == 0x556677);
    }
    CHECK(once.mem.peek(0x100, 8) == 0x1122334455667788ull);
    // A store returns when its BEGIN_RESP is in: one outstanding operation.
    CHECK(s_once.after_store == ns(50));
    CHECK(once.core.finish_time() == ns(150));
    // Withheld END_REQ: 30 ns to acceptance, then 50 ns to the response.
    CHECK(s_held.after_store == ns(80));
    REQUIRE(held.mem.log.size() == 3);
    CHECK(held.mem.log[1].at == ns(80)); // the load waited for the store's response
    CHECK(held.core.finish_time() == ns(240));
    // Annotated END_REQ / BEGIN_RESP take effect at their annotated times.
    CHECK(s_ann.after_store == ns(80));
    CHECK(ann.mem.log == held.mem.log);
    CHECK(ann.core.finish_time() == ns(240));
    // TLM_UPDATED/BEGIN_RESP: the core completes the response with END_RESP.
    CHECK(s_ret.after_store == ns(50));
    CHECK(ret.core.finish_time() == ns(150));
    CHECK(ret.router.end_resps == 3);
    CHECK(once.router.end_resps == 0);
    once.check_clean();
    held.check_clean();
    ret.check_clean();
    ann.check_clean();
}

// ------------------------------------------------------------------ SynCron calls

TEST_CASE("core at: lock_acquire returns at the grant", "[core][at][sync]") {
    Bench b;
    const SyncVar lock = 0x4000;
    sc_time returned;
    b.core.set_program([&](CoreApi& c) {
        c.compute(25); // 10 ns
        c.lock_acquire(lock);
        returned = sc_core::sc_time_stamp();
    });
    Probe probe("probe", b.core, ns(60));
    sc_core::sc_start();

    REQUIRE(b.se.received.size() == 1);
    const AtFakeSe::Received& r = b.se.received[0];
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
    const AtFakeSe::Sent& g = b.se.sent[0];
    CHECK(g.at == ns(110));
    CHECK(g.fw_return == tlm::TLM_UPDATED); // the mailbox accepts at once
    CHECK(g.fw_phase == tlm::END_REQ);
    CHECK(g.status == tlm::TLM_OK_RESPONSE);
    CHECK(g.resp_at == ns(110));
    CHECK(returned == ns(110));
    CHECK(b.core.finish_time() == ns(110));
    REQUIRE(probe.state);
    CHECK(*probe.state == NdpCore::CoreState::waiting_sync);
    CHECK(b.core.stats().sync_ops == 1);
    CHECK(b.core.stats().messages(Opcode::lock_acquire_local) == 1);
    CHECK(b.core.stats().ack_wait_time == ns(100));
    REQUIRE(b.se.resp_at.size() == 1);
    CHECK(b.se.resp_at[0] == ns(20)); // the message's own response, absorbed while waiting
    b.check_clean();
}

TEST_CASE("core at: lock_release returns at END_REQ", "[core][at][sync]") {
    Bench b;
    const SyncVar lock = 0x4000;
    sc_time after_release;
    b.core.set_program([&](CoreApi& c) {
        c.lock_acquire(lock);
        c.lock_release(lock);
        after_release = sc_core::sc_time_stamp();
    });
    sc_core::sc_start();
    REQUIRE(b.se.received.size() == 2);
    CHECK(b.se.received[1].msg.op == Opcode::lock_release_local);
    CHECK(b.se.received[1].arrival == ns(100));
    CHECK(b.se.sent.size() == 1); // no ACK for the release
    // Accepted at once: the release commits at its END_REQ, not at the
    // response 10 ns later; its issue cycle is the core's pending time (as in LT).
    CHECK(after_release == ns(100));
    CHECK(b.core.finish_time() == ns(100) + b.core.cycle_time());
    REQUIRE(b.se.resp_at.size() == 2);
    CHECK(b.se.resp_at[1] == ns(110)); // absorbed after the program had finished
    CHECK(b.core.stats().sync_ops == 2);
    b.check_clean();
}

TEST_CASE("core at: a withheld END_REQ delays the core (back-pressure)", "[core][at][sync]") {
    Bench b;
    b.se.end_req_delay = ns(30);
    const SyncVar lock = 0x4000;
    sc_time after_acquire, after_release, after_post;
    b.core.set_program([&](CoreApi& c) {
        c.lock_acquire(lock);
        after_acquire = sc_core::sc_time_stamp();
        c.lock_release(lock);
        after_release = sc_core::sc_time_stamp();
        c.sem_post(0x4040);
        after_post = sc_core::sc_time_stamp();
        c.store(0x100, 1, 8);
    });
    Probe probe("probe", b.core, ns(115));
    sc_core::sc_start();

    REQUIRE(b.se.received.size() == 3);
    REQUIRE(b.se.end_req_at.size() == 3);
    CHECK(b.se.end_req_at[0] == ns(30));
    CHECK(after_acquire == ns(100)); // the grant, 100 ns after arrival
    CHECK(b.se.received[1].arrival == ns(100));
    CHECK(b.se.end_req_at[1] == ns(130));
    const sc_time issue = b.core.cycle_time();          // of each posted message
    CHECK(after_release == ns(130));                    // held until END_REQ
    CHECK(b.se.received[2].arrival == ns(130) + issue); // request exclusion: after the release's END_REQ
    CHECK(after_post == ns(160) + issue);
    REQUIRE(b.mem.log.size() == 1);
    CHECK(b.mem.log[0].at == ns(160) + 2 * issue);
    CHECK(b.core.finish_time() == ns(210) + 2 * issue);
    REQUIRE(probe.state);
    CHECK(*probe.state == NdpCore::CoreState::memory); // blocked in the release's request phase
    b.check_clean();
}

TEST_CASE("core at: cond_wait waits for the grant, then re-acquires the lock", "[core][at][sync]") {
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
    CHECK(b.se.sent[0].at == ns(100));
    CHECK(b.se.received[1].msg.op == Opcode::lock_acquire_local);
    CHECK(b.se.received[1].msg.addr == lock);
    CHECK(b.se.received[1].arrival == ns(100));
    CHECK(b.se.sent[1].msg.op == Opcode::lock_grant_local);
    CHECK(b.se.sent[1].status == tlm::TLM_OK_RESPONSE);
    CHECK(b.core.finish_time() == ns(200)); // as in LT
    CHECK(b.core.stats().sync_ops == 1);
    CHECK(b.core.stats().ack_wait_time == ns(200));
    b.check_clean();
}

TEST_CASE("core at: every Table 2 call carries its opcode and info", "[core][at][sync]") {
    Bench b;
    b.core.set_program(syncron::test::table2_program);
    sc_core::sc_start();
    syncron::test::check_table2_requests(b.se.received);
    const auto& r = b.se.received;
    CHECK(r[5].arrival == ns(300) + 2 * b.core.cycle_time());
    REQUIRE(b.se.sent.size() == 3);
    CHECK(b.se.sent[2].msg.op == Opcode::sem_grant_local);
    // three req_sync of 100 ns each; the req_async commit at their END_REQ
    // (at once) and cost their issue cycle, as in LT
    CHECK(b.core.finish_time() == ns(300) + 3 * b.core.cycle_time());
    CHECK(b.core.stats().sync_ops == 6);
    CHECK(b.core.stats().ack_wait_time == ns(300));
    CHECK(b.core.stats().instructions == 6);
    b.check_clean();
}

TEST_CASE("core at: an LT SE's b_transport grant still reaches an AT core", "[core][at][sync]") {
    Bench b;
    b.se.blocking_grants = true;
    sc_time returned;
    b.core.set_program([&](CoreApi& c) {
        c.compute(25);
        c.lock_acquire(0x4000);
        returned = sc_core::sc_time_stamp();
    });
    sc_core::sc_start();
    REQUIRE(b.se.sent.size() == 1);
    CHECK(b.se.sent[0].status == tlm::TLM_OK_RESPONSE);
    CHECK(returned == ns(110));
    b.check_clean();
}

// ------------------------------------------------------------------ mailbox, nb_transport

namespace {
/// Drives the core mailbox with nb_transport_fw. It answers the first
/// BEGIN_RESP with TLM_ACCEPTED and sends END_RESP 20 ns later, to check
/// the mailbox's response exclusion.
struct MailboxPoker : sc_core::sc_module {
    struct Result {
        tlm::tlm_sync_enum fw_return = tlm::TLM_COMPLETED;
        tlm::tlm_phase fw_phase = tlm::UNINITIALIZED_PHASE;
        tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
        sc_time resp_at;
        bool responded = false;
    };
    tlm_utils::simple_initiator_socket<MailboxPoker> out{"out"};
    PayloadPool pool;
    std::vector<Result> results;
    std::map<const tlm::tlm_generic_payload*, size_t> index;
    unsigned resp_while_open = 0; ///< BEGIN_RESPs while a response was open (must stay 0)
    const tlm::tlm_generic_payload* open_resp = nullptr;

    SC_HAS_PROCESS(MailboxPoker);
    explicit MailboxPoker(sc_core::sc_module_name n) : sc_module(n), m_peq(this, &MailboxPoker::peq_cb) {
        out.register_nb_transport_bw(this, &MailboxPoker::nb_transport_bw);
        SC_THREAD(run);
    }

    void send(std::optional<Message> m, tlm::tlm_command cmd, sc_time delay) {
        tlm::tlm_generic_payload& t = pool.acquire();
        if (m) pool.message_extension(t).msg = *m;
        t.set_command(cmd);
        t.set_data_length(kWireBytes);
        t.set_streaming_width(kWireBytes);
        index[&t] = results.size();
        results.emplace_back();
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        results.back().fw_return = out->nb_transport_fw(t, phase, delay);
        results.back().fw_phase = phase;
    }
    static Message msg(Opcode op, uint64_t addr) {
        Message m;
        m.op = op;
        m.addr = addr;
        m.core = kLocal;
        m.se = kUnit;
        return m;
    }
    void run() {
        wait(ns(5));
        send(std::nullopt, tlm::TLM_WRITE_COMMAND, SC_ZERO_TIME); // 0: no extension
        wait(ns(1));
        send(msg(Opcode::sem_grant_local, 0x4000), tlm::TLM_WRITE_COMMAND, ns(4)); // 1: wrong opcode, at 10 ns
        wait(ns(2));
        send(msg(Opcode::lock_grant_local, 0x4000), tlm::TLM_READ_COMMAND, SC_ZERO_TIME); // 2: a READ
        wait(ns(42));
        send(msg(Opcode::lock_grant_local, 0x4000), tlm::TLM_WRITE_COMMAND, ns(10)); // 3: the grant, at 60 ns
    }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
        if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
        if (open_resp) ++resp_while_open;
        Result& r = results[index.at(&t)];
        r.status = t.get_response_status();
        r.resp_at = now() + delay;
        r.responded = true;
        if (index.at(&t) == 0) { // hold the first response for 20 ns
            open_resp = &t;
            m_peq.notify(t, tlm::END_RESP, delay + ns(20));
            return tlm::TLM_ACCEPTED;
        }
        t.release();
        return tlm::TLM_COMPLETED;
    }
    void peq_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase&) {
        open_resp = nullptr;
        tlm::tlm_phase phase = tlm::END_RESP;
        sc_time d = SC_ZERO_TIME;
        end_resp_return = out->nb_transport_fw(t, phase, d);
        t.release();
    }
    tlm::tlm_sync_enum end_resp_return = tlm::TLM_ACCEPTED;
    tlm_utils::peq_with_cb_and_phase<MailboxPoker> m_peq;
};
} // namespace

namespace {
/// Stands in for the core mailbox when another initiator drives it.
struct NullTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<NullTarget> socket{"socket"};
    explicit NullTarget(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_nb_transport_fw(this, &NullTarget::nb_transport_fw);
    }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&) {
        return tlm::TLM_COMPLETED;
    }
};
} // namespace

TEST_CASE("core at: the mailbox answers nb BEGIN_REQ, in order, one response at a time", "[core][at][mailbox]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture_errors);
    AddressMap map{4, 16, MemoryParams{}};
    AtMemory mem("mem");
    AtFakeSe se("se");
    se.grant = false; // the poker sends the grant
    AtRouter router("router");
    NullTarget sink("sink");
    MailboxPoker poker("poker");
    NdpCore core("core", kUnit, kLocal, kGlobal, CoreParams{}, map, [](uint64_t) { return false; });
    const auto client = test::inject_syncron(core);
    core.set_timing(Timing::at);
    core.bus.bind(router.in);
    router.to_mem.bind(mem.socket);
    router.to_se.bind(se.in);
    se.out.bind(sink.socket);
    poker.out.bind(core.mailbox);
    sc_time returned;
    core.set_program([&](CoreApi& c) {
        c.lock_acquire(0x4000);
        returned = sc_core::sc_time_stamp();
    });
    sc_core::sc_start();

    REQUIRE(poker.results.size() == 4);
    for (const MailboxPoker::Result& r : poker.results) {
        CHECK(r.fw_return == tlm::TLM_UPDATED); // accepted at once
        CHECK(r.fw_phase == tlm::END_REQ);
        CHECK(r.responded);
    }
    const auto& r = poker.results;
    CHECK(r[0].status == tlm::TLM_GENERIC_ERROR_RESPONSE); // no extension
    CHECK(r[0].resp_at == ns(5));
    // Taken at 10 ns and 8 ns, answered only when the first response ended (25 ns).
    CHECK(r[1].status == tlm::TLM_GENERIC_ERROR_RESPONSE); // wrong opcode
    CHECK(r[1].resp_at == ns(25));
    CHECK(r[2].status == tlm::TLM_COMMAND_ERROR_RESPONSE); // a READ
    CHECK(r[2].resp_at == ns(25));
    CHECK(r[3].status == tlm::TLM_OK_RESPONSE); // the grant, effective at 60 ns
    CHECK(r[3].resp_at == ns(60));
    CHECK(poker.resp_while_open == 0);
    CHECK(poker.end_resp_return == tlm::TLM_COMPLETED);
    REQUIRE(g_errors.size() == 1);
    CHECK(contains(g_errors[0], "sem_grant_local"));
    CHECK(contains(g_errors[0], "lock_grant_local")); // what the core waited for
    CHECK(returned == ns(60));
    CHECK(core.stats().ack_wait_time == ns(60));
    CHECK(poker.pool.in_use() == 0); // the mailbox dropped every reference it took
    CHECK(core.payload_pool().in_use() == 0);
    CHECK(router.violations.empty());
}

// ------------------------------------------------------------------ errors

TEST_CASE("core at: an error response on a load is reported as in LT", "[core][at][memory][error]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture_errors);
    Bench b;
    uint64_t value = 1;
    b.mem.poke(0x40, 0xabcd, 2);
    uint64_t after = 0;
    b.core.set_program([&](CoreApi& c) {
        value = c.load(0x200000, 4); // beyond the 1 MB test memory
        after = c.load(0x40, 2);     // the core goes on
    });
    sc_core::sc_start();
    REQUIRE(g_errors.size() == 1);
    CHECK(contains(g_errors[0], "READ"));
    CHECK(contains(g_errors[0], "4 B"));
    CHECK(contains(g_errors[0], "0x200000"));
    CHECK(contains(g_errors[0], "TLM_ADDRESS_ERROR_RESPONSE"));
    CHECK(value == 0); // the access is dropped
    CHECK(after == 0xabcd);
    CHECK(b.core.finish_time() == ns(100)); // the failed load still took its response time
    b.check_clean();
}

TEST_CASE("core at: an error response to a message is reported with its opcode", "[core][at][sync][error]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture_errors);
    Bench b;
    b.se.fail_requests = true;
    b.core.set_program([&](CoreApi& c) {
        c.sem_post(0x7000);
        c.lock_acquire(0x7040); // rejected at its response: no ACK will come, the core must not hang
        c.compute(25);
    });
    sc_core::sc_start();
    REQUIRE(g_errors.size() == 2);
    CHECK(contains(g_errors[0], "sem_post_local"));
    CHECK(contains(g_errors[0], "0x7000"));
    CHECK(contains(g_errors[1], "lock_acquire_local"));
    CHECK(contains(g_errors[1], "0x7040"));
    CHECK(b.core.done());
    CHECK(b.se.sent.empty());
    // the release commits at END_REQ (0) plus its issue cycle, the acquire
    // ends with its error response (10), then 25 instructions
    CHECK(b.core.finish_time() == ns(20) + b.core.cycle_time());
    CHECK(b.core.stats().ack_wait_time == SC_ZERO_TIME);
    b.check_clean();
}

TEST_CASE("core at: set_timing after sc_start is an error", "[core][at][error]") {
    g_errors.clear();
    sc_core::sc_report_handler::set_handler(capture_errors);
    Bench b;
    b.core.set_program([](CoreApi& c) { c.compute(10); });
    sc_core::sc_start();
    b.core.set_timing(Timing::lt);
    REQUIRE(g_errors.size() == 1);
    CHECK(contains(g_errors[0], "before sc_start"));
    CHECK(b.core.timing() == Timing::at);
    CHECK(b.core.finish_time() == ns(4));
}
