#include "models/protocol/rmw.h"

#include <algorithm>
#include <array>

namespace syncron {
namespace {
constexpr std::array<std::string_view, kRmwOpCount> kRmwNames = {"fetch_add", "swap", "cas", "min", "max"};
constexpr std::array<Opcode, kRmwOpCount> kLocal = {Opcode::rmw_fetch_add_local, Opcode::rmw_swap_local,
                                                    Opcode::rmw_cas_local, Opcode::rmw_min_local,
                                                    Opcode::rmw_max_local};
constexpr std::array<Opcode, kRmwOpCount> kGlobal = {Opcode::rmw_fetch_add_global, Opcode::rmw_swap_global,
                                                     Opcode::rmw_cas_global, Opcode::rmw_min_global,
                                                     Opcode::rmw_max_global};
unsigned idx(RmwOp op) { return static_cast<unsigned>(op); }
} // namespace

std::string_view to_string(RmwOp op) { return idx(op) < kRmwOpCount ? kRmwNames[idx(op)] : "invalid_rmw"; }

std::optional<RmwOp> rmw_op_from_string(std::string_view name) {
    for (unsigned i = 0; i < kRmwOpCount; ++i)
        if (kRmwNames[i] == name) return static_cast<RmwOp>(i);
    return std::nullopt;
}

uint64_t rmw_apply(RmwOp op, uint64_t old, uint64_t operand, uint64_t expected) {
    switch (op) {
    case RmwOp::fetch_add: return old + operand;
    case RmwOp::swap: return operand;
    case RmwOp::cas: return old == expected ? operand : old;
    case RmwOp::min: return std::min(old, operand);
    case RmwOp::max: return std::max(old, operand);
    }
    return old;
}

Opcode rmw_local_opcode(RmwOp op) { return kLocal[idx(op) % kRmwOpCount]; }
Opcode rmw_global_opcode(RmwOp op) { return kGlobal[idx(op) % kRmwOpCount]; }

std::optional<RmwOp> rmw_op_of(Opcode request) {
    for (unsigned i = 0; i < kRmwOpCount; ++i)
        if (kLocal[i] == request || kGlobal[i] == request) return static_cast<RmwOp>(i);
    return std::nullopt;
}

} // namespace syncron
