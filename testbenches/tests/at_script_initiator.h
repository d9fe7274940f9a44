#pragma once
// The scripted 4-phase AT initiator shared by the AT test suites.
#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/tlm/payload_pool.h"

namespace syncron::test {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

/// 4-phase AT initiator with pooled payloads. issue() sends BEGIN_REQ (with an
/// optional timing annotation) and returns once END_REQ has come (so back-pressure shows as a late END_REQ);
/// several requests may be in flight (pipelining). BEGIN_RESP is answered
/// with TLM_COMPLETED.
class AtScriptInitiator : public sc_core::sc_module {
public:
    struct Txn {
        tlm::tlm_command cmd = tlm::TLM_IGNORE_COMMAND;
        uint64_t addr = 0;
        unsigned len = 0;
        sc_time begin_req, end_req, begin_resp;
        tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
        std::vector<uint8_t> data;   ///< read data at BEGIN_RESP
        std::vector<uint8_t> buffer; ///< data buffer when longer than PayloadPool::kMaxBytes
        bool accepted = false;
        bool done = false;
        unsigned order = 0; ///< position among responses (1 = first)
        sc_time latency() const { return begin_resp - begin_req; }
    };
    using Script = std::function<void(AtScriptInitiator&)>;

    tlm_utils::simple_initiator_socket<AtScriptInitiator> socket;
    PayloadPool pool;
    std::deque<Txn> txns;

    SC_HAS_PROCESS(AtScriptInitiator);
    AtScriptInitiator(const sc_core::sc_module_name& n, Script script)
        : sc_module(n), socket("socket"), m_script(std::move(script)), m_end_resp_peq("end_resp_peq") {
        socket.register_nb_transport_bw(this, &AtScriptInitiator::nb_transport_bw);
        SC_THREAD(run);
        SC_METHOD(send_end_resp);
        sensitive << m_end_resp_peq.get_event();
        dont_initialize();
    }

    /// Non-zero: answer BEGIN_RESP with TLM_ACCEPTED and send END_RESP this
    /// much later (a slow initiator, to exercise response exclusion).
    sc_time end_resp_delay = SC_ZERO_TIME;

    size_t issue(tlm::tlm_command cmd, uint64_t addr, std::vector<uint8_t> data, const uint8_t* byte_enable = nullptr,
                 sc_time delay = SC_ZERO_TIME) {
        while (m_req_open) sc_core::wait(m_end_req);
        tlm::tlm_generic_payload& t = pool.acquire();
        const unsigned len = static_cast<unsigned>(data.size());
        t.set_command(cmd);
        t.set_address(addr);
        t.set_data_length(len);
        t.set_streaming_width(len);
        const size_t id = txns.size();
        txns.emplace_back();
        txns.back().cmd = cmd;
        txns.back().addr = addr;
        txns.back().len = len;
        txns.back().begin_req = sc_core::sc_time_stamp() + delay;
        if (len > PayloadPool::kMaxBytes) { // longer than the pool's buffer: our own
            txns.back().buffer.resize(len);
            t.set_data_ptr(txns.back().buffer.data());
        }
        if (cmd == tlm::TLM_WRITE_COMMAND) std::memcpy(t.get_data_ptr(), data.data(), len);
        if (byte_enable) {
            t.set_byte_enable_ptr(const_cast<uint8_t*>(byte_enable));
            t.set_byte_enable_length(len);
        }
        m_ids[&t] = id;
        m_req_open = true;
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_time d = delay;
        const tlm::tlm_sync_enum s = socket->nb_transport_fw(t, ph, d);
        if (s == tlm::TLM_UPDATED) nb_transport_bw(t, ph, d); // same handling as on the backward path
        while (!txns[id].accepted) sc_core::wait(m_end_req);
        return id;
    }
    size_t read(uint64_t addr, unsigned len = 64, sc_time delay = SC_ZERO_TIME) {
        return issue(tlm::TLM_READ_COMMAND, addr, std::vector<uint8_t>(len), nullptr, delay);
    }
    size_t write(uint64_t addr, std::vector<uint8_t> data, sc_time delay = SC_ZERO_TIME) {
        return issue(tlm::TLM_WRITE_COMMAND, addr, std::move(data), nullptr, delay);
    }
    /// Requests whose END_REQ came strictly before `t`.
    size_t accepted_before(const sc_time& t) const {
        return static_cast<size_t>(
            std::count_if(txns.begin(), txns.end(), [&](const Txn& x) { return x.accepted && x.end_req < t; }));
    }
    void wait_done(size_t id) {
        while (!txns[id].done) sc_core::wait(m_resp);
    }
    void wait_all() {
        for (size_t i = 0; i < txns.size(); ++i) wait_done(i);
    }
    /// One transaction, waiting for its response.
    size_t transact_read(uint64_t addr, unsigned len = 64) {
        const size_t id = read(addr, len);
        wait_done(id);
        return id;
    }
    size_t transact_write(uint64_t addr, std::vector<uint8_t> data) {
        const size_t id = write(addr, std::move(data));
        wait_done(id);
        return id;
    }
    unsigned debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
        tlm::tlm_generic_payload t;
        t.set_command(cmd);
        t.set_address(addr);
        t.set_data_ptr(data);
        t.set_data_length(len);
        t.set_streaming_width(len);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        return socket->transport_dbg(t);
    }

    bool done() const { return m_done; }

private:
    void run() {
        m_script(*this);
        wait_all();
        m_done = true;
    }

    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
        Txn& x = txns.at(m_ids.at(&t));
        const sc_time at = sc_core::sc_time_stamp() + d;
        if (ph == tlm::END_REQ || (ph == tlm::BEGIN_RESP && !x.accepted)) {
            x.end_req = at;
            x.accepted = true;
            m_req_open = false;
            m_end_req.notify(d);
        }
        if (ph == tlm::BEGIN_RESP) {
            x.begin_resp = at;
            x.status = t.get_response_status();
            if (t.is_read()) x.data.assign(t.get_data_ptr(), t.get_data_ptr() + t.get_data_length());
            x.done = true;
            x.order = ++m_responses;
            m_ids.erase(&t);
            m_resp.notify(d);
            if (end_resp_delay != SC_ZERO_TIME) {
                m_end_resp_peq.notify(t, d + end_resp_delay);
                return tlm::TLM_ACCEPTED;
            }
            t.release();
            return tlm::TLM_COMPLETED;
        }
        return tlm::TLM_ACCEPTED;
    }

    void send_end_resp() {
        while (tlm::tlm_generic_payload* t = m_end_resp_peq.get_next_transaction()) {
            tlm::tlm_phase ph = tlm::END_RESP;
            sc_time d = SC_ZERO_TIME;
            socket->nb_transport_fw(*t, ph, d);
            t->release();
        }
    }

    Script m_script;
    std::unordered_map<const tlm::tlm_generic_payload*, size_t> m_ids;
    bool m_req_open = false;
    unsigned m_responses = 0;
    sc_core::sc_event m_end_req, m_resp;
    tlm_utils::peq_with_get<tlm::tlm_generic_payload> m_end_resp_peq;
    bool m_done = false;
};

} // namespace syncron::test
