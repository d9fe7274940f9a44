#pragma once
// Command line of syncron-sim (docs/configuration.md, "Command line").
// Precedence: preset (--config) < --set overrides < the dedicated flags.
#include <string>
#include <vector>

#include "models/common/params.h"
#include "platforms/config/config.h"
#include "platforms/simulation.h"

namespace syncron {

/// Bad command line (unknown option, malformed value); what() names the option.
/// A ConfigError, so a caller can treat every start-up error alike.
class CliError : public ConfigError {
public:
    using ConfigError::ConfigError;
};

/// One file a run writes or reads, and the option that names it.
struct NamedPath {
    std::string option; ///< how the user asked for it, e.g. "--stats" or "--out (stats.json)"
    std::string path;
};

struct CliOptions {
    SimParams params;       ///< the validated configuration to simulate
    TraceOptions traces;    ///< --vcd, --trace-filter, --trace-var, --trace-db, --trace-json
    std::string stats_file; ///< --stats: where to write the statistics JSON; empty = none
    /// --out DIR: the run's output folder (stats.json, config.json,
    /// summary.txt and the traces given without a file name); empty = none.
    /// Trace paths in `traces` are already resolved into it.
    std::string out_dir;
    /// The files the run reads (--config, the graph, the series), which no
    /// output may name (check_outputs_against_inputs).
    std::vector<NamedPath> inputs;
    bool dump_config = false;  ///< --dump-config: print the configuration and exit
    bool list_presets = false; ///< --list-presets: list the presets and exit (no configuration loaded)
    bool list = false;         ///< --list: the presets, schemes and workloads as JSON, and exit
    bool check_args = false;   ///< --check-args: check the command lines on standard input (check_args.h)
    /// --compare [LIST] or --scheme all: the schemes to run side by side
    /// (empty: one simulation of params.platform.scheme).
    std::vector<std::string> compare;
    bool help = false;     ///< --help was given: print help_text and exit
    bool version = false;  ///< --version was given: print the version line and exit
    std::string help_text; ///< always filled, so a caller can print it after an error too
};

/// Parses argv (argv[0] is the program name). With --help the configuration is
/// not loaded, so help works whatever the preset. Throws CliError for a
/// malformed command line and ConfigError for an invalid configuration.
CliOptions parse_cli(int argc, const char* const argv[]);

} // namespace syncron
