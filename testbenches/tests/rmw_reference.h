#pragma once
// The host reference of one read-modify-write, in plain C++ and independent
// of the model's rmw_apply: what the SE's ALU and every scheme's rmw must
// compute (test_se_rmw.cpp, test_platform_rmw.cpp).
#include <cstdint>

#include "models/protocol/rmw.h"

namespace syncron::test {

inline uint64_t host_apply(RmwOp op, uint64_t old, uint64_t operand, uint64_t expected) {
    switch (op) {
    case RmwOp::fetch_add: return old + operand;
    case RmwOp::swap: return operand;
    case RmwOp::cas: return old == expected ? operand : old;
    case RmwOp::min: return operand < old ? operand : old;
    case RmwOp::max: return operand > old ? operand : old;
    }
    return old;
}

} // namespace syncron::test
