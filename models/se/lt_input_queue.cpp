#include "models/se/lt_input_queue.h"

#include <algorithm>

namespace syncron {

using sc_core::sc_time;

LtInputQueue::Arrival LtInputQueue::arrive(const sc_time& arrival, const sc_time& start, std::size_t capacity) const {
    // Nothing booked from the arrival on: the usual case below saturation.
    if (m_head == m_starts.size() || m_starts.back().start < arrival) return {0, arrival};
    // A service that begins on the arrival still counts (AT counts the
    // message about to start among those waiting). Only messages that
    // arrived no later wait ahead: AT's input is first come, first served,
    // and a later one booked into an earlier gap (its core ran ahead) would
    // have queued behind this one.
    const auto before = [](const Booked& b, const sc_time& t) { return b.start < t; };
    const auto lo =
        std::lower_bound(m_starts.begin() + static_cast<std::ptrdiff_t>(m_head), m_starts.end(), arrival, before);
    const auto hi = std::lower_bound(lo, m_starts.end(), start, before);
    std::size_t ahead = 0;
    for (auto it = hi; it != lo;) {
        --it;
        if (it->arrival > arrival) continue;
        if (++ahead == capacity) return {ahead, it->start}; // taken when the one `capacity` places ahead begins
    }
    return {ahead, arrival};
}

void LtInputQueue::book(const sc_time& start, const sc_time& arrival) {
    if (m_head == m_starts.size() || !(start < m_starts.back().start)) { // mostly in time order
        m_starts.push_back({start, arrival});
        return;
    }
    const auto at = std::upper_bound(m_starts.begin() + static_cast<std::ptrdiff_t>(m_head), m_starts.end(), start,
                                     [](const sc_time& t, const Booked& b) { return t < b.start; });
    m_starts.insert(at, {start, arrival});
}

void LtInputQueue::prune(const sc_time& now) {
    const auto first = m_starts.begin() + static_cast<std::ptrdiff_t>(m_head);
    if (first == m_starts.end() || !(first->start < now)) return;
    m_head = static_cast<std::size_t>(
        std::lower_bound(first, m_starts.end(), now, [](const Booked& b, const sc_time& t) { return b.start < t; }) -
        m_starts.begin());
    // Drop the begun ones once they are as many as the kept: amortized O(1) per entry.
    if (m_head >= 64 && 2 * m_head >= m_starts.size()) {
        m_starts.erase(m_starts.begin(), m_starts.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_head = 0;
    }
}

} // namespace syncron
