#include "models/common/latency_samples.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace syncron {

void LatencySamples::add(uint64_t ticks) {
    ++m_count;
    m_sum += ticks;
    m_max = std::max(m_max, ticks);
    if (m_histogram_mode) {
        ++m_histogram[bucket_of(ticks)];
        return;
    }
    m_kept.push_back(ticks);
    if (m_kept.size() > kExactSamples) to_histogram();
}

void LatencySamples::merge(const LatencySamples& other) {
    m_count += other.m_count;
    m_sum += other.m_sum;
    m_max = std::max(m_max, other.m_max);
    // Exact parts stay exact together (the summary over all cores of a run
    // whose cores each kept every sample); the histogram is taken otherwise.
    if (!m_histogram_mode && !other.m_histogram_mode && m_kept.size() + other.m_kept.size() <= kMergedExactSamples) {
        m_kept.insert(m_kept.end(), other.m_kept.begin(), other.m_kept.end());
        return;
    }
    if (!m_histogram_mode) to_histogram();
    for (const uint64_t t : other.m_kept) ++m_histogram[bucket_of(t)];
    for (const auto& [bucket, n] : other.m_histogram) m_histogram[bucket] += n;
}

void LatencySamples::to_histogram() {
    m_histogram_mode = true;
    for (const uint64_t t : m_kept) ++m_histogram[bucket_of(t)];
    std::vector<uint64_t>().swap(m_kept);
}

uint64_t LatencySamples::bucket_of(uint64_t ticks) {
    // Below 2^kSubBucketBits a bucket per value; above, the value's top
    // kSubBucketBits bits with the shift that drops the rest: buckets ordered
    // as their values, 2^shift ticks wide.
    constexpr uint64_t kLimit = uint64_t{1} << kSubBucketBits;
    if (ticks < kLimit) return ticks;
    const unsigned top = 63U - static_cast<unsigned>(__builtin_clzll(ticks));
    const unsigned shift = top - (kSubBucketBits - 1);
    return (uint64_t{shift} << kSubBucketBits) | (ticks >> shift);
}

uint64_t LatencySamples::bucket_value(uint64_t bucket) {
    constexpr uint64_t kLimit = uint64_t{1} << kSubBucketBits;
    const auto shift = static_cast<unsigned>(bucket >> kSubBucketBits);
    if (shift == 0) return bucket;
    const uint64_t low = (bucket & (kLimit - 1)) << shift;
    return low + ((uint64_t{1} << shift) - 1) / 2;
}

uint64_t LatencySamples::percentile(double p) const {
    if (!m_histogram_mode) return percentile_nearest_rank(m_kept, p);
    if (m_count == 0) return 0;
    std::vector<std::pair<uint64_t, uint64_t>> buckets(m_histogram.begin(), m_histogram.end());
    std::sort(buckets.begin(), buckets.end());
    const double exact = p / 100.0 * static_cast<double>(m_count);
    const uint64_t rank = std::clamp<uint64_t>(static_cast<uint64_t>(std::ceil(exact - 1e-9)), 1, m_count);
    uint64_t seen = 0;
    for (const auto& [bucket, n] : buckets) {
        seen += n;
        if (seen >= rank) return std::min(bucket_value(bucket), m_max);
    }
    return m_max;
}

uint64_t percentile_nearest_rank(std::vector<uint64_t> values, double p) {
    if (values.empty()) return 0;
    // Rank in 1..n; the small epsilon keeps 95% of 20 at rank 19, not 20 by rounding.
    const double exact = p / 100.0 * static_cast<double>(values.size());
    size_t rank = static_cast<size_t>(std::ceil(exact - 1e-9));
    rank = std::clamp<size_t>(rank, 1, values.size());
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank - 1), values.end());
    return values[rank - 1];
}

double jain_index(const std::vector<uint64_t>& shares) {
    double sum = 0, squares = 0;
    for (const uint64_t x : shares) {
        sum += static_cast<double>(x);
        squares += static_cast<double>(x) * static_cast<double>(x);
    }
    if (shares.empty() || squares == 0) return 1.0;
    return sum * sum / (static_cast<double>(shares.size()) * squares);
}

nlohmann::json LatencySamples::to_json(double ticks_per_ns) const {
    // Integer ticks divided once: 46400 ticks -> 46.4 ns, without float noise.
    const auto ns = [ticks_per_ns](uint64_t ticks) { return static_cast<double>(ticks) / ticks_per_ns; };
    // The mean rounded to whole ticks, so it prints without noise too.
    const double mean =
        m_count ? std::round(static_cast<double>(m_sum) / static_cast<double>(m_count)) / ticks_per_ns : 0.0;
    nlohmann::json j = {{"count", m_count},
                        {"mean_ns", mean},
                        {"p50_ns", ns(percentile(50))},
                        {"p95_ns", ns(percentile(95))},
                        {"p99_ns", ns(percentile(99))},
                        {"max_ns", ns(m_max)}};
    if (!exact()) j["percentile_resolution"] = histogram_resolution();
    return j;
}

} // namespace syncron
