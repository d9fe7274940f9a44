#pragma once
// Reservation calendar of one timed resource (a DRAM bank, a crossbar output
// port, one direction of a link) for the loosely-timed models.
//
// With temporal decoupling, requests reach a resource in simulation order, not
// in the order of their effective times: an initiator running ahead books the
// resource in its future and a later caller may arrive earlier in time. A
// single "busy-until" time would make that caller queue behind the future
// booking; the timeline instead keeps the booked busy intervals and puts each
// request in the earliest gap at or after its arrival where it fits (first
// fit). Bookings already made are never moved, since their delay has been
// returned to their initiator.
//
// Plain C++ (sc_time is only a value type here): no process, no kernel call,
// so it is unit-tested without elaboration. Memory is bounded: intervals that
// ended before prune()'s argument are dropped, and past max_intervals the two
// intervals around the shortest gap are merged (conservative: that gap becomes
// busy, so a later request may wait where it would not have).
#include <cstddef>
#include <vector>

#include <systemc>

namespace syncron {

class ResourceTimeline {
public:
    /// One busy interval [start, end).
    struct Interval {
        sc_core::sc_time start;
        sc_core::sc_time end;
    };

    static constexpr std::size_t kDefaultMaxIntervals = 64;

    explicit ResourceTimeline(std::size_t max_intervals = kDefaultMaxIntervals);

    /// Reserve the resource for `occupancy` from the earliest time >= `arrival`
    /// at which it is free for that long; returns that start time. A zero
    /// occupancy needs no resource: it starts at `arrival` and books nothing.
    sc_core::sc_time book(const sc_core::sc_time& arrival, const sc_core::sc_time& occupancy);
    /// The start book() would return, without booking (for an AT path or a probe).
    sc_core::sc_time earliest_start(const sc_core::sc_time& arrival, const sc_core::sc_time& occupancy) const;

    /// Drop the intervals that end at or before `before`. Callers pass a time
    /// no future request can arrive before (in LT: sc_time_stamp(), because an
    /// effective time is sc_time_stamp() + a non-negative delay); results for
    /// arrivals >= `before` are unchanged. An arrival before the end of a
    /// dropped interval is served from that end, so bookings never overlap.
    void prune(const sc_core::sc_time& before);
    /// Forget all bookings (the resource is free from time 0 again).
    void clear();

    /// End of the last booking: from then on the resource is free.
    sc_core::sc_time busy_until() const;
    /// Sum of all occupancies booked since construction or clear().
    const sc_core::sc_time& busy_time() const { return m_busy_time; }
    /// Number of bookings since construction or clear() (zero occupancies excluded).
    std::size_t bookings() const { return m_bookings; }

    /// The busy intervals still kept, sorted, disjoint and not touching.
    const std::vector<Interval>& intervals() const { return m_intervals; }
    std::size_t size() const { return m_intervals.size(); }
    std::size_t max_intervals() const { return m_max; }
    /// No booking may start before this (end of the last dropped interval).
    const sc_core::sc_time& floor() const { return m_floor; }

private:
    /// Index of the first interval that ends after t.
    std::size_t first_ending_after(const sc_core::sc_time& t) const;
    /// First fit at or after t; returns the start, `pos` the index to insert at.
    sc_core::sc_time fit(sc_core::sc_time t, const sc_core::sc_time& occupancy, std::size_t& pos) const;
    void insert(std::size_t pos, const sc_core::sc_time& start, const sc_core::sc_time& end);
    /// Over the cap: join the two intervals around the shortest gap.
    void merge_smallest_gap();

    std::vector<Interval> m_intervals;
    std::size_t m_max;
    sc_core::sc_time m_floor;
    sc_core::sc_time m_busy_time;
    std::size_t m_bookings = 0;
};

} // namespace syncron
