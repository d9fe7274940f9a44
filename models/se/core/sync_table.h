#pragma once
// The Synchronization Table: a small fully-associative table of variables
// currently buffered by an SE (64 entries by default; 0 is valid and makes
// every variable take the overflow path).
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/se/core/var_state.h"

namespace syncron {

struct StEntry {
    bool occupied = false;
    uint64_t addr = 0;
    VarState state;
};

class SyncTable {
public:
    /// `own_cores`: bits of each entry's own-core list (SeOrganizationIF::own_cores(),
    /// the unit's cores, or every core of the system in the flat organization).
    /// Lookup, allocation and release are O(1) (hash index and free list);
    /// only allocation touches the entry's lists, O(own_cores / 64).
    SyncTable(unsigned entries, unsigned own_cores, unsigned units);

    /// Entry holding addr, or nullptr.
    StEntry* find(uint64_t addr);
    const StEntry* find(uint64_t addr) const;
    /// Reserves a free entry for addr (precondition: !full() and !find(addr)).
    StEntry& allocate(uint64_t addr, Primitive kind);
    void release(StEntry& entry);

    bool full() const { return m_used == m_entries.size(); }
    unsigned capacity() const { return static_cast<unsigned>(m_entries.size()); }
    unsigned occupancy() const { return m_used; }
    const std::vector<StEntry>& entries() const { return m_entries; }

private:
    std::vector<StEntry> m_entries;
    std::vector<unsigned> m_free;                   // free entry indices
    std::unordered_map<uint64_t, unsigned> m_index; // CAM lookup
    unsigned m_used = 0;
    unsigned m_cores;
    unsigned m_units;
};

} // namespace syncron
