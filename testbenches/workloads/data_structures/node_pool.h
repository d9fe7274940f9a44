#pragma once
// Fixed-size nodes of a data structure in one unit's simulated memory. The
// pool is one region reserved before the run; handing out a node is host
// bookkeeping, not simulated (ASCYLIB's ssmem allocator likewise touches only
// the thread's own memory). Removed nodes are not reused: a lock-free reader
// may still be traversing them.
#include <cstdint>
#include <string>

#include "models/core/workload.h"

namespace syncron {

class NodePool {
public:
    /// Reserves `count` nodes of `node_bytes` in `unit`'s memory; a clear
    /// error naming `what` when they do not fit.
    void reserve(Driver& d, unsigned unit, uint64_t count, unsigned node_bytes, const std::string& what);
    /// The next free node; std::logic_error when the reservation is used up.
    uint64_t take();
    unsigned unit() const { return m_unit; }
    uint64_t used() const { return m_used; }
    uint64_t capacity() const { return m_count; }

private:
    uint64_t m_base = 0, m_count = 0, m_used = 0;
    unsigned m_bytes = 0, m_unit = 0;
    std::string m_what;
};

} // namespace syncron
