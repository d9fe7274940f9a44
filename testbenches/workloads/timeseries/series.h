#pragma once
// The time series of the ts application: loaded from a file (one value per
// line, or one column of a CSV file) or generated as a seeded random walk.
#include <cstdint>
#include <string>
#include <vector>

namespace syncron {

struct Series {
    std::vector<double> values;
    std::string source; ///< for messages and statistics
};

/// Values from `path`: blank lines and lines starting with '#' skipped; a
/// line with commas is split and field `column` (1 = first) taken; a first
/// line whose field is not a number is a header. std::invalid_argument with
/// the file and line for a bad value, a missing column, or no values.
Series load_series(const std::string& path, unsigned column);
/// `length` steps of a random walk from 0 with steps uniform in [-1, 1), seeded.
Series random_walk(unsigned length, uint64_t seed);

} // namespace syncron
