#pragma once
// Checks of the output paths of a command line before anything runs
// (docs/reliability.md, "Outputs are never lost"): no file named twice, no
// folder given as a file, no missing parent folder.
#include "sc_main/cli.h"

namespace syncron {

/// Throws CliError when two outputs of `options` (--stats, --vcd, --trace-db,
/// --trace-json, --gtkw and its filter files, the files --out writes) are the
/// same file (compared as weakly canonical absolute paths; character devices
/// such as /dev/null may be shared), when an output path is an existing
/// folder, when its parent folder does not exist and --out does not create
/// it, or when --trace-db names something other than a regular file (the
/// database replaces the file). --vcd is checked both as given and as the
/// FILE.vcd that SystemC writes.
void check_output_paths(const CliOptions& options);

} // namespace syncron
