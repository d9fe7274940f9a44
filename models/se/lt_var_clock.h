#pragma once
// Causality of the SE's variables in loosely-timed mode (docs/timing.md,
// "The SE in LT").
//
// An LT SE serves each message inside its sender's call, in call order, and
// cores run up to a quantum apart: a message stamped earlier than one already
// served may still come. The SPU's time is booked like any other resource
// (ResourceTimeline); this class keeps, per variable, what a later message
// must not overtake in simulated time:
//  - a lock: its last release or grant (a lock freed at t is granted no
//    earlier than t); a request that only joins the waiters changes nothing
//    another message observes, so it holds nothing back;
//  - a semaphore: the time of each post that no waiter took (a token); a wait
//    granted from the count leaves no earlier than the earliest token it takes;
//  - a barrier or condition variable: every message (a barrier opens at its
//    last arrival; a wait releases its lock).
// Plain C++ (sc_time only as a value type): unit-tested without elaboration.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "models/protocol/message.h"
#include "models/se/core/se_result.h"

namespace syncron {

class LtVarClock {
public:
    /// Earliest service start of `msg` (before serving it).
    sc_core::sc_time ready(const Message& msg) const;
    /// `msg` was served, ending at `end`, and emitted `out`: returns when its
    /// messages may leave (>= end) and records what later messages must not overtake.
    sc_core::sc_time served(const Message& msg, const std::vector<Outgoing>& out, const sc_core::sc_time& end);
    /// Drops bounds at or before `now` (no arrival can come earlier); cheap to call often.
    void prune(const sc_core::sc_time& now);

    std::size_t floors() const { return m_floor.size(); }
    std::size_t tokens(uint64_t var) const;

private:
    sc_core::sc_time floor_of(uint64_t var) const;
    void raise(uint64_t var, const sc_core::sc_time& t);

    std::unordered_map<uint64_t, sc_core::sc_time> m_floor;
    /// Per semaphore, a min-heap of the posts' times no waiter took yet.
    std::unordered_map<uint64_t, std::vector<sc_core::sc_time>> m_tokens;
    std::size_t m_prune_at = 1024;
};

} // namespace syncron
