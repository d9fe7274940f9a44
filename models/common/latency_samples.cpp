#include "models/common/latency_samples.h"

#include <algorithm>
#include <cmath>

namespace syncron {

void LatencySamples::add(uint64_t ticks) {
    ++m_count;
    m_sum += ticks;
    m_max = std::max(m_max, ticks);
    if (m_kept.size() < kMaxKept) m_kept.push_back(ticks);
}

void LatencySamples::merge(const LatencySamples& other) {
    m_count += other.m_count;
    m_sum += other.m_sum;
    m_max = std::max(m_max, other.m_max);
    const size_t room = kMaxKept - std::min(kMaxKept, m_kept.size());
    const size_t n = std::min(room, other.m_kept.size());
    m_kept.insert(m_kept.end(), other.m_kept.begin(), other.m_kept.begin() + static_cast<std::ptrdiff_t>(n));
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
    return {{"count", m_count},
            {"mean_ns", mean},
            {"p50_ns", ns(percentile_nearest_rank(m_kept, 50))},
            {"p95_ns", ns(percentile_nearest_rank(m_kept, 95))},
            {"p99_ns", ns(percentile_nearest_rank(m_kept, 99))},
            {"max_ns", ns(m_max)}};
}

} // namespace syncron
