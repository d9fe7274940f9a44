#pragma once
// "Did you mean" hints for misspelt names: configuration keys and sections,
// command-line options.
#include <string>
#include <vector>

namespace syncron {

/// The candidate closest to `word` by edit distance (Levenshtein), if it is at
/// most 2 edits away (farther is not a typo); empty otherwise. Ties go to the
/// first candidate.
std::string closest_spelling(const std::string& word, const std::vector<std::string>& candidates);

} // namespace syncron
