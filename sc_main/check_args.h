#pragma once
// syncron-sim --check-args: many command lines checked in one process, as
// --dump-config would check each. A sweep of thousands of points is checked
// before any of them runs (docs/sweeps.md) without a process per point.
#include <iosfwd>

namespace syncron {

/// Reads one JSON array of arguments per line from `in` (the arguments of a
/// syncron-sim run, without the program name) and writes one JSON object per
/// line to `out`, in order: {"config": CONFIG} with the configuration
/// --dump-config prints, or {"error": MESSAGE} with the message the run
/// would stop with. Returns the exit status: 0 once every line is answered.
int check_args(std::istream& in, std::ostream& out);

} // namespace syncron
