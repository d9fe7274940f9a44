#pragma once
// The SE's input bound in loosely-timed mode (docs/timing.md, "The SE in
// LT"). In AT the messages waiting for the SPU are bounded: the SE's buffer
// (se.buffer_messages) and, in front of it, the interconnect's queue to the
// SE; once both are full the interconnect withholds END_REQ and the sender
// waits. An LT SE serves a message in its sender's call and books the SPU on
// a timeline, so nothing fills: this class keeps the start times of the
// services booked and not yet begun, counts those a message finds ahead of
// it (booked at or after its arrival and before its own start, for messages
// that arrived no later: AT's input is first come, first served), and gives
// the time the bounded input would have taken it: when as few are left
// ahead as the bound allows. Plain C++ (sc_time only as a value type).
#include <cstddef>
#include <vector>

#include <systemc>

namespace syncron {

class LtInputQueue {
public:
    struct Arrival {
        std::size_t ahead;         ///< messages waiting ahead of it, counted up to the capacity
        sc_core::sc_time accepted; ///< when the input takes it (>= its arrival)
    };

    /// A message that arrives at `arrival` and is served at `start`, at an
    /// input that holds `capacity` waiting messages (0: unbounded): the
    /// services that begin at or after `arrival` and before `start`, of
    /// messages that arrived no later, wait ahead of it; with `capacity` or
    /// more, the input takes it when the one `capacity` places before its own
    /// begins (then `capacity - 1` remain). Linear in the services booked
    /// between `arrival` and `start`, at most until `capacity` are counted.
    Arrival arrive(const sc_core::sc_time& arrival, const sc_core::sc_time& start, std::size_t capacity) const;
    /// A service booked to begin at `start` for a message that arrived at `arrival`.
    void book(const sc_core::sc_time& start, const sc_core::sc_time& arrival);
    /// Forgets the services begun before `now` (no arrival comes earlier).
    void prune(const sc_core::sc_time& now);
    std::size_t size() const { return m_starts.size() - m_head; }

private:
    struct Booked {
        sc_core::sc_time start;
        sc_core::sc_time arrival;
    };
    std::vector<Booked> m_starts; ///< sorted by start; [m_head, end) are kept
    std::size_t m_head = 0;       ///< begun entries before it, dropped lazily
};

} // namespace syncron
