#pragma once
// The SE's read-modify-write path (paper §6: simple atomic operations in the
// SE; docs/protocol.md, "Atomic read-modify-write"). The Master SE of the
// word's address executes the operation on its own unit's memory through
// its memory port (SyncVarMemory, as for syncronVar on overflow); any other
// SE only relays the request to it and the old value back to its core. No
// ST entry and no indexing counter are involved: the word itself is the
// state, and the SPU serves one message at a time, so the read and the
// write of one rmw are never interleaved with another access of the SE.
#include "models/protocol/message.h"
#include "models/se/core/se_result.h"

namespace syncron {

class SeContext;

class RmwAlu {
public:
    explicit RmwAlu(SeContext& cx) : m_cx(cx) {}

    /// Serves an rmw message (validated) at this SE.
    void handle(const Message& m, SeResult& r);

private:
    /// Reads, modifies and writes the word; returns its old value.
    uint64_t execute(const Message& m, SeResult& r);

    SeContext& m_cx;
};

} // namespace syncron
