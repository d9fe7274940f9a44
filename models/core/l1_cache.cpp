#include "models/core/l1_cache.h"

#include <stdexcept>
#include <string>

namespace syncron {

L1Cache::L1Cache(const CoreParams& params) : m_ways(params.l1_ways), m_line_bytes(params.l1_line_bytes), m_sets(0) {
    if (m_line_bytes == 0 || (m_line_bytes & (m_line_bytes - 1)) != 0)
        throw std::invalid_argument("L1: l1_line_bytes must be a power of two, got " + std::to_string(m_line_bytes));
    if (m_ways == 0) throw std::invalid_argument("L1: l1_ways must be at least 1");
    const uint64_t way_bytes = uint64_t(m_ways) * m_line_bytes;
    if (params.l1_bytes == 0 || params.l1_bytes % way_bytes != 0)
        throw std::invalid_argument("L1: l1_bytes (" + std::to_string(params.l1_bytes) +
                                    ") must be a nonzero multiple of l1_ways x l1_line_bytes (" +
                                    std::to_string(way_bytes) + ")");
    m_sets = static_cast<unsigned>(params.l1_bytes / way_bytes);
    m_lines.resize(size_t(m_sets) * m_ways);
}

L1Cache::AccessResult L1Cache::access(uint64_t addr, bool write) {
    const uint64_t line_number = addr / m_line_bytes;
    Line* set = &m_lines[size_t(set_of(line_number)) * m_ways];
    ++m_clock;

    AccessResult r;
    for (unsigned w = 0; w < m_ways; ++w) {
        if (set[w].valid && set[w].tag == line_number) {
            set[w].last_use = m_clock;
            set[w].dirty = set[w].dirty || write;
            ++m_stats.hits;
            r.hit = true;
            return r;
        }
    }

    ++m_stats.misses;
    // Victim: an invalid way if any, else the least recently used one.
    Line* victim = &set[0];
    for (unsigned w = 0; w < m_ways; ++w) {
        if (!set[w].valid) {
            victim = &set[w];
            break;
        }
        if (set[w].last_use < victim->last_use) victim = &set[w];
    }
    if (victim->valid && victim->dirty) {
        r.writeback = true;
        r.victim_addr = victim->tag * m_line_bytes;
        ++m_stats.writebacks;
    }
    victim->valid = true;
    victim->dirty = write; // write-allocate
    victim->tag = line_number;
    victim->last_use = m_clock;
    return r;
}

bool L1Cache::contains(uint64_t addr) const {
    const uint64_t line_number = addr / m_line_bytes;
    const Line* set = &m_lines[size_t(set_of(line_number)) * m_ways];
    for (unsigned w = 0; w < m_ways; ++w)
        if (set[w].valid && set[w].tag == line_number) return true;
    return false;
}

void L1Cache::invalidate_all() {
    for (Line& l : m_lines) l = Line{};
}

} // namespace syncron
