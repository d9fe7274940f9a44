#pragma once
// Checks of the output paths of a command line before anything runs
// (docs/reliability.md, "Outputs are never lost"): no file named twice, no
// folder given as a file, no missing parent folder, no input overwritten.
#include <string>
#include <vector>

#include "sc_main/cli.h"

namespace syncron {

/// Every file the run will write: --stats, --vcd (as the FILE.vcd SystemC
/// writes), --trace-db, --trace-json, --gtkw and its filter files, the files
/// --out writes.
std::vector<NamedPath> output_files(const CliOptions& options);

/// Throws CliError when two outputs of `options` are the same file (the
/// same device and inode, or the same path once symbolic links are followed,
/// also a link whose target does not exist yet; character devices such as
/// /dev/null may be shared), when an output path is an existing folder, when
/// its parent folder does not exist and --out does not create it, or when
/// --trace-db names something other than a regular file (the database
/// replaces the file). --vcd is checked both as given and as the FILE.vcd
/// that SystemC writes.
void check_output_paths(const CliOptions& options);

/// Throws CliError when an output of `options` is one of `options.inputs`
/// (compared as check_output_paths compares outputs): the run would replace
/// a file it reads. Called before any file is opened for writing.
void check_outputs_against_inputs(const CliOptions& options);

} // namespace syncron
