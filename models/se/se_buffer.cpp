#include "models/se/se_buffer.h"

#include <string>
#include <utility>

namespace syncron {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

SeBuffer::SeBuffer(const sc_core::sc_object& owner, SeService& service, AtTargetPort::Backward backward)
    : m_service(service),
      m_port(owner, "in_peq", std::move(backward),
             {[this](unsigned, tlm::tlm_generic_payload& t) { request(t); }, nullptr}, {/*defer=*/true}) {}

void SeBuffer::insert(const Arrival& a, const sc_time& delay) {
    m_fifo.insert(a); // sorted; (time, seq) is unique
    m_arrival.notify(delay);
}

unsigned SeBuffer::waiting_at(const sc_time& t) const {
    const Arrival probe{t, ~0ull, Message{}};
    return static_cast<unsigned>(m_fifo.count_not_after(probe));
}

void SeBuffer::request(tlm::tlm_generic_payload& t) {
    Message msg;
    std::string why;
    if (!m_service.decode(t, msg, why)) {
        m_port.accept(0, t);
        m_port.respond(0, t); // carries the error status decode() set
        m_service.reject(why);
        return;
    }
    if (m_fifo.size() >= m_service.params().buffer_messages) {
        // Buffer full: END_REQ is withheld until the SPU frees a slot. The
        // sender obeys request exclusion, so at most one request waits here.
        ++m_service.stats().buffer_full_events;
        m_withheld = &t;
        return;
    }
    accept(t);
}

void SeBuffer::accept(tlm::tlm_generic_payload& t) {
    Message msg;
    std::string why;
    m_service.decode(t, msg, why, /*check=*/false); // validated on arrival
    const sc_time now = sc_core::sc_time_stamp();
    m_fifo.push_back(stamp(now, msg));
    if (m_service.trace()) m_service.trace_arrival(t, msg, now);
    m_arrival.notify(SC_ZERO_TIME);
    m_port.accept(0, t);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    m_port.respond(0, t);
}

void SeBuffer::release_withheld() {
    if (!m_withheld || m_fifo.size() >= m_service.params().buffer_messages) return;
    tlm::tlm_generic_payload* t = m_withheld;
    m_withheld = nullptr;
    accept(*t);
}

} // namespace syncron
