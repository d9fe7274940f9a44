#pragma once
// The one outstanding req_sync of an NDP core: the reply it expects and, once
// in, the reply with its arrival time. The mailbox stores a reply as it
// arrives (a target never waits); the core's bus takes it at the core's time.
#include <cstdint>
#include <optional>
#include <string>

#include <systemc>

#include "models/protocol/message.h"
#include "models/protocol/opcode.h"

namespace syncron {

class ReplySlot {
public:
    /// `ack_wait` adds up the issue-to-reply time of every reply taken.
    explicit ReplySlot(sc_core::sc_time& ack_wait) : m_ack_wait(ack_wait) {}

    /// Arms the expectation (before sending: a target may answer inside the call).
    void expect(uint64_t var, Opcode reply, Opcode alt) {
        m_reply.reset();
        m_expected = Expected{reply, alt, var};
    }
    /// No reply will come (the request was rejected).
    void abandon() { m_expected.reset(); }
    /// `m` is the reply the core waits for.
    bool matches(const Message& m) const {
        return m_expected && m_expected->addr == m.addr && (m_expected->op == m.op || m_expected->alt == m.op);
    }
    /// What the core waits for, for error reports.
    std::string waiting_for() const;
    /// Stores the expected reply as arrived at `arrival`; wakes the core then
    /// if it waits for it. A second reply is an error (the expectation ends).
    void store(const Message& m, const sc_core::sc_time& arrival);

    bool arrived() const { return m_reply.has_value(); }
    const sc_core::sc_time& arrival() const { return m_reply_time; }
    /// Hands the reply over at the core's time `at`, for a request issued at `issued`.
    Message take(const sc_core::sc_time& at, const sc_core::sc_time& issued);

    /// The core waits on event() while awaiting (store() notifies only then).
    sc_core::sc_event& event() { return m_event; }
    void set_awaiting(bool on) { m_awaiting = on; }
    /// Ends a wait with nothing stored (the request failed after its END_REQ).
    void wake() { m_event.notify(); }

private:
    struct Expected {
        Opcode op;
        Opcode alt;
        uint64_t addr;
    };
    std::optional<Expected> m_expected;
    std::optional<Message> m_reply;
    sc_core::sc_time m_reply_time;
    sc_core::sc_event m_event;
    bool m_awaiting = false;
    sc_core::sc_time& m_ack_wait;
};

} // namespace syncron
