#include "models/interconnect/crossbar.h"

#include <algorithm>
#include <sstream>
#include <string>

namespace syncron {

using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

namespace {
void hold(tlm::tlm_generic_payload& t) {
    if (t.has_mm()) t.acquire();
}
void drop(tlm::tlm_generic_payload& t) {
    if (t.has_mm()) t.release();
}
} // namespace

Crossbar::Crossbar(const sc_core::sc_module_name& name, const XbarParams& params,
                   const Router* router)
    : sc_module(name),
      in("in"),
      out("out"),
      m_params(params),
      m_cycle(params.clock_ghz > 0 ? sc_time(1.0 / params.clock_ghz, SC_NS) : SC_ZERO_TIME),
      m_router(router),
      m_fw_peq("fw_peq", this, &Crossbar::fw_peq_cb),
      m_bw_peq("bw_peq", this, &Crossbar::bw_peq_cb),
      m_resp_peq("resp_peq", this, &Crossbar::resp_peq_cb) {
    if (params.clock_ghz <= 0 || params.flit_bytes == 0)
        SC_REPORT_ERROR(this->name(), "crossbar: clock_ghz and flit_bytes must be positive");
    if (params.queue_depth == 0)
        SC_REPORT_ERROR(this->name(), "crossbar: queue_depth must be at least 1");
    in.register_b_transport(this, &Crossbar::b_transport);
    in.register_transport_dbg(this, &Crossbar::transport_dbg);
    in.register_nb_transport_fw(this, &Crossbar::nb_transport_fw);
    out.register_nb_transport_bw(this, &Crossbar::nb_transport_bw);
}

void Crossbar::end_of_elaboration() {
    m_ports.resize(out.size());
    m_at_out = std::vector<AtOutput>(out.size());
    m_at_in.resize(in.size());
    if (m_router == nullptr) SC_REPORT_ERROR(name(), "crossbar: no router set (call set_router)");
    // One forwarding thread per output port (the port count is known only now).
    for (unsigned o = 0; o < out.size(); ++o) {
        sc_core::sc_spawn_options opts;
        sc_core::sc_spawn(sc_bind(&Crossbar::output_thread, this, o), ("out_" + std::to_string(o)).c_str(),
                          &opts);
    }
}

sc_time Crossbar::hop_latency() const {
    return m_cycle * static_cast<double>(m_params.arbiter_cycles + m_params.hop_cycles);
}

unsigned Crossbar::flits(unsigned bytes) const {
    return std::max(1u, (bytes + m_params.flit_bytes - 1) / m_params.flit_bytes);
}

Crossbar::Schedule Crossbar::schedule(unsigned port, unsigned bytes, const sc_time& arrival) {
    Port& p = m_ports[port];
    // Nothing can arrive before the current time: older bookings are dead.
    p.timeline.prune(sc_core::sc_time_stamp());
    const sc_time occupancy = m_cycle * static_cast<double>(flits(bytes));
    Schedule s;
    s.start = p.timeline.book(arrival, occupancy);
    s.port_free = s.start + occupancy;
    ++p.transfers;
    p.bytes += bytes;
    p.queueing += s.start - arrival;
    m_queueing += s.start - arrival;
    return s;
}

int Crossbar::decode(tlm::tlm_generic_payload& trans, bool warn) {
    const uint64_t addr = trans.get_address();
    const int port = m_router ? m_router->route(addr) : -1;
    if (port < 0) {
        if (warn) {
            std::ostringstream os;
            os << "no output port for address 0x" << std::hex << addr;
            SC_REPORT_WARNING(name(), os.str().c_str());
        }
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return -1;
    }
    if (static_cast<unsigned>(port) >= out.size()) {
        // A router/netlist mismatch is a configuration bug, not a bad address.
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        std::ostringstream os;
        os << "router sent address 0x" << std::hex << addr << std::dec << " to port " << port
           << " but only " << out.size() << " output ports are bound";
        SC_REPORT_ERROR(name(), os.str().c_str());
        return -1;
    }
    return port;
}

void Crossbar::b_transport(int id, tlm::tlm_generic_payload& trans, sc_time& delay) {
    const int port = decode(trans, true);
    if (port < 0) {
        ++m_unrouted;
        return;
    }
    const sc_time arrival = sc_core::sc_time_stamp() + delay;
    const Schedule s = schedule(static_cast<unsigned>(port), trans.get_data_length(), arrival);
    delay += (s.start - arrival) + hop_latency();
    out[port]->b_transport(trans, delay);
}

unsigned Crossbar::transport_dbg(int id, tlm::tlm_generic_payload& trans) {
    const int port = decode(trans, false);
    if (port < 0) return 0;
    return out[port]->transport_dbg(trans);
}

// ---------------------------------------------------------------- AT: input side

Crossbar::AtInput& Crossbar::at_input(unsigned id) {
    if (id >= m_at_in.size()) m_at_in.resize(id + 1);
    return m_at_in[id];
}

tlm::tlm_sync_enum Crossbar::nb_transport_fw(int id, tlm::tlm_generic_payload& trans,
                                             tlm::tlm_phase& phase, sc_time& delay) {
    const unsigned input = static_cast<unsigned>(id);
    AtInput& in_state = at_input(input);
    if (phase == tlm::BEGIN_REQ) {
        if (in_state.request_open) {
            std::ostringstream os;
            os << "nb_transport_fw: BEGIN_REQ on input " << input
               << " before END_REQ of its previous request (request exclusion)";
            SC_REPORT_ERROR(name(), os.str().c_str());
        }
        if (!m_routes.emplace(&trans, Route{input, -1}).second) {
            SC_REPORT_ERROR(name(), "nb_transport_fw: BEGIN_REQ for a payload already in flight");
            return tlm::TLM_ACCEPTED;
        }
        hold(trans); // until its response has completed upstream
        in_state.request_open = true;
        if (delay != SC_ZERO_TIME) {
            m_fw_peq.notify(trans, phase, delay);
            return tlm::TLM_ACCEPTED;
        }
        if (!begin_request(input, trans)) return tlm::TLM_ACCEPTED; // END_REQ withheld
        in_state.request_open = false;
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    if (phase == tlm::END_RESP) {
        if (in_state.responding != &trans) {
            SC_REPORT_ERROR(name(), "nb_transport_fw: END_RESP for a payload not in its response phase");
            return tlm::TLM_COMPLETED;
        }
        if (delay != SC_ZERO_TIME)
            m_fw_peq.notify(trans, phase, delay);
        else
            response_completed(input, trans);
        return tlm::TLM_COMPLETED;
    }
    SC_REPORT_ERROR(name(), "nb_transport_fw: unexpected phase (only BEGIN_REQ and END_RESP come forward)");
    return tlm::TLM_COMPLETED;
}

void Crossbar::fw_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase) {
    const auto it = m_routes.find(&trans);
    if (it == m_routes.end()) return;
    const unsigned input = it->second.input;
    if (phase == tlm::END_RESP) {
        response_completed(input, trans);
        return;
    }
    // BEGIN_REQ at its effective time.
    if (!begin_request(input, trans)) return; // withheld; admit_waiting() answers later
    m_at_in[input].request_open = false;
    tlm::tlm_phase end = tlm::END_REQ;
    sc_time d = SC_ZERO_TIME;
    in[static_cast<int>(input)]->nb_transport_bw(trans, end, d);
}

bool Crossbar::begin_request(unsigned id, tlm::tlm_generic_payload& trans) {
    Route& r = m_routes.at(&trans);
    const int port = decode(trans, true);
    if (port < 0) {
        // Accept it (END_REQ) and answer with the error status decode() set,
        // without charging time, as the LT path does.
        ++m_unrouted;
        r.output = -1;
        m_resp_peq.notify(trans, tlm::BEGIN_RESP, SC_ZERO_TIME);
        return true;
    }
    r.output = port;
    AtOutput& o = m_at_out[static_cast<unsigned>(port)];
    if (o.waiting.empty() && o.queue.size() < m_params.queue_depth) {
        enqueue(static_cast<unsigned>(port), trans);
        return true;
    }
    // Back-pressure: END_REQ withheld until a slot of this output frees.
    // Request exclusion leaves at most one such request per input.
    m_at_in[id].withheld = &trans;
    o.waiting.push_back(id);
    ++o.withheld;
    return false;
}

void Crossbar::enqueue(unsigned port, tlm::tlm_generic_payload& trans) {
    AtOutput& o = m_at_out[port];
    o.queue.push_back(QueueEntry{&trans, sc_core::sc_time_stamp()});
    o.max_occupancy = std::max(o.max_occupancy, o.queue.size());
    o.kick.notify();
}

void Crossbar::admit_waiting(unsigned port) {
    AtOutput& o = m_at_out[port];
    while (!o.waiting.empty() && o.queue.size() < m_params.queue_depth) {
        const unsigned id = o.waiting.front();
        o.waiting.pop_front();
        tlm::tlm_generic_payload* t = m_at_in[id].withheld;
        m_at_in[id].withheld = nullptr;
        m_at_in[id].request_open = false;
        enqueue(port, *t);
        tlm::tlm_phase end = tlm::END_REQ;
        sc_time d = SC_ZERO_TIME;
        in[static_cast<int>(id)]->nb_transport_bw(*t, end, d);
    }
}

// ---------------------------------------------------------------- AT: output side

void Crossbar::output_thread(unsigned port) {
    AtOutput& o = m_at_out[port];
    for (;;) {
        while (o.queue.empty() || o.offered) wait(o.kick);
        // The front cannot change until it is offered: only this thread
        // offers, and only an offered request leaves the queue.
        const QueueEntry e = o.queue.front();
        const sc_time now = sc_core::sc_time_stamp();
        // The request crosses the arbiter and the switch (hop latency), then
        // waits for the port; the previous request of this port has been
        // accepted downstream (request exclusion), so `now` bounds it too.
        const sc_time ready = std::max(e.accepted + hop_latency(), now);
        const Schedule s = schedule(port, e.trans->get_data_length(), ready);
        // Queueing counts from the earliest possible departure, so the wait
        // for the downstream END_REQ is included.
        const sc_time extra = ready - (e.accepted + hop_latency());
        m_ports[port].queueing += extra;
        m_queueing += extra;
        if (s.start > now) wait(s.start - now);

        o.offered = true;
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_time d = SC_ZERO_TIME;
        const tlm::tlm_sync_enum st = out[static_cast<int>(port)]->nb_transport_fw(*e.trans, ph, d);
        if (st == tlm::TLM_UPDATED) {
            downstream_phase(port, *e.trans, ph, d);
            if (ph == tlm::BEGIN_RESP) {
                // A response on the return path is ended by the initiator with
                // END_RESP (it cannot be answered with TLM_COMPLETED).
                tlm::tlm_phase end = tlm::END_RESP;
                sc_time de = d;
                out[static_cast<int>(port)]->nb_transport_fw(*e.trans, end, de);
            }
        } else if (st == tlm::TLM_COMPLETED) {
            // Early completion: accepted, and the response is complete at now + d.
            downstream_phase(port, *e.trans, tlm::BEGIN_RESP, d);
        }
        // TLM_ACCEPTED: END_REQ or BEGIN_RESP will come on nb_transport_bw.
    }
}

tlm::tlm_sync_enum Crossbar::nb_transport_bw(int id, tlm::tlm_generic_payload& trans,
                                             tlm::tlm_phase& phase, sc_time& delay) {
    if (phase != tlm::END_REQ && phase != tlm::BEGIN_RESP) {
        SC_REPORT_ERROR(name(), "nb_transport_bw: unexpected phase (only END_REQ and BEGIN_RESP come back)");
        return tlm::TLM_COMPLETED;
    }
    downstream_phase(static_cast<unsigned>(id), trans, phase, delay);
    // The crossbar takes the response over at once: the target's response
    // phase ends here, the crossbar buffers it on its way back.
    return phase == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
}

void Crossbar::downstream_phase(unsigned port, tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase,
                                const sc_time& delay) {
    const auto it = m_routes.find(&trans);
    if (it == m_routes.end() || it->second.output != static_cast<int>(port)) {
        SC_REPORT_ERROR(name(), "nb_transport_bw: phase for a payload this output does not hold");
        return;
    }
    if (phase != tlm::END_REQ && phase != tlm::BEGIN_RESP) {
        SC_REPORT_ERROR(name(), "nb_transport_fw: unexpected phase returned by the downstream target");
        return;
    }
    if (delay != SC_ZERO_TIME) {
        m_bw_peq.notify(trans, phase, delay);
        return;
    }
    if (phase == tlm::END_REQ)
        downstream_accepted(port, trans);
    else
        downstream_response(trans);
}

void Crossbar::bw_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase) {
    const auto it = m_routes.find(&trans);
    if (it == m_routes.end() || it->second.output < 0) return;
    if (phase == tlm::END_REQ)
        downstream_accepted(static_cast<unsigned>(it->second.output), trans);
    else
        downstream_response(trans);
}

void Crossbar::downstream_accepted(unsigned port, tlm::tlm_generic_payload& trans) {
    AtOutput& o = m_at_out[port];
    if (!o.offered || o.queue.empty() || o.queue.front().trans != &trans) {
        SC_REPORT_ERROR(name(), "END_REQ from downstream for a request not offered on that output");
        return;
    }
    o.queue.pop_front();
    o.offered = false;
    o.kick.notify();
    admit_waiting(port);
}

void Crossbar::downstream_response(tlm::tlm_generic_payload& trans) {
    const Route& r = m_routes.at(&trans);
    AtOutput& o = m_at_out[static_cast<unsigned>(r.output)];
    // BEGIN_RESP without END_REQ implies the END_REQ.
    if (o.offered && !o.queue.empty() && o.queue.front().trans == &trans)
        downstream_accepted(static_cast<unsigned>(r.output), trans);
    m_resp_peq.notify(trans, tlm::BEGIN_RESP, hop_latency());
}

// ---------------------------------------------------------------- AT: responses

void Crossbar::resp_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase&) {
    const unsigned id = m_routes.at(&trans).input;
    m_at_in[id].responses.push_back(&trans);
    send_responses(id);
}

void Crossbar::send_responses(unsigned id) {
    while (m_at_in[id].responding == nullptr && !m_at_in[id].responses.empty()) {
        tlm::tlm_generic_payload* t = m_at_in[id].responses.front();
        m_at_in[id].responses.pop_front();
        m_at_in[id].responding = t;
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_time d = SC_ZERO_TIME;
        const tlm::tlm_sync_enum st = in[static_cast<int>(id)]->nb_transport_bw(*t, ph, d);
        if (st == tlm::TLM_COMPLETED || (st == tlm::TLM_UPDATED && ph == tlm::END_RESP)) {
            if (d != SC_ZERO_TIME) {
                m_fw_peq.notify(*t, tlm::END_RESP, d); // the response phase ends at now + d
                return;
            }
            finish_response(id, *t);
            continue;
        }
        return; // TLM_ACCEPTED: the initiator sends END_RESP on the forward path
    }
}

void Crossbar::finish_response(unsigned id, tlm::tlm_generic_payload& trans) {
    m_at_in[id].responding = nullptr;
    m_routes.erase(&trans);
    drop(trans);
}

void Crossbar::response_completed(unsigned id, tlm::tlm_generic_payload& trans) {
    if (m_at_in[id].responding != &trans) return;
    finish_response(id, trans);
    send_responses(id);
}

// ---------------------------------------------------------------- statistics

uint64_t Crossbar::total_transfers() const {
    uint64_t n = 0;
    for (const Port& p : m_ports) n += p.transfers;
    return n;
}

uint64_t Crossbar::total_bytes() const {
    uint64_t n = 0;
    for (const Port& p : m_ports) n += p.bytes;
    return n;
}

void Crossbar::reset_stats() {
    for (Port& p : m_ports) {
        p.transfers = p.bytes = 0;
        p.queueing = SC_ZERO_TIME;
    }
    for (AtOutput& o : m_at_out) {
        o.max_occupancy = o.queue.size();
        o.withheld = 0;
    }
    m_queueing = SC_ZERO_TIME;
    m_unrouted = 0;
}

} // namespace syncron
