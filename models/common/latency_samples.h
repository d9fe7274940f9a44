#pragma once
// A distribution of latencies (docs/stats.md, "sync_latency"). SystemC-free:
// a sample is a duration in the kernel's integer ticks (sc_time::value()).
//
// Memory is bounded whatever the run's length: a distribution keeps its
// samples (exact percentiles) up to kExactSamples, then turns into a
// histogram of logarithmic buckets, each 2^-(kSubBucketBits-1) of its value
// wide, whose percentiles are within half a bucket of the exact ones.
// Count, sum, mean and max stay exact in both forms.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace syncron {

class LatencySamples {
public:
    /// Samples kept exactly by one distribution (8 bytes each: 128 KiB); a
    /// merge of distributions that all kept theirs stays exact.
    static constexpr size_t kExactSamples = size_t{1} << 14;
    /// A merge stays exact up to this many samples (32 MiB: 1024 cores' worth of 4096 each).
    static constexpr size_t kMergedExactSamples = size_t{1} << 22;
    /// Buckets per octave = 2^(kSubBucketBits-1); values below 2^kSubBucketBits ticks get a bucket each.
    static constexpr unsigned kSubBucketBits = 12;

    void add(uint64_t ticks);
    /// Adds another distribution's samples.
    void merge(const LatencySamples& other);

    uint64_t count() const { return m_count; }
    uint64_t max() const { return m_max; }
    /// Sum of every sample (exact up to 2^64 ticks).
    uint64_t sum() const { return m_sum; }
    /// Every sample is kept (exact percentiles).
    bool exact() const { return !m_histogram_mode; }
    /// The p-th percentile (0 < p <= 100) by nearest rank: exact while exact(),
    /// else the middle of the bucket that holds it. 0 without samples.
    uint64_t percentile(double p) const;
    /// Largest relative difference of a percentile from the histogram from the exact one.
    static double histogram_resolution() { return 1.0 / static_cast<double>(uint64_t{1} << kSubBucketBits); }

    /// The summary of docs/stats.md: count, mean_ns, p50_ns, p95_ns, p99_ns,
    /// max_ns, with `ticks_per_ns` kernel ticks in one ns (1000 at the default
    /// 1 ps resolution); `percentile_resolution` once the percentiles come
    /// from the histogram.
    nlohmann::json to_json(double ticks_per_ns) const;

private:
    static uint64_t bucket_of(uint64_t ticks);
    /// The middle of a bucket, in ticks.
    static uint64_t bucket_value(uint64_t bucket);
    void to_histogram();

    uint64_t m_count = 0;
    uint64_t m_sum = 0;
    uint64_t m_max = 0;
    bool m_histogram_mode = false;
    std::vector<uint64_t> m_kept;
    std::unordered_map<uint64_t, uint64_t> m_histogram; // bucket -> samples
};

/// The p-th percentile (0 < p <= 100) of `values` by nearest rank: the
/// smallest value such that at least p% of the values are at or below it,
/// i.e. the ceil(p/100 * n)-th smallest. 0 for no values. Takes a copy to sort.
uint64_t percentile_nearest_rank(std::vector<uint64_t> values, double p);

/// Jain's fairness index of `shares`: (sum x)^2 / (n * sum x^2), 1 when all
/// are equal, 1/n when one takes everything; 1 for no values or all zero.
double jain_index(const std::vector<uint64_t>& shares);

} // namespace syncron
