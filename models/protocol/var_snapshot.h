#pragma once
// What an SE shows of one synchronization variable in traces (--trace-var):
// filled by SeCore::snapshot, drawn by the recorders in traces/.
#include <cstdint>
#include <string>

#include "models/protocol/opcode.h"

namespace syncron {

/// One SE's view of a traced synchronization variable (--trace-var).
struct VarSnapshot {
    uint64_t addr = 0;
    Primitive kind = Primitive::lock;
    bool buffered = false;  ///< held in this SE's ST
    bool in_memory = false; ///< served from syncronVar (Master SE only)
    std::string local;      ///< local waiting list, one char per core, core 0 last ("0101")
    std::string global;     ///< global waiting list, one char per SE, SE 0 last
    bool lock_held = false;
    unsigned owner_se = 0, owner_core = 0; ///< lock owner (valid when lock_held)
    uint64_t count = 0;                    ///< barrier: cores arrived in this epoch
    int64_t resources = 0;                 ///< semaphore: available resources (initial + posts - grants)
    uint64_t info = 0;                     ///< raw TableInfo / VarInfo
};

} // namespace syncron
