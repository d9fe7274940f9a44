#pragma once
// A distribution of latencies (docs/stats.md, "sync_latency"): the samples of
// one kind of wait, kept exactly so percentiles are exact. SystemC-free: a
// sample is a duration in the kernel's integer ticks (sc_time::value()).
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace syncron {

class LatencySamples {
public:
    /// Samples kept for the percentiles; count, mean and max stay exact
    /// beyond it. 2^20 samples (8 MiB) per core and kind of wait is far more
    /// than any run of this model makes.
    static constexpr size_t kMaxKept = size_t{1} << 20;

    void add(uint64_t ticks);
    /// Appends another distribution's samples (the kept ones, up to kMaxKept).
    void merge(const LatencySamples& other);

    uint64_t count() const { return m_count; }
    uint64_t max() const { return m_max; }
    /// Sum of every sample (exact up to 2^64 ticks).
    uint64_t sum() const { return m_sum; }
    const std::vector<uint64_t>& kept() const { return m_kept; }

    /// The summary of docs/stats.md: count, mean_ns, p50_ns, p95_ns, p99_ns,
    /// max_ns, with `ticks_per_ns` kernel ticks in one ns (1000 at the default
    /// 1 ps resolution). Percentiles by nearest rank (percentile_nearest_rank).
    nlohmann::json to_json(double ticks_per_ns) const;

private:
    uint64_t m_count = 0;
    uint64_t m_sum = 0;
    uint64_t m_max = 0;
    std::vector<uint64_t> m_kept;
};

/// The p-th percentile (0 < p <= 100) of `values` by nearest rank: the
/// smallest value such that at least p% of the values are at or below it,
/// i.e. the ceil(p/100 * n)-th smallest. 0 for no values. Takes a copy to sort.
uint64_t percentile_nearest_rank(std::vector<uint64_t> values, double p);

/// Jain's fairness index of `shares`: (sum x)^2 / (n * sum x^2), 1 when all
/// are equal, 1/n when one takes everything; 1 for no values or all zero.
double jain_index(const std::vector<uint64_t>& shares);

} // namespace syncron
