#include "models/tlm/at_initiator_port.h"

namespace syncron {

using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

AtInitiatorPort::AtInitiatorPort(const sc_core::sc_object& owner, const char* peq_name, Forward forward,
                                 Callbacks callbacks, Options options)
    : m_owner(owner), m_forward(std::move(forward)), m_cb(std::move(callbacks)), m_opt(options),
      m_peq(peq_name, this, &AtInitiatorPort::peq_cb) {}

void AtInitiatorPort::error(const std::string& what) const { SC_REPORT_ERROR(m_owner.name(), what.c_str()); }

void AtInitiatorPort::send(unsigned index, Payload& trans) {
    if (index >= m_open.size()) m_open.resize(index + 1, nullptr);
    if (m_open[index] != nullptr)
        error("BEGIN_REQ on socket " + std::to_string(index) +
              " before END_REQ of its previous request (request exclusion)");
    if (!m_index.insert(&trans, index)) {
        error("BEGIN_REQ for a payload already in flight");
        return;
    }
    m_open[index] = &trans;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = SC_ZERO_TIME;
    switch (m_forward(index, trans, phase, delay)) {
    case tlm::TLM_ACCEPTED: // END_REQ (or BEGIN_RESP) comes on the backward path
        break;
    case tlm::TLM_UPDATED:
        if (phase == tlm::BEGIN_RESP) {
            m_end_resp_due.insert(&trans); // ended with END_RESP when it takes effect
        } else if (phase != tlm::END_REQ) {
            error(std::string("nb_transport_fw returned TLM_UPDATED with phase ") + phase.get_name() +
                  " for BEGIN_REQ; taken as END_REQ");
            phase = tlm::END_REQ;
        }
        arrived(trans, phase, delay);
        break;
    case tlm::TLM_COMPLETED: // early completion: request and response end at +delay
        arrived(trans, tlm::BEGIN_RESP, delay);
        break;
    }
}

tlm::tlm_sync_enum AtInitiatorPort::nb_transport_bw(unsigned index, Payload& trans, tlm::tlm_phase& phase,
                                                    sc_time& delay) {
    const unsigned* held = m_index.find(&trans);
    if (held == nullptr || *held != index) {
        error(std::string("nb_transport_bw: ") + phase.get_name() + " for a payload this socket does not hold");
        return tlm::TLM_COMPLETED;
    }
    if (phase != tlm::END_REQ && phase != tlm::BEGIN_RESP) {
        error("nb_transport_bw: unexpected phase (only END_REQ and BEGIN_RESP come back)");
        return tlm::TLM_COMPLETED;
    }
    arrived(trans, phase, delay);
    // The response phase ends here: the model never holds a response open.
    return phase == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
}

void AtInitiatorPort::arrived(Payload& trans, const tlm::tlm_phase& phase, const sc_time& delay) {
    if (m_opt.defer || delay != SC_ZERO_TIME)
        m_peq.notify(trans, phase, delay);
    else
        take_effect(trans, phase);
}

void AtInitiatorPort::peq_cb(Payload& trans, const tlm::tlm_phase& phase) { take_effect(trans, phase); }

void AtInitiatorPort::take_effect(Payload& trans, const tlm::tlm_phase& phase) {
    const unsigned* held = m_index.find(&trans);
    if (held == nullptr) return; // a second BEGIN_RESP for one request: ignored
    const unsigned index = *held;
    // END_REQ ends the request phase; so does BEGIN_RESP when END_REQ was skipped.
    if (m_open[index] == &trans) {
        m_open[index] = nullptr;
        if (m_cb.end_request) m_cb.end_request(index, trans);
    } else if (phase == tlm::END_REQ) {
        error("END_REQ for a payload that is not in its request phase");
        return;
    }
    if (phase != tlm::BEGIN_RESP) return;
    m_index.erase(&trans); // by key: end_request() may have sent another request
    if (!m_end_resp_due.empty() && m_end_resp_due.erase(&trans) != 0) { // rarely any: skip the hash
        tlm::tlm_phase end = tlm::END_RESP;
        sc_time d = SC_ZERO_TIME;
        if (m_forward(index, trans, end, d) != tlm::TLM_COMPLETED)
            error("END_RESP on nb_transport_fw not answered with TLM_COMPLETED");
    }
    if (m_cb.response) m_cb.response(index, trans);
}

} // namespace syncron
