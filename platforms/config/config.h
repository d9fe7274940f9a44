#pragma once
// JSON configuration of a simulation (docs/configuration.md).
//
// A configuration has one object per parameter struct of models/common/params.h
// ("platform", "se", "core", "memory", "xbar", "link", "workload") whose keys are
// exactly the struct's field names. Missing keys keep their defaults, so a preset
// or a test can state only what it changes; unknown keys are errors, because a
// misspelt key that is silently ignored produces a wrong experiment.
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/params.h"
#include "models/common/params_json.h"

namespace syncron {

// platform.scheme in JSON: the scheme's name (models/common/scheme.h).
/// Bad configuration. what() names the offending key path (e.g. 'se.st_entries').
class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Every field of every section; the inverse of from_json().
nlohmann::json to_json(const SimParams& params);

/// Defaults of params.h overridden by the keys present in cfg, then validated.
/// cfg may also carry top-level "name", "summary" and "description" strings (ignored).
/// Throws ConfigError on an unknown section or key, a wrongly typed value, or
/// an out-of-range or inconsistent value.
SimParams from_json(const nlohmann::json& cfg);

/// The checks of from_json() that need no other key: known sections and keys,
/// each value's type and range. The command line runs them on the preset
/// with its --set overrides before its flags replace any value, so a bad
/// value is reported even where a flag would hide it.
void check_keys(const nlohmann::json& cfg);

/// Range and consistency checks of from_json(), for parameters built in code.
void validate(const SimParams& params);

/// The raw JSON of a preset: name_or_path is an existing file, or the name of
/// <name>.json in the preset directories (see preset_search_path()).
nlohmann::json load_preset_json(const std::string& name_or_path);

/// The file load_preset_json reads for `name_or_path`; empty when none.
std::string preset_file(const std::string& name_or_path);

/// from_json(load_preset_json(name_or_path)); errors are prefixed with the file.
SimParams load_preset(const std::string& name_or_path);

/// Directories searched for presets by name: $SYNCRON_PRESET_DIR if set, then
/// the source tree's platforms/presets compiled in at build time.
std::vector<std::string> preset_search_path();

/// Names (without .json) of the presets found in preset_search_path(), sorted.
std::vector<std::string> available_presets();

/// One line per available preset: its name and its "summary" (else its
/// "description", or why it cannot be read), for --list-presets.
std::string preset_listing();

/// Applies one "section.key=value" override (the command line's --set) to cfg.
/// The value is taken as JSON when it parses (8, 2.5, true, "x"), otherwise as
/// a plain string; string fields always take the text as written unless it is a
/// quoted JSON string. Throws ConfigError naming the key when the key does not
/// exist or the value has the wrong type for it.
void apply_set(nlohmann::json& cfg, const std::string& key_eq_value);

/// Client cores of each unit: client_cores spread evenly, the remainder going
/// to the lowest-numbered units (61 over 4 units = 16, 15, 15, 15).
/// Throws ConfigError when they do not fit in units x cores_per_unit.
std::vector<unsigned> client_cores_per_unit(const PlatformParams& platform);

/// The valid range of a numeric key as the docs and errors write it
/// ("0.01..100", "0..10^6"); "" for a key that is not a number.
/// Throws ConfigError for an unknown key.
std::string valid_range(const std::string& section, const std::string& key);

/// Synchronization schemes the model implements (accepted in platform.scheme).
const std::vector<std::string>& implemented_schemes();

/// Workloads accepted in workload.name.
const std::vector<std::string>& known_workloads();

/// "lt" / "at".
const char* timing_name(Timing timing);

} // namespace syncron
