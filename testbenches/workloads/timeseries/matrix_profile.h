#pragma once
// The arithmetic of the SCRIMP matrix profile (Zhu et al., ICDM 2018), shared
// by the ts application and its host reference so both compute every
// distance with the same operations in the same order (the check is then
// exact): subsequence means and standard deviations, the dot product of a
// pair carried along its diagonal, the z-normalised Euclidean distance.
#include <cstdint>
#include <vector>

namespace syncron {

struct SubsequenceStats {
    double mean = 0, deviation = 0;
};

/// Pairs closer than this along the series are trivial matches (window / 4, at least 1).
unsigned exclusion_zone(unsigned window);
/// Mean and standard deviation of x[i .. i + window), summed in order.
SubsequenceStats subsequence_stats(const double* x, unsigned window);
/// Dot product of a[0 .. window) and b[0 .. window).
double dot(const double* a, const double* b, unsigned window);
/// The dot product of (i, j) from that of (i - 1, j - 1): minus
/// x[i-1] x[j-1] (`out_i`, `out_j`), plus x[i+window-1] x[j+window-1] (`in_i`, `in_j`).
/// Out of line, so every caller gets the same floating-point operations.
double next_dot(double previous, double out_i, double out_j, double in_i, double in_j);
/// z-normalised distance from the dot product; sqrt(2 window) (uncorrelated)
/// when either subsequence is constant.
double z_distance(double qt, unsigned window, const SubsequenceStats& a, const SubsequenceStats& b);

struct MatrixProfile {
    std::vector<double> distance; ///< per subsequence: distance to its nearest non-trivial match
    std::vector<uint64_t> index;  ///< and that match's start
};

/// The reference: every diagonal, every pair, on the host.
MatrixProfile matrix_profile(const std::vector<double>& x, unsigned window);
/// The distance of pair (i, j) computed as the diagonal walk computes it.
double pair_distance(const std::vector<double>& x, unsigned window, uint64_t i, uint64_t j);

} // namespace syncron
