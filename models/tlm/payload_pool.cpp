#include "models/tlm/payload_pool.h"

#include <stdexcept>

namespace syncron {

PayloadPool::~PayloadPool() {
    // Detach every extension before the payloads die: the slots' own are
    // members, and a payload abandoned in flight (a run ended by an error)
    // may still carry one its initiator owns (on the stack or as a member),
    // which the payload's destructor would otherwise delete.
    for (auto& s : m_all)
        for (unsigned i = 0; i < tlm::max_num_extensions(); ++i) s->payload.set_extension(i, nullptr);
}

PayloadPool::Slot& PayloadPool::slot_of(tlm::tlm_generic_payload* t) {
    auto it = m_slots.find(t);
    if (it == m_slots.end()) throw std::logic_error("PayloadPool: payload does not belong to this pool");
    return *it->second;
}

tlm::tlm_generic_payload& PayloadPool::acquire() {
    Slot* s;
    if (m_free.empty()) {
        m_all.push_back(std::make_unique<Slot>(this));
        s = m_all.back().get();
        m_slots.emplace(&s->payload, s);
    } else {
        s = m_free.back();
        m_free.pop_back();
    }
    tlm::tlm_generic_payload& t = s->payload;
    t.set_command(tlm::TLM_IGNORE_COMMAND);
    t.set_address(0);
    t.set_data_ptr(s->data);
    t.set_data_length(0);
    t.set_streaming_width(0);
    t.set_byte_enable_ptr(nullptr);
    t.set_byte_enable_length(0);
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_gp_option(tlm::TLM_MIN_PAYLOAD);
    t.acquire();
    return t;
}

SyncronExtension& PayloadPool::message_extension(tlm::tlm_generic_payload& t) {
    Slot& s = slot_of(&t);
    if (t.get_extension<SyncronExtension>() != &s.ext) t.set_extension(&s.ext);
    return s.ext;
}

void PayloadPool::free(tlm::tlm_generic_payload* t) {
    Slot& s = slot_of(t);
    t->clear_extension(&s.ext);
    t->reset(); // frees auto extensions others attached
    m_free.push_back(&s);
}

} // namespace syncron
