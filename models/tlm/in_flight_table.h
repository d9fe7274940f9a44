#pragma once
// Which socket index each in-flight payload belongs to, for the AT ports. A
// port holds a handful of payloads at a time, so a flat vector searched from
// the back beats a hash map, whose node per transaction cost a malloc/free
// pair on every hop (docs/performance.md, "The house").
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

namespace syncron {

template <class Key> class InFlightTable {
public:
    /// False (nothing changed) when `key` is already in flight.
    bool insert(const Key* key, unsigned index) {
        if (find(key) != nullptr) return false;
        m_entries.emplace_back(key, index);
        return true;
    }
    /// The index of `key`, or nullptr when it is not in flight.
    const unsigned* find(const Key* key) const {
        for (auto it = m_entries.rbegin(); it != m_entries.rend(); ++it)
            if (it->first == key) return &it->second;
        return nullptr;
    }
    unsigned at(const Key* key) const {
        const unsigned* i = find(key);
        if (i == nullptr) throw std::out_of_range("payload not in flight");
        return *i;
    }
    /// Removes `key`; false when it was not in flight.
    bool erase(const Key* key) {
        for (std::size_t i = m_entries.size(); i-- > 0;)
            if (m_entries[i].first == key) {
                m_entries[i] = m_entries.back();
                m_entries.pop_back();
                return true;
            }
        return false;
    }
    std::size_t size() const { return m_entries.size(); }

private:
    std::vector<std::pair<const Key*, unsigned>> m_entries;
};

} // namespace syncron
