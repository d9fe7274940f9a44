#pragma once
// Comparing an application's per-vertex result with its host reference:
// the first few differences by vertex, and how many there are.
#include <cstdint>
#include <functional>
#include <string>

#include "models/core/workload.h"

namespace syncron {

/// Calls `same(v)` for v in 0..n-1; reports up to 5 vertices where it is
/// false (described by `describe(v)`) and the total.
void compare_per_vertex(const std::string& what, uint32_t n, const std::function<bool(uint32_t)>& same,
                        const std::function<std::string(uint32_t)>& describe, CheckResult& r);

} // namespace syncron
