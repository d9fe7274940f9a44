#pragma once
// What an input file of a run (a configuration, a graph, a time series) may
// be, checked before it is opened (docs/reliability.md, "Bad input is a
// clear error"): a regular file, or a pipe the process already holds
// (/dev/stdin, /dev/fd/N). A folder, a device (/dev/zero would be read
// until memory runs out) or a named FIFO (opening one that gets no writer
// blocks forever) is refused, and so is an output of the same run
// (sc_main/output_paths.h).
#include <string>

namespace syncron {

/// Why `path` cannot be read as an input file, e.g. "is a folder, not a
/// file"; empty when it can (or does not exist: opening it reports that).
std::string input_file_problem(const std::string& path);

/// The first `max` characters of `text` (the whole of it when shorter), then
/// "… (N characters)": how a message quotes a long line or name.
std::string excerpt(const std::string& text, size_t max = 80);

/// How much of a file name or key a message quotes (excerpt()): longer than
/// any path a test or a user is likely to type, far shorter than PATH_MAX.
constexpr size_t kQuotedMax = 300;

} // namespace syncron
