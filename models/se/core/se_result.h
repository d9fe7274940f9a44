#pragma once
// What processing one message at an SE produced: the messages it emits and
// what it cost, for the timing shell.
#include <cstdint>
#include <string>
#include <vector>

#include "models/protocol/message.h"

namespace syncron {

/// A message the SE emits: to a core, to another SE, or (OverflowPolicy::abort)
/// to a software fallback server core.
struct Outgoing {
    enum class Dest : uint8_t { core, se, server };
    Dest dest;
    /// core: local core ID of this unit (flat organization: the core's flat
    /// index, any unit; SeOrganizationIF::core names it); se: SE global ID;
    /// server: unit of the server core (its local ID is SeTopology::server_core(unit)).
    uint16_t id;
    Message msg;
};

/// What processing one message cost, for the timing shell.
struct SeCost {
    unsigned messages = 0; ///< SPU message slots (incl. internally generated ones)
    unsigned st_accesses = 0;
    unsigned counter_accesses = 0;
    unsigned mem_reads = 0;
    unsigned mem_writes = 0;
    unsigned alu_ops = 0;  ///< read-modify-writes executed (RmwAlu)
    bool overflow = false; ///< served through the overflow path
};

struct SeResult {
    std::vector<Outgoing> out;
    SeCost cost;
    std::string error; ///< non-empty: the message was rejected
    bool ok() const { return error.empty(); }
    void clear() {
        out.clear();
        cost = SeCost{};
        error.clear();
    }
};

} // namespace syncron
