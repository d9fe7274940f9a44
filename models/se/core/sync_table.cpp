#include "models/se/core/sync_table.h"

#include <stdexcept>

namespace syncron {

SyncTable::SyncTable(unsigned entries, unsigned own_cores, unsigned units)
    : m_entries(entries), m_cores(own_cores), m_units(units) {
    m_free.reserve(entries);
    for (unsigned i = entries; i-- > 0;) m_free.push_back(i);
    m_index.reserve(std::size_t{entries} * 2);
}

StEntry* SyncTable::find(uint64_t addr) {
    auto it = m_index.find(addr);
    return it == m_index.end() ? nullptr : &m_entries[it->second];
}

const StEntry* SyncTable::find(uint64_t addr) const {
    auto it = m_index.find(addr);
    return it == m_index.end() ? nullptr : &m_entries[it->second];
}

StEntry& SyncTable::allocate(uint64_t addr, Primitive kind) {
    if (m_free.empty()) throw std::logic_error("SyncTable::allocate on a full table");
    const unsigned i = m_free.back();
    m_free.pop_back();
    StEntry& e = m_entries[i];
    e.occupied = true;
    e.addr = addr;
    e.state.reset(kind, m_cores, m_units);
    m_index.emplace(addr, i);
    ++m_used;
    return e;
}

void SyncTable::release(StEntry& entry) {
    const auto i = static_cast<unsigned>(&entry - m_entries.data());
    m_index.erase(entry.addr);
    entry.occupied = false;
    m_free.push_back(i);
    --m_used;
}

} // namespace syncron
