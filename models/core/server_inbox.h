#pragma once
// A server core's mailbox (Central's and Hier's server programs,
// docs/schemes.md): every message that reaches it is queued in arrival order
// (time, then order of arrival) until the server program receives it.
#include <cstdint>
#include <deque>

#include <systemc>

#include "models/core/core_services.h"

namespace syncron {

class ServerInbox {
public:
    /// A message arriving at `arrival` (>= sc_time_stamp()).
    void push(const sc_core::sc_time& arrival, const Message& m, const Endpoint& src);
    /// Waits (in the calling thread) until the first message's arrival has
    /// come, and takes it.
    CoreServices::Received next();

private:
    struct Inbound {
        sc_core::sc_time time;
        uint64_t seq;
        Message msg;
        Endpoint src;
    };
    std::deque<Inbound> m_queue;
    uint64_t m_seq = 0;
    sc_core::sc_event m_event;
};

} // namespace syncron
