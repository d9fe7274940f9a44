#include "testbenches/workloads/graph/ranks.h"

#include <cmath>
#include <string>

#include "testbenches/workloads/graph/check_values.h"

namespace syncron {

void check_ranks(const std::vector<double>& expected, const std::function<double(uint32_t)>& got, CheckResult& r) {
    compare_per_vertex(
        "pr ranks (relative tolerance 1e-9)", static_cast<uint32_t>(expected.size()),
        [&](uint32_t v) { return std::fabs(got(v) - expected[v]) <= kRankTolerance * std::fabs(expected[v]); },
        [&](uint32_t v) {
            return "vertex " + std::to_string(v) + " has rank " + std::to_string(got(v)) + ", expected " +
                   std::to_string(expected[v]);
        },
        r);
}

} // namespace syncron
