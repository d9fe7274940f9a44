#pragma once
// Private L1 of an NDP core (paper Table 5): a set-associative, write-back,
// write-allocate tag store with LRU replacement. It holds tags and dirty bits
// only, no data: memory keeps the only copy of every byte (functionally
// write-through, timed as write-back). That is exact here because only
// thread-private and read-only data are cacheable, so no other agent can
// observe a stale line.
#include <cstdint>
#include <vector>

#include "models/common/params.h"

namespace syncron {

class L1Cache {
public:
    struct AccessResult {
        bool hit = false;
        bool writeback = false;   ///< on a miss: the victim was dirty
        uint64_t victim_addr = 0; ///< line address of the dirty victim
    };

    struct Stats {
        uint64_t hits = 0;
        uint64_t misses = 0;
        uint64_t writebacks = 0;
    };

    /// Throws std::invalid_argument for a geometry that is not
    /// ways x sets x line_bytes with a power-of-two line size.
    explicit L1Cache(const CoreParams& params);

    /// Looks up addr, allocating its line on a miss (also for writes);
    /// a write marks the line dirty.
    AccessResult access(uint64_t addr, bool write);
    /// Tag check without side effects (no LRU update, no stats).
    bool contains(uint64_t addr) const;
    /// Drops every line without write-back (e.g. between experiments).
    void invalidate_all();

    uint64_t line_address(uint64_t addr) const { return addr & ~uint64_t(m_line_bytes - 1); }
    unsigned sets() const { return m_sets; }
    unsigned ways() const { return m_ways; }
    unsigned line_bytes() const { return m_line_bytes; }
    const Stats& stats() const { return m_stats; }

private:
    struct Line {
        bool valid = false;
        bool dirty = false;
        uint64_t tag = 0;      ///< full line number, so the victim address is recoverable
        uint64_t last_use = 0; ///< LRU stamp
    };

    unsigned set_of(uint64_t line_number) const { return static_cast<unsigned>(line_number % m_sets); }

    unsigned m_ways;
    unsigned m_line_bytes;
    unsigned m_sets;
    std::vector<Line> m_lines; ///< m_sets x m_ways, set-major
    uint64_t m_clock = 0;      ///< access counter feeding the LRU stamps
    Stats m_stats;
};

} // namespace syncron
