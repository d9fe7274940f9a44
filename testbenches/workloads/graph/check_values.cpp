#include "testbenches/workloads/graph/check_values.h"

namespace syncron {

void compare_per_vertex(const std::string& what, uint32_t n, const std::function<bool(uint32_t)>& same,
                        const std::function<std::string(uint32_t)>& describe, CheckResult& r) {
    uint64_t wrong = 0;
    for (uint32_t v = 0; v < n; ++v) {
        if (same(v)) continue;
        if (++wrong <= 5) r.fail(what + ": " + describe(v));
    }
    if (wrong > 5) r.fail(what + ": " + std::to_string(wrong) + " entries differ in all");
}

} // namespace syncron
