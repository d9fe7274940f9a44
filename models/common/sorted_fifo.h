#pragma once
// A queue kept in ascending order of T's operator<, stored contiguously (the
// SE's SPU buffer). pop_front() advances a head index; the consumed prefix is
// dropped once it is at least half of the storage, so each element is moved
// a bounded number of times on average. Unlike std::deque, its iterators are
// plain contiguous ones, which keeps the sorted insert and the counting
// binary search cheap on the per-message path. SystemC-free.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace syncron {

template <class T> class SortedFifo {
public:
    using const_iterator = typename std::vector<T>::const_iterator;

    bool empty() const { return m_head == m_items.size(); }
    std::size_t size() const { return m_items.size() - m_head; }
    const T& front() const { return m_items[m_head]; }
    const_iterator begin() const { return m_items.begin() + static_cast<std::ptrdiff_t>(m_head); }
    const_iterator end() const { return m_items.end(); }

    void pop_front() {
        ++m_head;
        if (m_head == m_items.size()) {
            m_items.clear();
            m_head = 0;
        } else if (m_head >= kCompactAfter && 2 * m_head >= m_items.size()) {
            m_items.erase(m_items.begin(), m_items.begin() + static_cast<std::ptrdiff_t>(m_head));
            m_head = 0;
        }
    }

    /// Inserts after every element not greater than x (where upper_bound
    /// would). Elements come mostly in order, so the last eight places are
    /// looked at before a binary search.
    void insert(const T& x) {
        const auto first = m_items.begin() + static_cast<std::ptrdiff_t>(m_head);
        auto pos = m_items.end();
        for (unsigned steps = 0; pos != first && x < *(pos - 1); --pos)
            if (++steps == 8) {
                pos = std::upper_bound(first, pos, x);
                break;
            }
        m_items.insert(pos, x);
    }

    /// Appends x, which the caller knows is not less than any element.
    void push_back(const T& x) { m_items.push_back(x); }

    /// Number of elements not greater than x.
    std::size_t count_not_after(const T& x) const {
        return static_cast<std::size_t>(std::upper_bound(begin(), end(), x) - begin());
    }

private:
    /// Consumed elements kept before compacting: small queues never move.
    static constexpr std::size_t kCompactAfter = 64;

    std::vector<T> m_items;
    std::size_t m_head = 0; ///< index of the front element
};

} // namespace syncron
