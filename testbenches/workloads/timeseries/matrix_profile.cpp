#include "testbenches/workloads/timeseries/matrix_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace syncron {

unsigned exclusion_zone(unsigned window) { return std::max(1u, (window + 3) / 4); }

SubsequenceStats subsequence_stats(const double* x, unsigned window) {
    double sum = 0, squares = 0;
    for (unsigned t = 0; t < window; ++t) {
        sum += x[t];
        squares += x[t] * x[t];
    }
    SubsequenceStats s;
    s.mean = sum / window;
    const double variance = squares / window - s.mean * s.mean;
    s.deviation = variance > 0 ? std::sqrt(variance) : 0;
    return s;
}

double dot(const double* a, const double* b, unsigned window) {
    double qt = 0;
    for (unsigned t = 0; t < window; ++t) qt += a[t] * b[t];
    return qt;
}

double next_dot(double previous, double out_i, double out_j, double in_i, double in_j) {
    return previous - out_i * out_j + in_i * in_j;
}

double z_distance(double qt, unsigned window, const SubsequenceStats& a, const SubsequenceStats& b) {
    const double m = window;
    if (a.deviation == 0 || b.deviation == 0) return std::sqrt(2 * m);
    const double correlation = (qt - m * a.mean * b.mean) / (m * a.deviation * b.deviation);
    const double squared = 2 * m * (1 - correlation);
    return squared > 0 ? std::sqrt(squared) : 0;
}

MatrixProfile matrix_profile(const std::vector<double>& x, unsigned window) {
    const uint64_t s = x.size() - window + 1;
    std::vector<SubsequenceStats> stats(s);
    for (uint64_t i = 0; i < s; ++i) stats[i] = subsequence_stats(&x[i], window);
    MatrixProfile p;
    p.distance.assign(s, std::numeric_limits<double>::infinity());
    p.index.assign(s, ~uint64_t(0));
    for (uint64_t k = exclusion_zone(window); k < s; ++k) {
        double qt = 0;
        for (uint64_t i = 0; i + k < s; ++i) {
            const uint64_t j = i + k;
            qt = i == 0 ? dot(&x[0], &x[k], window)
                        : next_dot(qt, x[i - 1], x[j - 1], x[i + window - 1], x[j + window - 1]);
            const double d = z_distance(qt, window, stats[i], stats[j]);
            if (d < p.distance[i]) {
                p.distance[i] = d;
                p.index[i] = j;
            }
            if (d < p.distance[j]) {
                p.distance[j] = d;
                p.index[j] = i;
            }
        }
    }
    return p;
}

double pair_distance(const std::vector<double>& x, unsigned window, uint64_t i, uint64_t j) {
    if (i > j) std::swap(i, j);
    const uint64_t k = j - i;
    double qt = dot(&x[0], &x[k], window);
    for (uint64_t a = 1; a <= i; ++a)
        qt = next_dot(qt, x[a - 1], x[a + k - 1], x[a + window - 1], x[a + k + window - 1]);
    return z_distance(qt, window, subsequence_stats(&x[i], window), subsequence_stats(&x[j], window));
}

} // namespace syncron
