#include "models/tlm/resource_timeline.h"

#include <algorithm>

namespace syncron {

using sc_core::sc_time;

ResourceTimeline::ResourceTimeline(std::size_t max_intervals) : m_max(std::max<std::size_t>(1, max_intervals)) {
    m_intervals.reserve(m_max + 1);
}

std::size_t ResourceTimeline::first_ending_after(const sc_time& t) const {
    // Intervals are disjoint and sorted, so their ends are sorted too.
    const auto it = std::upper_bound(m_intervals.begin(), m_intervals.end(), t,
                                     [](const sc_time& v, const Interval& iv) { return v < iv.end; });
    return static_cast<std::size_t>(it - m_intervals.begin());
}

sc_time ResourceTimeline::fit(sc_time t, const sc_time& occupancy, std::size_t& pos) const {
    if (t < m_floor) t = m_floor;
    // Common case in LT: the request comes after everything booked so far.
    if (m_intervals.empty() || t >= m_intervals.back().end) {
        pos = m_intervals.size();
        return t;
    }
    std::size_t i = first_ending_after(t);
    // t < m_intervals[i].end here: either it fits before interval i, or it is
    // pushed to the end of i and tries the next gap.
    while (i < m_intervals.size() && t + occupancy > m_intervals[i].start) {
        t = m_intervals[i].end;
        ++i;
    }
    pos = i;
    return t;
}

sc_time ResourceTimeline::earliest_start(const sc_time& arrival, const sc_time& occupancy) const {
    if (occupancy == sc_core::SC_ZERO_TIME) return arrival;
    std::size_t pos = 0;
    return fit(arrival, occupancy, pos);
}

void ResourceTimeline::insert(std::size_t pos, const sc_time& start, const sc_time& end) {
    if (pos == m_intervals.size() && (pos == 0 || m_intervals.back().end < start)) {
        // The uncontended case in LT: a booking after all the others, not touching the last.
        m_intervals.push_back(Interval{start, end});
        if (m_intervals.size() > m_max) merge_smallest_gap();
        return;
    }
    // Touching neighbours merge, so the list stays short when the resource is saturated.
    const bool join_prev = pos > 0 && m_intervals[pos - 1].end == start;
    const bool join_next = pos < m_intervals.size() && m_intervals[pos].start == end;
    if (join_prev && join_next) {
        m_intervals[pos - 1].end = m_intervals[pos].end;
        m_intervals.erase(m_intervals.begin() + static_cast<std::ptrdiff_t>(pos));
    } else if (join_prev) {
        m_intervals[pos - 1].end = end;
    } else if (join_next) {
        m_intervals[pos].start = start;
    } else {
        m_intervals.insert(m_intervals.begin() + static_cast<std::ptrdiff_t>(pos), Interval{start, end});
    }
    if (m_intervals.size() > m_max) merge_smallest_gap();
}

void ResourceTimeline::merge_smallest_gap() {
    // Filling the shortest gap loses the least idle time; with long quanta the
    // whole list lies ahead of the current time, so the oldest gap is no less
    // likely to be asked for than any other (merging it cost 37% of the link
    // bandwidth of 16 cores at a 1000 ns quantum). Ties go to the oldest gap.
    std::size_t best = 0;
    sc_time best_gap = m_intervals[1].start - m_intervals[0].end;
    for (std::size_t i = 1; i + 1 < m_intervals.size(); ++i) {
        const sc_time gap = m_intervals[i + 1].start - m_intervals[i].end;
        if (gap < best_gap) {
            best_gap = gap;
            best = i;
        }
    }
    m_intervals[best].end = m_intervals[best + 1].end;
    m_intervals.erase(m_intervals.begin() + static_cast<std::ptrdiff_t>(best) + 1);
}

sc_time ResourceTimeline::book(const sc_time& arrival, const sc_time& occupancy) {
    if (occupancy == sc_core::SC_ZERO_TIME) return arrival;
    std::size_t pos = 0;
    const sc_time start = fit(arrival, occupancy, pos);
    insert(pos, start, start + occupancy);
    m_busy_time += occupancy;
    ++m_bookings;
    return start;
}

void ResourceTimeline::prune(const sc_time& before) {
    if (m_intervals.empty() || m_intervals.front().end > before) return;
    if (m_intervals.back().end <= before) { // all of them have ended (the uncontended case)
        m_floor = std::max(m_floor, m_intervals.back().end);
        m_intervals.clear();
        return;
    }
    const std::size_t k = first_ending_after(before);
    m_floor = std::max(m_floor, m_intervals[k - 1].end);
    m_intervals.erase(m_intervals.begin(), m_intervals.begin() + static_cast<std::ptrdiff_t>(k));
}

void ResourceTimeline::clear() {
    m_intervals.clear();
    m_floor = m_busy_time = sc_core::SC_ZERO_TIME;
    m_bookings = 0;
}

sc_time ResourceTimeline::busy_until() const { return m_intervals.empty() ? m_floor : m_intervals.back().end; }

} // namespace syncron
