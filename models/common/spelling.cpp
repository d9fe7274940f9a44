#include "models/common/spelling.h"

#include <algorithm>
#include <cstddef>

namespace syncron {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

} // namespace

std::string closest_spelling(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    size_t best_d = 3;
    for (const auto& c : candidates) {
        const size_t d = edit_distance(word, c);
        if (d < best_d) best_d = d, best = c;
    }
    return best;
}

} // namespace syncron
