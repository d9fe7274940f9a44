#include "models/core/reply_slot.h"

#include "models/common/hex.h"
#include "models/tlm/kernel_time.h"

namespace syncron {

std::string ReplySlot::waiting_for() const {
    if (!m_expected) return "not waiting for a reply";
    return "waiting for " + std::string(to_string(m_expected->op)) + " for " + hex(m_expected->addr);
}

void ReplySlot::store(const Message& m, const sc_core::sc_time& arrival) {
    m_reply = m;
    m_reply_time = arrival;
    m_expected.reset();
    // A grant served inside the core's own request needs no wake-up.
    if (m_awaiting) m_event.notify(arrival - kernel_time());
}

Message ReplySlot::take(const sc_core::sc_time& at, const sc_core::sc_time& issued) {
    const Message reply = *m_reply;
    m_reply.reset();
    m_expected.reset();
    m_event.cancel(); // a reply that beat the wait must not wake the next one
    m_ack_wait += at - issued;
    return reply;
}

} // namespace syncron
