#pragma once
// What pr's two styles share (pagerank.cpp, pagerank_pull.cpp): the check of
// the ranks against the host reference and the compare-and-swap add of a
// double (workload.use_se_atomics: no RmwOp adds doubles).
#include <cstdint>
#include <functional>
#include <vector>

#include "models/core/core_api.h"
#include "models/core/workload.h"
#include "testbenches/workloads/double_bits.h"

namespace syncron {

/// A rank's relative tolerance against the host's: the simulated sums are
/// added in another order, so they may differ in the last bits; 1e-9 is far
/// above that and far below any real error.
constexpr double kRankTolerance = 1e-9;

/// Each rank `got(v)` within kRankTolerance of `expected[v]`.
void check_ranks(const std::vector<double>& expected, const std::function<double(uint32_t)>& got, CheckResult& r);

/// Adds `x` to the double a word holds with a compare-and-swap loop: `load()`
/// reads the word, `cas(desired, expected)` returns the word it found; each
/// retry costs the core 2 instructions (the add and the compare). Returns
/// the retries.
template <class Load, class Cas> uint64_t cas_add(CoreApi& c, double x, Load&& load, Cas&& cas) {
    uint64_t seen = load(), retries = 0;
    for (;;) {
        const uint64_t old = cas(bits(real(seen) + x), seen);
        if (old == seen) return retries;
        ++retries;
        c.compute(2);
        seen = old;
    }
}

} // namespace syncron
