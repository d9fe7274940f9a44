#pragma once
// Private L1 of an NDP core (paper Table 5): a set-associative, write-back,
// write-allocate tag store with LRU replacement. It holds tags, dirty bits
// and, for coherent lines, their MESI state; no data: memory keeps the only
// copy of every byte (functionally write-through, timed as write-back).
// That is exact for thread-private and read-only data, which no other agent
// can observe stale; coherent lines (docs/coherence.md) are read and written
// only while the L1 holds the permission the protocol gave it, so memory's
// value is the coherent one.
#include <cstdint>
#include <vector>

#include "models/common/params.h"
#include "models/protocol/coherence.h"

namespace syncron {

class L1Cache {
public:
    /// A line that left the cache to make room.
    struct Victim {
        bool valid = false;    ///< a line was evicted
        uint64_t addr = 0;     ///< its line address
        bool coherent = false; ///< it was a coherent line (then `state` applies)
        MesiState state = MesiState::I;
        bool dirty = false; ///< a non-coherent line that was written
    };

    struct AccessResult {
        bool hit = false;
        bool writeback = false;   ///< on a miss: the victim was a dirty non-coherent line
        uint64_t victim_addr = 0; ///< line address of that victim
        Victim victim;            ///< on a miss: any line evicted
    };

    struct Stats {
        uint64_t hits = 0;
        uint64_t misses = 0;
        uint64_t writebacks = 0;
    };

    /// Throws std::invalid_argument for a geometry that is not
    /// ways x sets x line_bytes with a power-of-two line size.
    explicit L1Cache(const CoreParams& params);

    /// Non-coherent lines: looks up addr, allocating its line on a miss (also
    /// for writes); a write marks the line dirty.
    AccessResult access(uint64_t addr, bool write);
    /// Tag check without side effects (no LRU update, no stats).
    bool contains(uint64_t addr) const;
    /// Drops every line without write-back (e.g. between experiments).
    void invalidate_all();

    // ---- Coherent lines (docs/coherence.md)
    /// The MESI state of addr's line (I when absent or not coherent).
    MesiState state(uint64_t addr) const;
    /// A hit with enough permission: LRU update and hit count.
    void touch(uint64_t addr);
    /// Frees a way for addr's line (nothing when it is present or its set has
    /// an invalid way); returns the line evicted, if any.
    Victim make_room(uint64_t addr);
    /// Installs addr's line in `state` (a miss) or changes its state (an
    /// upgrade); call make_room first for a line that is absent.
    void install(uint64_t addr, MesiState state);
    /// A probe or silent upgrade changes a present line's state (I removes
    /// it); returns the state it had.
    MesiState set_state(uint64_t addr, MesiState state);

    uint64_t line_address(uint64_t addr) const { return addr & ~uint64_t(m_line_bytes - 1); }
    unsigned sets() const { return m_sets; }
    unsigned ways() const { return m_ways; }
    unsigned line_bytes() const { return m_line_bytes; }
    const Stats& stats() const { return m_stats; }

private:
    struct Line {
        bool valid = false;
        bool dirty = false;
        bool coherent = false;
        MesiState mesi = MesiState::I;
        uint64_t tag = 0;      ///< full line number, so the victim address is recoverable
        uint64_t last_use = 0; ///< LRU stamp
    };

    unsigned set_of(uint64_t line_number) const { return static_cast<unsigned>(line_number % m_sets); }
    Line* find(uint64_t addr);
    const Line* find(uint64_t addr) const;
    /// An invalid way of addr's set, or the LRU one after evicting it.
    Line* take_way(uint64_t addr, Victim& victim);

    unsigned m_ways;
    unsigned m_line_bytes;
    unsigned m_sets;
    std::vector<Line> m_lines; ///< m_sets x m_ways, set-major
    uint64_t m_clock = 0;      ///< access counter feeding the LRU stamps
    Stats m_stats;
};

} // namespace syncron
