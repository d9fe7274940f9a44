// Link, approximately-timed shell: a credit FIFO with back-pressure in front
// of the 4-phase handshake of the AT engine (docs/link.md, "AT").
#include <algorithm>

#include "models/interconnect/link.h"

namespace syncron {

using sc_core::sc_time;

tlm::tlm_sync_enum Link::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
    return m_in_port.nb_transport_fw(0, trans, phase, delay);
}

tlm::tlm_sync_enum Link::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
    return m_out_port.nb_transport_bw(0, trans, phase, delay);
}

void Link::begin_request(tlm::tlm_generic_payload& trans) {
    if (m_queue.size() < params().queue_depth) {
        enqueue(trans);
        m_in_port.accept(0, trans);
        return;
    }
    // Back-pressure: no credit left. Request exclusion on `in` leaves at most
    // one such request.
    m_withheld = &trans;
    ++m_withheld_count;
}

void Link::enqueue(tlm::tlm_generic_payload& trans) {
    const Schedule s = m_timing.schedule(request_bytes(trans), sc_core::sc_time_stamp(), false, traffic_class(trans));
    m_queue.push_back(Transfer{&trans, s.arrive});
    m_max_occupancy = std::max(m_max_occupancy, m_queue.size());
    m_kick.notify();
}

void Link::delivery_thread() {
    for (;;) {
        while (m_queue.empty() || m_out_port.request_open(0)) wait(m_kick);
        // The front cannot change until it is offered (only this thread
        // offers, only an offered transfer leaves the queue).
        const Transfer t = m_queue.front();
        const sc_time now = sc_core::sc_time_stamp();
        if (t.arrive > now)
            wait(t.arrive - now);
        else
            m_timing.add_queueing(now - t.arrive); // waited at the far end for the previous END_REQ
        m_out_port.send(0, *t.trans);
    }
}

void Link::downstream_accepted(tlm::tlm_generic_payload& trans) {
    if (m_queue.empty() || m_queue.front().trans != &trans) {
        SC_REPORT_ERROR(name(), "END_REQ from downstream for a transfer not offered");
        return;
    }
    m_queue.pop_front();
    m_kick.notify();
    if (m_withheld != nullptr && m_queue.size() < params().queue_depth) {
        tlm::tlm_generic_payload* t = m_withheld;
        m_withheld = nullptr;
        enqueue(*t);
        m_in_port.accept(0, *t);
    }
}

void Link::downstream_response(tlm::tlm_generic_payload& trans) {
    const sc_time now = sc_core::sc_time_stamp();
    m_resp_peq.notify(trans, tlm::BEGIN_RESP, m_timing.response_arrival(trans, now) - now);
}

void Link::resp_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase&) { m_in_port.respond(0, trans); }

} // namespace syncron
