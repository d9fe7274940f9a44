#pragma once
// The read-modify-write operations a Master SE executes on a 64-bit word
// (paper §6 proposes simple atomic operations in the SE; docs/protocol.md,
// "Atomic read-modify-write"). The same arithmetic serves every scheme's
// version of CoreApi::atomic_rmw, and the tests' host reference.
#include <cstdint>
#include <optional>
#include <string_view>

#include "models/protocol/opcode.h"

namespace syncron {

enum class RmwOp : uint8_t {
    fetch_add, ///< word += operand (wrapping)
    swap,      ///< word = operand
    cas,       ///< if (word == expected) word = operand
    min,       ///< word = min(word, operand), unsigned
    max,       ///< word = max(word, operand), unsigned
};
inline constexpr unsigned kRmwOpCount = 5;

std::string_view to_string(RmwOp op);
std::optional<RmwOp> rmw_op_from_string(std::string_view name);

/// The word's new value after `op` on `old` (the old value is what is returned).
uint64_t rmw_apply(RmwOp op, uint64_t old, uint64_t operand, uint64_t expected);

/// The request a core sends (rmw_*_local) and the one an SE forwards to the
/// Master SE (rmw_*_global).
Opcode rmw_local_opcode(RmwOp op);
Opcode rmw_global_opcode(RmwOp op);
/// The operation of an rmw request opcode; empty for anything else.
std::optional<RmwOp> rmw_op_of(Opcode request);
/// Whether the request carries the expected value (the wire's trailer flit).
inline bool rmw_has_expected(Opcode op) { return op == Opcode::rmw_cas_local || op == Opcode::rmw_cas_global; }

} // namespace syncron
