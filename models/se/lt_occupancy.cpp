#include "models/se/lt_occupancy.h"

#include <algorithm>
#include <functional>

namespace syncron {

using sc_core::sc_time;

void LtOccupancy::Folded::add(const Change& c) {
    if (c.first > last) {
        integral_ns += std::max(level, 0) * (c.first - last).to_seconds() * 1e9;
        last = c.first;
    }
    level += c.second;
    max = std::max(max, static_cast<unsigned>(std::max(level, 0)));
}

void LtOccupancy::change(const sc_time& at, int delta) {
    if (delta == 0) return;
    m_pending.emplace_back(at, delta);
    std::push_heap(m_pending.begin(), m_pending.end(), std::greater<>());
}

void LtOccupancy::settle(const sc_time& now) {
    while (!m_pending.empty() && m_pending.front().first <= now) {
        std::pop_heap(m_pending.begin(), m_pending.end(), std::greater<>());
        m_folded.add(m_pending.back());
        m_pending.pop_back();
    }
}

LtOccupancy::Folded LtOccupancy::fold_all(const sc_time& end) const {
    std::vector<Change> rest = m_pending;
    std::sort(rest.begin(), rest.end());
    Folded f = m_folded;
    for (const Change& c : rest)
        if (c.first <= end) f.add(c);
    if (end > f.last) f.add({end, 0});
    return f;
}

unsigned LtOccupancy::max() const { return fold_all(sc_core::sc_max_time()).max; }

double LtOccupancy::integral_ns(const sc_time& end) const { return fold_all(end).integral_ns; }

} // namespace syncron
