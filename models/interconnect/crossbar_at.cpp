// Crossbar, approximately-timed shell: output queues with back-pressure in
// front of the 4-phase handshake of the AT engine (docs/crossbar.md, "AT").
#include <algorithm>

#include "models/interconnect/crossbar.h"

namespace syncron {

using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

tlm::tlm_sync_enum Crossbar::nb_transport_fw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                             sc_time& delay) {
    return m_in_port.nb_transport_fw(static_cast<unsigned>(id), trans, phase, delay);
}

tlm::tlm_sync_enum Crossbar::nb_transport_bw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                             sc_time& delay) {
    return m_out_port.nb_transport_bw(static_cast<unsigned>(id), trans, phase, delay);
}

void Crossbar::begin_request(unsigned id, tlm::tlm_generic_payload& trans) {
    const int port = decode(trans, true);
    if (port < 0) {
        // Accept it (END_REQ) and answer with the error status decode() set,
        // without charging time, as the LT path does.
        m_timing.count_unrouted();
        m_resp_peq.notify(trans, tlm::BEGIN_RESP, SC_ZERO_TIME);
        m_in_port.accept(id, trans);
        return;
    }
    AtOutput& o = m_at_out[static_cast<unsigned>(port)];
    if (o.waiting.empty() && o.queue.size() < params().queue_depth) {
        enqueue(static_cast<unsigned>(port), trans);
        m_in_port.accept(id, trans);
        return;
    }
    // Back-pressure: END_REQ withheld until a slot of this output frees.
    // Request exclusion leaves at most one such request per input.
    if (id >= m_withheld.size()) m_withheld.resize(id + 1, nullptr);
    m_withheld[id] = &trans;
    o.waiting.push_back(id);
    ++o.withheld;
}

void Crossbar::enqueue(unsigned port, tlm::tlm_generic_payload& trans) {
    AtOutput& o = m_at_out[port];
    o.queue.push_back(QueueEntry{&trans, sc_core::sc_time_stamp()});
    o.max_occupancy = std::max(o.max_occupancy, o.queue.size());
    o.kick.notify();
}

void Crossbar::admit_waiting(unsigned port) {
    AtOutput& o = m_at_out[port];
    while (!o.waiting.empty() && o.queue.size() < params().queue_depth) {
        const unsigned id = o.waiting.front();
        o.waiting.pop_front();
        tlm::tlm_generic_payload* t = m_withheld[id];
        m_withheld[id] = nullptr;
        enqueue(port, *t);
        m_in_port.accept(id, *t);
    }
}

void Crossbar::output_thread(unsigned port) {
    AtOutput& o = m_at_out[port];
    for (;;) {
        while (o.queue.empty() || m_out_port.request_open(port)) wait(o.kick);
        // The front cannot change until it is offered: only this thread
        // offers, and only an offered request leaves the queue.
        const QueueEntry e = o.queue.front();
        const sc_time now = sc_core::sc_time_stamp();
        // The request crosses the arbiter and the switch (hop latency), then
        // waits for the port; the previous request of this port has been
        // accepted downstream (request exclusion), so `now` bounds it too.
        const sc_time ready = std::max(e.accepted + hop_latency(), now);
        const Schedule s = m_timing.schedule(port, e.trans->get_data_length(), ready, traffic_class(*e.trans));
        // Queueing counts from the earliest possible departure, so the wait
        // for the downstream END_REQ is included.
        m_timing.add_queueing(port, ready - (e.accepted + hop_latency()));
        if (s.start > now) wait(s.start - now);
        m_out_port.send(port, *e.trans);
    }
}

void Crossbar::downstream_accepted(unsigned port, tlm::tlm_generic_payload& trans) {
    AtOutput& o = m_at_out[port];
    if (o.queue.empty() || o.queue.front().trans != &trans) {
        SC_REPORT_ERROR(name(), "END_REQ from downstream for a request not offered on that output");
        return;
    }
    o.queue.pop_front();
    o.kick.notify();
    admit_waiting(port);
}

void Crossbar::resp_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase&) {
    m_in_port.respond(m_in_port.index_of(trans), trans);
}

} // namespace syncron
