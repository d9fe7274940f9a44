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

L1Cache::Line* L1Cache::find(uint64_t addr) { return const_cast<Line*>(static_cast<const L1Cache*>(this)->find(addr)); }

const L1Cache::Line* L1Cache::find(uint64_t addr) const {
    const uint64_t line_number = addr / m_line_bytes;
    const Line* set = &m_lines[size_t(set_of(line_number)) * m_ways];
    for (unsigned w = 0; w < m_ways; ++w)
        if (set[w].valid && set[w].tag == line_number) return &set[w];
    return nullptr;
}

L1Cache::Line* L1Cache::take_way(uint64_t addr, Victim& victim) {
    Line* set = &m_lines[size_t(set_of(addr / m_line_bytes)) * m_ways];
    // An invalid way if any, else the least recently used one.
    Line* way = &set[0];
    for (unsigned w = 0; w < m_ways; ++w) {
        if (!set[w].valid) return &set[w];
        if (set[w].last_use < way->last_use) way = &set[w];
    }
    victim.valid = true;
    victim.addr = way->tag * m_line_bytes;
    victim.coherent = way->coherent;
    victim.state = way->mesi;
    victim.dirty = way->dirty;
    *way = Line{};
    return way;
}

L1Cache::AccessResult L1Cache::access(uint64_t addr, bool write) {
    ++m_clock;
    AccessResult r;
    if (Line* l = find(addr)) {
        l->last_use = m_clock;
        l->dirty = l->dirty || write;
        ++m_stats.hits;
        r.hit = true;
        return r;
    }
    ++m_stats.misses;
    Line* way = take_way(addr, r.victim);
    if (r.victim.valid && !r.victim.coherent && r.victim.dirty) {
        r.writeback = true;
        r.victim_addr = r.victim.addr;
        ++m_stats.writebacks;
    }
    way->valid = true;
    way->dirty = write; // write-allocate
    way->tag = addr / m_line_bytes;
    way->last_use = m_clock;
    return r;
}

bool L1Cache::contains(uint64_t addr) const { return find(addr) != nullptr; }

void L1Cache::invalidate_all() {
    for (Line& l : m_lines) l = Line{};
}

MesiState L1Cache::state(uint64_t addr) const {
    const Line* l = find(addr);
    return l && l->coherent ? l->mesi : MesiState::I;
}

void L1Cache::touch(uint64_t addr) {
    if (Line* l = find(addr)) {
        l->last_use = ++m_clock;
        ++m_stats.hits;
    }
}

L1Cache::Victim L1Cache::make_room(uint64_t addr) {
    Victim v;
    if (find(addr)) return v;
    take_way(addr, v);
    if (v.valid && ((v.coherent && v.state == MesiState::M) || (!v.coherent && v.dirty))) ++m_stats.writebacks;
    return v;
}

void L1Cache::install(uint64_t addr, MesiState state) {
    ++m_stats.misses; // a coherence miss or an upgrade
    Line* l = find(addr);
    if (!l) {
        Victim v;
        l = take_way(addr, v);
        if (v.valid)
            throw std::logic_error("L1: install of line " + std::to_string(line_address(addr)) +
                                   " without make_room evicted line " + std::to_string(v.addr));
        l->valid = true;
        l->coherent = true;
        l->tag = addr / m_line_bytes;
    }
    l->mesi = state;
    l->last_use = ++m_clock;
    if (state == MesiState::I) *l = Line{};
}

MesiState L1Cache::set_state(uint64_t addr, MesiState state) {
    Line* l = find(addr);
    if (!l || !l->coherent) return MesiState::I;
    const MesiState old = l->mesi;
    if (state == MesiState::I)
        *l = Line{};
    else
        l->mesi = state;
    return old;
}

} // namespace syncron
