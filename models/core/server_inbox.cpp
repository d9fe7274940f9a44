#include "models/core/server_inbox.h"

#include <algorithm>

namespace syncron {

void ServerInbox::push(const sc_core::sc_time& arrival, const Message& m, const Endpoint& src) {
    const Inbound in{arrival, m_seq++, m, src};
    auto it = std::upper_bound(m_queue.begin(), m_queue.end(), in, [](const Inbound& a, const Inbound& b) {
        return a.time != b.time ? a.time < b.time : a.seq < b.seq;
    });
    m_queue.insert(it, in);
    m_event.notify(sc_core::SC_ZERO_TIME);
}

CoreServices::Received ServerInbox::next() {
    for (;;) {
        while (m_queue.empty()) sc_core::wait(m_event);
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        // Later arrivals are stamped now or later, so the head is final once
        // its time has come.
        if (m_queue.front().time > now) {
            sc_core::wait(m_queue.front().time - now, m_event);
            continue;
        }
        const CoreServices::Received r{m_queue.front().msg, m_queue.front().src};
        m_queue.pop_front();
        return r;
    }
}

} // namespace syncron
