#include "models/tlm/at_target_port.h"

namespace syncron {

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

AtTargetPort::AtTargetPort(const sc_core::sc_object& owner, const char* peq_name, Backward backward,
                           Callbacks callbacks, Options options)
    : m_owner(owner), m_backward(std::move(backward)), m_cb(std::move(callbacks)), m_opt(options),
      m_peq(peq_name, this, &AtTargetPort::peq_cb) {}

AtTargetPort::Socket& AtTargetPort::grow(unsigned index) {
    m_sockets.resize(index + 1);
    return m_sockets[index];
}

bool AtTargetPort::request_open(unsigned index) const {
    return index < m_sockets.size() && m_sockets[index].request != nullptr;
}

void AtTargetPort::error(const std::string& what) const { SC_REPORT_ERROR(m_owner.name(), what.c_str()); }

tlm::tlm_sync_enum AtTargetPort::nb_transport_fw(unsigned index, Payload& trans, tlm::tlm_phase& phase,
                                                 sc_time& delay) {
    Socket& s = socket(index);
    if (phase == tlm::BEGIN_REQ) {
        if (s.request != nullptr)
            error("nb_transport_fw: BEGIN_REQ on socket " + std::to_string(index) +
                  " before END_REQ of its previous request (request exclusion)");
        if (!m_index.insert(&trans, index)) {
            error("nb_transport_fw: BEGIN_REQ for a payload already in flight");
            return tlm::TLM_ACCEPTED;
        }
        hold(trans); // until its response has completed
        if (m_opt.accept_at_once) {
            m_peq.notify(trans, phase, delay);
            phase = tlm::END_REQ;
            return tlm::TLM_UPDATED;
        }
        s.request = &trans;
        if (m_opt.defer || delay != SC_ZERO_TIME) {
            m_peq.notify(trans, phase, delay);
            return tlm::TLM_ACCEPTED;
        }
        s.in_call = true;
        s.accepted_in_call = false;
        m_cb.request(index, trans);
        Socket& after = m_sockets[index]; // request() may have grown m_sockets
        after.in_call = false;
        if (!after.accepted_in_call) return tlm::TLM_ACCEPTED; // END_REQ withheld
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    if (phase == tlm::END_RESP) {
        if (s.responding != &trans) {
            error("nb_transport_fw: END_RESP for a payload not in its response phase");
            return tlm::TLM_COMPLETED;
        }
        if (m_opt.defer || delay != SC_ZERO_TIME)
            m_peq.notify(trans, phase, delay);
        else
            response_completed(index, trans);
        return tlm::TLM_COMPLETED;
    }
    error("nb_transport_fw: unexpected phase (only BEGIN_REQ and END_RESP come forward)");
    return tlm::TLM_COMPLETED;
}

void AtTargetPort::peq_cb(Payload& trans, const tlm::tlm_phase& phase) {
    const unsigned* held = m_index.find(&trans);
    if (held == nullptr) return;
    const unsigned index = *held;
    if (phase == tlm::END_RESP)
        response_completed(index, trans);
    else if (phase == tlm::BEGIN_RESP) // respond() from inside a forward call
        send_responses(index);
    else
        m_cb.request(index, trans); // BEGIN_REQ at its effective time
}

void AtTargetPort::accept(unsigned index, Payload& trans) {
    if (m_opt.accept_at_once) return; // END_REQ went on the return path
    Socket& s = socket(index);
    if (s.request != &trans) {
        error("accept: the payload is not in its request phase");
        return;
    }
    s.request = nullptr;
    if (s.in_call) {
        s.accepted_in_call = true; // END_REQ on the return path
        return;
    }
    tlm::tlm_phase end = tlm::END_REQ;
    sc_time d = SC_ZERO_TIME;
    m_backward(index, trans, end, d);
}

void AtTargetPort::respond(unsigned index, Payload& trans) {
    Socket& s = socket(index);
    if (s.in_call) {
        s.responses.push_back(&trans);
        // No BEGIN_RESP before the forward call has returned: one delta later.
        m_peq.notify(trans, tlm::BEGIN_RESP, SC_ZERO_TIME);
        return;
    }
    send_responses(index, &trans);
}

void AtTargetPort::send_responses(unsigned index, Payload* ready) {
    Socket& s = m_sockets[index];
    // `ready` (a response just made) queues behind the others; when the socket
    // is idle it goes at once, without a trip through the queue.
    if (ready != nullptr && (s.responding != nullptr || !s.responses.empty())) {
        s.responses.push_back(ready);
        ready = nullptr;
    }
    while (s.responding == nullptr && (ready != nullptr || !s.responses.empty())) {
        Payload* t = ready;
        if (t != nullptr)
            ready = nullptr;
        else {
            t = s.responses.front();
            s.responses.pop_front();
        }
        s.responding = t;
        if (m_cb.response_started) m_cb.response_started(index, *t);
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_time d = SC_ZERO_TIME;
        const tlm::tlm_sync_enum st = m_backward(index, *t, ph, d);
        if (st == tlm::TLM_COMPLETED || (st == tlm::TLM_UPDATED && ph == tlm::END_RESP)) {
            if (d != SC_ZERO_TIME) {
                m_peq.notify(*t, tlm::END_RESP, d); // the response phase ends at now + d
                return;
            }
            s.responding = nullptr;
            m_index.erase(t);
            drop(*t);
            continue;
        }
        return; // TLM_ACCEPTED: END_RESP comes on the forward path
    }
}

void AtTargetPort::response_completed(unsigned index, Payload& trans) {
    Socket& s = m_sockets[index];
    if (s.responding != &trans) return;
    s.responding = nullptr;
    m_index.erase(&trans);
    drop(trans);
    send_responses(index);
}

} // namespace syncron
