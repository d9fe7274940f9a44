#pragma once
// Indexing counters (paper §4.2): a counter > 0 means variables whose low
// address bits select it are served through memory. Aliasing costs
// performance, never correctness.
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace syncron {

class IndexingCounters {
public:
    explicit IndexingCounters(unsigned count) : m_counters(count, 0) {}

    /// The paper indexes by the low bits of the address. Variables are
    /// 64-byte aligned in this model, so the bits just above the line offset
    /// are used: the 8 lowest would leave 4 of 256 counters in use, and one
    /// overflow would send a quarter of new variables through memory
    /// (docs/results.md, Figures 11 and 23).
    unsigned index_of(uint64_t addr) const { return static_cast<unsigned>((addr >> 6) % m_counters.size()); }
    uint32_t value(uint64_t addr) const { return m_counters[index_of(addr)]; }
    void increment(uint64_t addr, uint32_t by = 1) { m_counters[index_of(addr)] += by; }
    /// Returns false (and leaves the counter) if it would go below zero.
    bool decrement(uint64_t addr, uint32_t by = 1) {
        uint32_t& c = m_counters[index_of(addr)];
        if (c < by) return false;
        c -= by;
        return true;
    }
    unsigned size() const { return static_cast<unsigned>(m_counters.size()); }
    unsigned in_use() const {
        unsigned n = 0;
        for (auto c : m_counters) n += c != 0;
        return n;
    }
    bool all_zero() const { return in_use() == 0; }

private:
    std::vector<uint32_t> m_counters;
};

} // namespace syncron
