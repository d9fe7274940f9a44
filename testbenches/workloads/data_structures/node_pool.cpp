#include "testbenches/workloads/data_structures/node_pool.h"

#include <limits>
#include <stdexcept>

namespace syncron {

void NodePool::reserve(Driver& d, unsigned unit, uint64_t count, unsigned node_bytes, const std::string& what) {
    m_unit = unit;
    m_bytes = node_bytes;
    m_count = count;
    m_used = 0;
    m_what = what;
    const auto too_big = [&](const std::string& why) {
        return std::invalid_argument(what + ": " + std::to_string(count) + " nodes of " + std::to_string(node_bytes) +
                                     " bytes do not fit in unit " + std::to_string(unit) + "'s memory (" + why +
                                     "); use a smaller workload.elements or workload.ops, or more memory");
    };
    if (count == 0) return;
    if (count > std::numeric_limits<uint64_t>::max() / node_bytes) throw too_big("more than 2^64 bytes");
    try {
        m_base = d.allocate(unit, count * node_bytes, Sharing::shared);
    } catch (const std::exception& e) {
        throw too_big(e.what());
    }
}

uint64_t NodePool::take() {
    if (m_used == m_count)
        throw std::logic_error(m_what + ": node pool of unit " + std::to_string(m_unit) + " used up (" +
                               std::to_string(m_count) + " nodes)");
    return m_base + m_used++ * m_bytes;
}

} // namespace syncron
