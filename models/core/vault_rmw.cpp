#include "models/core/vault_rmw.h"

#include "models/core/core_api.h"
#include "models/core/core_services.h"

namespace syncron {

uint64_t vault_rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) {
    switch (op) {
    case RmwOp::fetch_add: return core.atomic(AtomicOp::faa, addr, operand, 0, kWordBytes);
    case RmwOp::swap: return core.atomic(AtomicOp::swap, addr, operand, 0, kWordBytes);
    case RmwOp::cas: return core.atomic(AtomicOp::cas, addr, operand, expected, kWordBytes);
    case RmwOp::min:
    case RmwOp::max: break;
    }
    // The current value (an atomic add of zero), then compare-and-swap until
    // the word did not change in between; a word that already is the
    // min/max is left alone.
    uint64_t seen = core.atomic(AtomicOp::faa, addr, 0, 0, kWordBytes);
    for (;;) {
        const uint64_t want = rmw_apply(op, seen, operand, 0);
        if (want == seen) return seen;
        const uint64_t was = core.atomic(AtomicOp::cas, addr, want, seen, kWordBytes);
        if (was == seen) return seen;
        seen = was;
    }
}

} // namespace syncron
