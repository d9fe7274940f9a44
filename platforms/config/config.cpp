#include "platforms/config/config.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "models/common/address_map.h"
#include "models/common/input_file.h"
#include "models/common/params_json.h"
#include "models/common/spelling.h"
#include "models/schemes/scheme_factory.h"
#include "platforms/config/json_text.h"
#include "platforms/workload_registry.h"

namespace syncron {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// One field of the configuration. A single table drives to_json, from_json and
// apply_set, so a field added to params.h needs one line here and nowhere else.
enum class Kind { uint32, uint64, real, text, timing, page_policy, scheme, boolean };

struct Field {
    const char* section;
    const char* key;
    Kind kind;
    bool optional; ///< null allowed: unset, the consumer's default applies
    std::function<json(const SimParams&)> get;
    std::function<void(SimParams&, const json&)> set; // value already type-checked
    /// Valid range of a numeric key (docs/configuration.md): physical sense,
    /// and simulated times well inside SystemC's (2^64 ps at 1 ps resolution).
    double lo = 0, hi = 0;
    /// A key of a model extension, or one added after the statistics' format
    /// settled: written by to_json only when set away from its default, so
    /// the runs that do not use it keep their statistics.
    bool extension = false;
};

std::string path_of(const Field& f) { return std::string(f.section) + "." + f.key; }

// A key or a file name quoted in a message, cut short (a 5,000-character key, a 100 KB path).
std::string quoted(const std::string& s) { return "'" + excerpt(s, kQuotedMax) + "'"; }

[[noreturn]] void type_error(const std::string& path, const char* expected, const json& v) {
    throw ConfigError(quoted(path) + " must be " + expected + ", got " + json_excerpt(v));
}

// Type checks only; ranges and cross-field consistency are validate()'s job.
uint64_t as_uint(const std::string& path, const json& v, uint64_t max) {
    const char* expected = "a non-negative integer";
    if (!v.is_number_integer()) type_error(path, expected, v);
    if (!v.is_number_unsigned() && v.get<int64_t>() < 0) type_error(path, expected, v);
    const uint64_t x = v.get<uint64_t>();
    if (x > max) throw ConfigError(quoted(path) + " is out of range: " + json_excerpt(v) + " > " + std::to_string(max));
    return x;
}

double as_real(const std::string& path, const json& v) {
    if (!v.is_number()) type_error(path, "a number", v);
    const double x = v.get<double>();
    if (!std::isfinite(x)) type_error(path, "a finite number", v);
    return x;
}

bool as_bool(const std::string& path, const json& v) {
    if (!v.is_boolean()) type_error(path, "true or false", v);
    return v.get<bool>();
}

std::string as_text(const std::string& path, const json& v) {
    if (!v.is_string()) type_error(path, "a string", v);
    return v.get<std::string>();
}

Timing as_timing(const std::string& path, const json& v) {
    const std::string s = as_text(path, v);
    if (s == "lt") return Timing::lt;
    if (s == "at") return Timing::at;
    throw ConfigError(quoted(path) + " must be one of: lt, at; got " + json_excerpt(v));
}

PagePolicy as_page_policy(const std::string& path, const json& v) {
    as_text(path, v);
    const auto policy = v.get<PagePolicy>();
    if (json(policy) != v) // not one of the names (nlohmann gave the first value)
        throw ConfigError(quoted(path) + " must be one of: open, closed; got " + json_excerpt(v));
    return policy;
}

Scheme as_scheme(const std::string& path, const json& v) {
    if (const auto s = scheme_from_string(as_text(path, v))) return *s;
    std::string names;
    for (const auto& n : scheme_names()) names += (names.empty() ? "" : ", ") + n;
    throw ConfigError(quoted(path) + " must be one of: " + names + "; got " + json_excerpt(v));
}

constexpr double kPow20 = 1 << 20;
constexpr double kPow24 = 1 << 24;
constexpr double kPow30 = 1 << 30;
constexpr double kPow40 = 1ull << 40;
constexpr double kPow48 = 1ull << 48;
constexpr double kUint64Max = 18446744073709551615.0;
constexpr double kUint32Max = 4294967295.0;

bool is_numeric(Kind k) { return k == Kind::uint32 || k == Kind::uint64 || k == Kind::real; }

// A bound as people write it: 64, 0.01, 10^6, 2^20.
std::string bound_text(double x) {
    if (x >= kUint64Max) return "2^64-1"; // the double rounds it up to 2^64
    if (x == kUint32Max) return "2^32-1";
    for (int e = 5; e <= 18; ++e)
        if (x == std::pow(10.0, e)) return "10^" + std::to_string(e);
    for (int e = 16; e <= 63; ++e)
        if (x == std::ldexp(1.0, e)) return "2^" + std::to_string(e);
    std::ostringstream os;
    os << x;
    return os.str();
}

std::string range_text(const Field& f) { return bound_text(f.lo) + ".." + bound_text(f.hi); }

void check_range(const Field& f, const json& v) {
    if (!is_numeric(f.kind) || v.is_null()) return;
    const double x = v.get<double>();
    if (x < f.lo || x > f.hi)
        throw ConfigError(quoted(path_of(f)) + " must be in " + range_text(f) + ", got " + json_excerpt(v));
}

// Type and range of one key's value; cross-field consistency is validate()'s.
void check_value(const Field& f, const json& v) {
    const std::string path = path_of(f);
    if (f.optional && v.is_null()) return;
    switch (f.kind) {
    case Kind::uint32: as_uint(path, v, std::numeric_limits<unsigned>::max()); break;
    case Kind::uint64: as_uint(path, v, std::numeric_limits<uint64_t>::max()); break;
    case Kind::real: as_real(path, v); break;
    case Kind::text: as_text(path, v); break;
    case Kind::timing: as_timing(path, v); break;
    case Kind::page_policy: as_page_policy(path, v); break;
    case Kind::scheme: as_scheme(path, v); break;
    case Kind::boolean: as_bool(path, v); break;
    }
    check_range(f, v);
}

template <class T> constexpr Kind kind_of() {
    if constexpr (std::is_same_v<T, unsigned>)
        return Kind::uint32;
    else if constexpr (std::is_same_v<T, uint64_t>)
        return Kind::uint64;
    else if constexpr (std::is_same_v<T, double>)
        return Kind::real;
    else if constexpr (std::is_same_v<T, std::string>)
        return Kind::text;
    else if constexpr (std::is_same_v<T, bool>)
        return Kind::boolean;
    else if constexpr (std::is_same_v<T, PagePolicy>)
        return Kind::page_policy;
    else if constexpr (std::is_same_v<T, Scheme>)
        return Kind::scheme;
    else {
        static_assert(std::is_same_v<T, Timing>, "unsupported parameter type");
        return Kind::timing;
    }
}

template <class T> struct Optional : std::false_type { using type = T; };
template <class T> struct Optional<std::optional<T>> : std::true_type { using type = T; };

template <class S, class T> Field field(const char* section, const char* key, S SimParams::*sec, T S::*mem) {
    if constexpr (Optional<T>::value) {
        // An optional parameter: null (or absent) leaves it unset.
        using V = typename Optional<T>::type;
        Field f{section, key, kind_of<V>(), true, nullptr, nullptr};
        f.get = [sec, mem](const SimParams& p) -> json {
            const auto& v = p.*sec.*mem;
            return v ? json(*v) : json(nullptr);
        };
        f.set = [sec, mem](SimParams& p, const json& v) {
            if (v.is_null())
                (p.*sec.*mem).reset();
            else
                p.*sec.*mem = v.get<V>();
        };
        return f;
    } else {
        Field f{section, key, kind_of<T>(), false, nullptr, nullptr};
        f.get = [sec, mem](const SimParams& p) -> json {
            if constexpr (std::is_same_v<T, Timing>)
                return timing_name(p.*sec.*mem);
            else
                return json(p.*sec.*mem); // enums by their NLOHMANN_JSON_SERIALIZE_ENUM names
        };
        f.set = [sec, mem, path = std::string(section) + "." + key](SimParams& p, const json& v) {
            if constexpr (std::is_same_v<T, Timing>)
                p.*sec.*mem = as_timing(path, v);
            else if constexpr (std::is_same_v<T, PagePolicy>)
                p.*sec.*mem = as_page_policy(path, v);
            else if constexpr (std::is_same_v<T, std::string>)
                p.*sec.*mem = v.get<std::string>();
            else if constexpr (std::is_same_v<T, Scheme>)
                p.*sec.*mem = v.get<Scheme>(); // a known name (check_value)
            else
                p.*sec.*mem = v.get<T>();
        };
        return f;
    }
}

template <class S, class T>
Field ranged(const char* section, const char* key, S SimParams::*sec, T S::*mem, double lo, double hi) {
    Field f = field(section, key, sec, mem);
    f.lo = lo;
    f.hi = hi;
    return f;
}

Field extension_key(Field f) {
    f.extension = true;
    return f;
}

#define SYNCRON_FIELD(section, key) field(#section, #key, &SimParams::section, &decltype(SimParams::section)::key)
#define SYNCRON_NUMBER(section, key, lo, hi)                                                                           \
    ranged(#section, #key, &SimParams::section, &decltype(SimParams::section)::key, lo, hi)

const std::vector<Field>& fields() {
    static const std::vector<Field> table = {
        SYNCRON_NUMBER(platform, units, 1, 64),
        SYNCRON_NUMBER(platform, cores_per_unit, 1, 1024),
        SYNCRON_NUMBER(platform, client_cores, 1, 65536),
        SYNCRON_FIELD(platform, timing),
        SYNCRON_FIELD(platform, scheme),
        extension_key(SYNCRON_NUMBER(platform, units_per_group, 0, 64)),
        SYNCRON_NUMBER(se, clock_ghz, 0.01, 100),
        SYNCRON_NUMBER(se, cycles_per_message, 1, 1e6),
        SYNCRON_NUMBER(se, st_cycles, 0, 1e6),
        SYNCRON_NUMBER(se, counter_cycles, 0, 1e6),
        SYNCRON_NUMBER(se, st_entries, 0, kPow20),
        SYNCRON_NUMBER(se, indexing_counters, 1, kPow20),
        SYNCRON_NUMBER(se, buffer_messages, 1, kPow20),
        // What the fabric's FAIRNESS register takes at run time (4 bytes).
        SYNCRON_NUMBER(se, lock_fairness_threshold, 0, kUint32Max),
        SYNCRON_NUMBER(core, clock_ghz, 0.01, 100),
        SYNCRON_NUMBER(core, quantum_ns, 0.001, 1e6),
        extension_key(SYNCRON_NUMBER(core, memory_quantum_ns, 0, 1e6)),
        SYNCRON_NUMBER(core, l1_bytes, 1, kPow30),
        SYNCRON_NUMBER(core, l1_ways, 1, 1024),
        SYNCRON_NUMBER(core, l1_line_bytes, 1, 4096),
        SYNCRON_NUMBER(core, l1_hit_cycles, 0, 1e6),
        extension_key(SYNCRON_NUMBER(core, threads, 1, 16)),
        extension_key(SYNCRON_NUMBER(core, switch_cycles, 0, 1e6)),
        SYNCRON_NUMBER(memory, vaults_per_unit, 1, 1024),
        SYNCRON_NUMBER(memory, banks_per_vault, 1, 1024),
        SYNCRON_NUMBER(memory, unit_bytes, 1, kPow48),
        SYNCRON_NUMBER(memory, interleave_bytes, 1, kPow30),
        SYNCRON_NUMBER(memory, t_rcd_ns, 0.001, 1e6),
        SYNCRON_NUMBER(memory, t_rcd_write_ns, 0.001, 1e6),
        SYNCRON_NUMBER(memory, t_ras_ns, 0.001, 1e6),
        SYNCRON_NUMBER(memory, t_wr_ns, 0.001, 1e6),
        SYNCRON_NUMBER(memory, t_cl_ns, 0.001, 1e6),
        SYNCRON_NUMBER(memory, t_cwl_ns, 0, 1e6),
        SYNCRON_NUMBER(memory, t_rp_ns, 0.001, 1e6),
        SYNCRON_NUMBER(memory, t_burst_ns, 0.001, 1e6),
        SYNCRON_FIELD(memory, page_policy),
        SYNCRON_NUMBER(memory, queue_depth, 1, kPow20),
        SYNCRON_NUMBER(memory, t_alu_ns, 0, 1e6),
        SYNCRON_NUMBER(xbar, clock_ghz, 0.01, 100),
        SYNCRON_NUMBER(xbar, arbiter_cycles, 0, 1e6),
        SYNCRON_NUMBER(xbar, hop_cycles, 0, 1e6),
        SYNCRON_NUMBER(xbar, flit_bytes, 1, 4096),
        SYNCRON_NUMBER(xbar, queue_depth, 1, kPow20),
        SYNCRON_NUMBER(link, bandwidth_gbps, 0.001, 1e6),
        SYNCRON_NUMBER(link, latency_ns, 0, 1e6),
        SYNCRON_NUMBER(link, queue_depth, 1, kPow20),
        SYNCRON_FIELD(workload, name),
        SYNCRON_NUMBER(workload, interval, 0, 1e7),
        SYNCRON_NUMBER(workload, ops, 1, 1e8),
        SYNCRON_NUMBER(workload, seed, 0, kUint64Max),
        SYNCRON_NUMBER(workload, variables, 1, kPow24),
        SYNCRON_FIELD(workload, memory_check),
        SYNCRON_FIELD(workload, condvar_apart),
        SYNCRON_NUMBER(workload, elements, 1, kPow40),
        SYNCRON_NUMBER(workload, update_percent, 0, 100),
        SYNCRON_NUMBER(workload, insert_percent, 0, 100),
        SYNCRON_FIELD(workload, graph),
        SYNCRON_FIELD(workload, graph_format),
        SYNCRON_NUMBER(workload, rmat_scale, 1, 26),
        SYNCRON_NUMBER(workload, rmat_edge_factor, 1, 1024),
        SYNCRON_NUMBER(workload, edge_instructions, 0, 1e6),
        SYNCRON_FIELD(workload, partition),
        SYNCRON_FIELD(workload, series),
        SYNCRON_NUMBER(workload, series_column, 1, 1e4),
        SYNCRON_NUMBER(workload, series_length, 8, kPow24),
        SYNCRON_NUMBER(workload, window, 4, kPow20),
        extension_key(SYNCRON_NUMBER(workload, counters, 1, kPow20)),
        extension_key(SYNCRON_FIELD(workload, counter_update)),
        extension_key(SYNCRON_FIELD(workload, use_se_atomics)),
        extension_key(SYNCRON_FIELD(workload, test_before_lock)),
        extension_key(SYNCRON_FIELD(workload, op_work)),
        extension_key(SYNCRON_FIELD(workload, pr_style)),
        SYNCRON_FIELD(check, protocol),
        SYNCRON_FIELD(check, coherence),
        SYNCRON_NUMBER(server, instructions_per_request, 1, 1e6),
        SYNCRON_NUMBER(server, table_entries, 1, kPow24),
        SYNCRON_FIELD(server, central_cached),
        SYNCRON_FIELD(server, per_unit_cached),
        SYNCRON_NUMBER(atomics, backoff_min, 1, 1e6),
        SYNCRON_NUMBER(atomics, backoff_max, 1, 1e9),
        SYNCRON_NUMBER(mesi_lock, backoff_min, 1, 1e6),
        SYNCRON_NUMBER(mesi_lock, backoff_max, 1, 1e9),
        SYNCRON_NUMBER(mesi_lock, spin_instructions, 1, 1e6),
        SYNCRON_NUMBER(misar, retry_backoff, 0, 1e6),
        SYNCRON_NUMBER(energy, core_pj_per_instruction, 0.001, 1e6),
        SYNCRON_NUMBER(energy, core_static_mw, 0, 1e6),
        SYNCRON_NUMBER(energy, l1_hit_pj, 0.001, 1e6),
        SYNCRON_NUMBER(energy, l1_miss_pj, 0.001, 1e6),
        SYNCRON_NUMBER(energy, xbar_pj_per_bit, 0.001, 1e6),
        SYNCRON_NUMBER(energy, link_pj_per_bit, 0.001, 1e6),
        SYNCRON_NUMBER(energy, memory_pj_per_bit, 0.001, 1e6),
        SYNCRON_NUMBER(energy, memory_activate_pj, 0, 1e6),
        SYNCRON_NUMBER(energy, memory_static_mw, 0, 1e6),
        SYNCRON_NUMBER(energy, se_mw, 0.001, 1e6),
        SYNCRON_FIELD(coherence, shared_data),
        SYNCRON_NUMBER(coherence, directory_cycles, 0, 1e6),
        SYNCRON_FIELD(coherence, directory_data),
    };
    static const bool ranges_complete = [] {
        for (const auto& f : table)
            if (is_numeric(f.kind) && !(f.lo < f.hi))
                throw std::logic_error("configuration key " + path_of(f) + " has no valid range");
        return true;
    }();
    (void)ranges_complete;
    return table;
}

#undef SYNCRON_FIELD
#undef SYNCRON_NUMBER

const std::vector<std::string>& sections() {
    static const std::vector<std::string> names = {"platform",  "se",       "core",   "memory",   "xbar",
                                                   "link",      "workload", "check",  "server",   "atomics",
                                                   "mesi_lock", "misar",    "energy", "coherence"};
    return names;
}

// Keys a preset may carry besides the sections, for people rather than the model.
// "kind": "assumptions" marks a set of assumptions (paper.json) rather than a
// platform, so that scripts listing the platforms (--list) can leave it out.
// "fitted": {"section.key": "figure: claim"}, the values such a set fits to one
// claim of the paper, which the workflow's claims table shows as fitted, not
// as validated (docs/configuration.md, "The paper preset").
constexpr const char* kFitted = "fitted";
constexpr std::array<const char*, 5> kAnnotations = {"name", "summary", "description", "kind", kFitted};

bool is_annotation(const std::string& key) {
    return std::any_of(kAnnotations.begin(), kAnnotations.end(), [&](const char* a) { return key == a; });
}

// "base": the preset (by name) or file (a path, relative to the naming file's
// folder) a configuration is built on; its own keys replace the base's.
constexpr const char* kBaseKey = "base";

const Field* find_field(const std::string& section, const std::string& key) {
    for (const auto& f : fields())
        if (section == f.section && key == f.key) return &f;
    return nullptr;
}

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
    return out;
}

[[noreturn]] void unknown_section(const std::string& section) {
    std::string msg = "unknown configuration section " + quoted(section);
    const std::string hint = closest_spelling(section, sections());
    if (!hint.empty()) msg += " (did you mean " + quoted(hint) + "?)";
    throw ConfigError(msg + "; valid sections: " + join(sections()));
}

[[noreturn]] void unknown_key(const std::string& section, const std::string& key) {
    std::string msg = "unknown configuration key " + quoted(section + "." + key);
    std::vector<std::string> keys;
    for (const auto& f : fields())
        if (section == f.section) keys.push_back(f.key);
    const std::string hint = closest_spelling(key, keys);
    if (!hint.empty()) msg += " (did you mean " + quoted(section + "." + hint) + "?)";
    throw ConfigError(msg);
}

bool is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

void require(bool ok, const std::string& path, const std::string& what) {
    if (!ok) throw ConfigError(quoted(path) + " " + what);
}

template <class T> std::string str(T v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

std::vector<std::string> preset_names_in(const std::vector<std::string>& dirs) {
    std::vector<std::string> names;
    for (const auto& dir : dirs) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(dir, ec)) {
            if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

// Read whole (at most 64 MiB), so a pipe (--config /dev/stdin) works like a file.
json parse_file(const fs::path& file) {
    // Not a device or a named FIFO (read forever, or blocked forever); a pipe
    // held open (/dev/stdin) is read, up to a bound.
    const std::string problem = input_file_problem(file.string());
    if (!problem.empty()) throw ConfigError("configuration file " + quoted(file.string()) + " " + problem);
    std::ifstream in(file, std::ios::binary);
    if (!in) throw ConfigError("cannot open configuration file " + quoted(file.string()));
    constexpr std::size_t kMaxBytes = std::size_t{64} << 20; // a configuration is a few KB
    std::string text;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxBytes)
            throw ConfigError("configuration file " + quoted(file.string()) + " is larger than 64 MiB");
    }
    if (in.bad()) throw ConfigError("cannot read configuration file " + quoted(file.string()));
    const std::string source = "configuration file " + quoted(file.string());
    json cfg = parse_json_text(text, source);
    if (!cfg.is_object()) throw ConfigError(source + " must hold a JSON object, got " + json_kind(cfg));
    return cfg;
}

// Where a preset name or path leads; empty when nothing matches.
fs::path resolve_preset(const std::string& name_or_path) {
    std::error_code ec;
    // Any existing file, devices and pipes included (/dev/stdin); a folder is not one.
    if (fs::exists(name_or_path, ec) && !fs::is_directory(name_or_path, ec)) return name_or_path;
    // Something that looks like a path is not looked up by name.
    if (name_or_path.find('/') != std::string::npos) return {};
    for (const auto& dir : preset_search_path()) {
        fs::path candidate = fs::path(dir) / (name_or_path + ".json"); // not const: returned by move
        if (fs::is_regular_file(candidate, ec)) return candidate;
    }
    return {};
}

// `file`'s configuration over its bases: `chain` holds the files already on
// the way (a base that leads back to one of them is a cycle).
json load_with_bases(const fs::path& file, std::vector<fs::path>& chain) {
    json cfg = parse_file(file);
    if (!cfg.contains(kBaseKey)) return cfg;
    const std::string source = "configuration file " + quoted(file.string());
    const json& base_name = cfg.at(kBaseKey);
    if (!base_name.is_string() || base_name.get<std::string>().empty())
        throw ConfigError(source + ": 'base' must name a preset or a file, got " + json_kind(base_name));
    const std::string name = base_name.get<std::string>();
    // A path (a '/' or a .json name) is relative to this file's folder; a bare name is a preset.
    const bool is_path = name.find('/') != std::string::npos || fs::path(name).extension() == ".json";
    const fs::path base = !is_path                       ? resolve_preset(name)
                          : fs::path(name).is_absolute() ? fs::path(name)
                                                         : file.parent_path() / name;
    std::error_code ec;
    if (base.empty() || !fs::exists(base, ec))
        throw ConfigError(source + ": its base " + quoted(name) + " is neither a preset (" + join(available_presets()) +
                          ") nor a file");
    const fs::path canonical = fs::weakly_canonical(base, ec);
    for (const fs::path& seen : chain)
        if (seen == canonical) throw ConfigError(source + ": its base " + quoted(name) + " leads back to itself");
    if (chain.size() >= 8) throw ConfigError(source + ": more than 8 bases in a row");
    chain.push_back(canonical);
    json merged = load_with_bases(base, chain);
    // The base's settings, then this file's: a key here replaces the base's,
    // a section here adds to the base's; the notes (name, summary) are this file's.
    for (const char* note : kAnnotations) merged.erase(note);
    for (const auto& [section, body] : cfg.items()) {
        if (section == kBaseKey) continue;
        if (is_annotation(section) || !body.is_object() || !merged.contains(section) || !merged[section].is_object()) {
            merged[section] = body; // check_keys reports a wrong kind, naming the section
            continue;
        }
        for (const auto& [key, value] : body.items()) merged[section][key] = value;
    }
    return merged;
}

} // namespace

std::string preset_file(const std::string& name_or_path) { return resolve_preset(name_or_path).string(); }

std::string valid_range(const std::string& section, const std::string& key) {
    const Field* f = find_field(section, key);
    if (!f) unknown_key(section, key);
    return is_numeric(f->kind) ? range_text(*f) : std::string();
}

const char* timing_name(Timing timing) { return timing == Timing::at ? "at" : "lt"; }

const std::vector<std::string>& implemented_schemes() { return scheme_names(); }

const std::vector<std::string>& known_workloads() { return WorkloadRegistry::instance().names(); }

json to_json(const SimParams& params) {
    json out = json::object();
    for (const auto& s : sections()) out[s] = json::object();
    static const SimParams defaults;
    for (const auto& f : fields()) {
        json value = f.get(params);
        if (f.extension && value == f.get(defaults)) continue;
        out[f.section][f.key] = std::move(value);
    }
    return out;
}

// A "fitted" annotation names keys the file sets, each with the claim it was fitted on.
void check_fitted(const json& cfg) {
    const json& fitted = cfg.at(kFitted);
    if (!fitted.is_object()) type_error(kFitted, "an object of \"section.key\": \"figure: claim\"", fitted);
    for (const auto& [name, claim] : fitted.items()) {
        const auto dot = name.find('.');
        const std::string section = name.substr(0, dot), key = dot == std::string::npos ? "" : name.substr(dot + 1);
        if (!find_field(section, key))
            throw ConfigError("fitted: " + quoted(name) + " is not a configuration key (section.key)");
        if (!cfg.contains(section) || !cfg.at(section).is_object() || !cfg.at(section).contains(key))
            throw ConfigError("fitted: " + quoted(name) + " is not set by this configuration");
        if (!claim.is_string() || claim.get<std::string>().find(": ") == std::string::npos)
            type_error(kFitted + std::string(".") + name, "a string \"figure: claim\"", claim);
    }
}

void check_keys(const json& cfg) {
    if (cfg.is_null()) return;
    if (!cfg.is_object()) throw ConfigError("a configuration must be a JSON object, got " + json_kind(cfg));
    for (const auto& [section, body] : cfg.items()) {
        if (section == kFitted) {
            check_fitted(cfg);
            continue;
        }
        if (is_annotation(section)) {
            if (!body.is_string()) type_error(section, "a string", body);
            continue;
        }
        if (std::find(sections().begin(), sections().end(), section) == sections().end()) unknown_section(section);
        if (!body.is_object()) type_error(section, "an object", body);
        for (const auto& [key, value] : body.items())
            if (!find_field(section, key)) unknown_key(section, key);
        // In the table's order (the docs' order), not the object's alphabetical one.
        for (const auto& f : fields())
            if (section == f.section && body.contains(f.key)) check_value(f, body.at(f.key));
    }
}

SimParams from_json(const json& cfg) {
    check_keys(cfg);
    SimParams params;
    if (cfg.is_null()) return params;
    for (const auto& [section, body] : cfg.items()) {
        if (is_annotation(section)) continue;
        for (const auto& [key, value] : body.items()) find_field(section, key)->set(params, value);
    }
    validate(params);
    return params;
}

void validate(const SimParams& p) {
    // Every key in its range first (the same check as for a configuration
    // file), then what only a combination of keys can get wrong.
    for (const auto& f : fields()) check_range(f, f.get(p));

    const auto& pl = p.platform;
    const uint64_t hw_cores = uint64_t(pl.units) * pl.cores_per_unit;
    require(pl.client_cores <= hw_cores, "platform.client_cores",
            "(" + str(pl.client_cores) + ") exceeds platform.units x platform.cores_per_unit (" + str(pl.units) +
                " x " + str(pl.cores_per_unit) + " = " + str(hw_cores) + ")");
    require(static_cast<size_t>(pl.scheme) < scheme_names().size(), "platform.scheme",
            "must be one of: " + join(scheme_names()) + "; got " + str(static_cast<unsigned>(pl.scheme)));
    const auto scheme = make_scheme(pl.scheme);
    bool servers = false;
    for (unsigned u = 0; u < pl.units; ++u) servers |= scheme->servers_in(u) > 0;
    if (servers) {
        // A server core is the first core after a unit's clients (the paper
        // keeps the 16th core of every unit free for it).
        const auto split = client_cores_per_unit(pl);
        for (unsigned u = 0; u < pl.units; ++u)
            require(split[u] + scheme->servers_in(u) <= pl.cores_per_unit, "platform.client_cores",
                    "(" + str(pl.client_cores) + ") leaves no core of unit " + str(u) + " free for the " +
                        to_string(pl.scheme) + " server: at most " + str(pl.cores_per_unit - 1) +
                        " client cores per unit (platform.cores_per_unit = " + str(pl.cores_per_unit) + ")");
    }

    if (pl.units_per_group) {
        require(pl.units_per_group >= 2 && pl.units_per_group < pl.units && pl.units % pl.units_per_group == 0,
                "platform.units_per_group",
                "(" + str(pl.units_per_group) + ") must be 0 (two levels) or a divisor of platform.units (" +
                    str(pl.units) + ") from 2 to " + str(pl.units / 2) + ": the units form equal groups");
        require(pl.scheme == Scheme::syncron, "platform.units_per_group",
                "adds a level to SynCron's hierarchy: scheme syncron only (got " + std::string(to_string(pl.scheme)) +
                    ")");
    }
    require(is_pow2(p.se.indexing_counters), "se.indexing_counters",
            "must be a power of two (they are indexed by the low address bits), got " + str(p.se.indexing_counters));

    const auto& core = p.core;
    require(is_pow2(core.l1_line_bytes), "core.l1_line_bytes",
            "must be a power of two, got " + str(core.l1_line_bytes));
    const uint64_t way_bytes = uint64_t(core.l1_ways) * core.l1_line_bytes;
    require(core.l1_bytes >= way_bytes && core.l1_bytes % way_bytes == 0, "core.l1_bytes",
            "(" + str(core.l1_bytes) +
                ") must be a non-zero multiple of core.l1_ways x "
                "core.l1_line_bytes (" +
                str(way_bytes) + ")");
    // Every context gets an equal share of the L1's sets (docs/ndp_core.md).
    require(core.l1_bytes / way_bytes % core.threads == 0, "core.threads",
            "(" + str(core.threads) + ") must divide the L1's " + str(core.l1_bytes / way_bytes) +
                " sets (core.l1_bytes / (core.l1_ways x core.l1_line_bytes)): each context has an equal share");
    require(uint64_t(pl.cores_per_unit) * core.threads <= 1024, "core.threads",
            "x platform.cores_per_unit (" + str(core.threads) + " x " + str(pl.cores_per_unit) +
                ") exceeds 1024 hardware contexts per unit");

    // A memory quantum shorter than the quantum would sync more often between
    // synchronization points than at them.
    require(core.memory_quantum_ns == 0 || core.memory_quantum_ns >= core.quantum_ns, "core.memory_quantum_ns",
            "must be 0 (off) or at least core.quantum_ns (" + str(core.quantum_ns) + "), got " +
                str(core.memory_quantum_ns));

    const auto& mem = p.memory;
    require(is_pow2(mem.interleave_bytes), "memory.interleave_bytes",
            "must be a power of two, got " + str(mem.interleave_bytes));
    const uint64_t stripe = uint64_t(mem.interleave_bytes) * mem.vaults_per_unit;
    require(mem.unit_bytes >= stripe && mem.unit_bytes % stripe == 0, "memory.unit_bytes",
            "(" + str(mem.unit_bytes) +
                ") must be a non-zero multiple of "
                "memory.interleave_bytes x memory.vaults_per_unit (" +
                str(stripe) + ")");
    // Memory must end below the MMIO window of the address map.
    require(mem.unit_bytes <= AddressMap::kIoBase / pl.units, "memory.unit_bytes",
            "x platform.units exceeds the memory window of the address map (" + str(AddressMap::kIoBase) + " bytes)");

    const auto& wl = p.workload;
    // The cores' own work alone must end well inside SystemC's time range
    // (2^64 ps, about 1.8e16 ns, at the kernel's 1 ps resolution).
    if (wl.ops) {
        const double compute_ns = double(*wl.ops) * wl.interval / core.clock_ghz;
        require(compute_ns <= 1e15, "workload.ops",
                "x workload.interval / core.clock_ghz (" + str(compute_ns) +
                    " ns of computation per core) exceeds 10^15 ns, past what SystemC's time can count");
    }
    require(wl.graph_format.empty() || wl.graph_format == "snap" || wl.graph_format == "mtx", "workload.graph_format",
            "must be snap, mtx or empty (by the file's extension); got " + json_excerpt(json(wl.graph_format)));
    require(wl.partition == "contiguous" || wl.partition == "metis", "workload.partition",
            "must be contiguous or metis; got " + json_excerpt(json(wl.partition)));
    require(wl.op_work == "none" || wl.op_work == "measured", "workload.op_work",
            "must be none or measured; got " + json_excerpt(json(wl.op_work)));
    require(wl.pr_style == "push" || wl.pr_style == "pull", "workload.pr_style",
            "must be push or pull; got " + json_excerpt(json(wl.pr_style)));
    require(wl.counter_update == "se_rmw" || wl.counter_update == "lock" || wl.counter_update == "remote_atomic",
            "workload.counter_update",
            "must be se_rmw, lock or remote_atomic; got " + json_excerpt(json(wl.counter_update)));
    require(wl.series_length >= 2 * uint64_t(wl.window), "workload.series_length",
            "(" + str(wl.series_length) + ") must be at least twice workload.window (" + str(wl.window) + ")");
    require(p.atomics.backoff_max >= p.atomics.backoff_min, "atomics.backoff_max",
            "(" + str(p.atomics.backoff_max) + ") must be at least atomics.backoff_min (" + str(p.atomics.backoff_min) +
                ")");
    require(p.mesi_lock.backoff_max >= p.mesi_lock.backoff_min, "mesi_lock.backoff_max",
            "(" + str(p.mesi_lock.backoff_max) + ") must be at least mesi_lock.backoff_min (" +
                str(p.mesi_lock.backoff_min) + ")");
    const auto& names = known_workloads();
    require(std::find(names.begin(), names.end(), wl.name) != names.end(), "workload.name",
            "must be one of: " + join(names) + "; got " + json_excerpt(json(wl.name)));
    if (wl.use_se_atomics) {
        const auto& registry = WorkloadRegistry::instance();
        std::vector<std::string> takers;
        for (const auto& n : names)
            if (registry.info(n).se_atomics) takers.push_back(n);
        require(registry.info(wl.name).se_atomics, "workload.use_se_atomics",
                "= true is for the workloads that update shared words under a lock (" + join(takers) + "); workload " +
                    wl.name + " has none to replace");
    }
}

std::vector<std::string> preset_search_path() {
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("SYNCRON_PRESET_DIR"); env && *env) dirs.emplace_back(env);
#ifdef SYNCRON_PRESET_DIR
    dirs.emplace_back(SYNCRON_PRESET_DIR);
#endif
    return dirs;
}

std::vector<std::string> available_presets() { return preset_names_in(preset_search_path()); }

std::string preset_listing() {
    const auto names = available_presets();
    if (names.empty()) return "no presets found in " + join(preset_search_path()) + "\n";
    size_t width = 0;
    for (const auto& n : names) width = std::max(width, n.size());
    std::string out;
    for (const auto& n : names) {
        std::string line;
        try {
            const json cfg = load_preset_json(n);
            line = cfg.value("summary", cfg.value("description", std::string("(no description)")));
        } catch (const std::exception& e) {
            line = std::string("(unreadable: ") + e.what() + ")";
        }
        out += n + std::string(width - n.size() + 2, ' ') + line + "\n";
    }
    return out;
}

json load_preset_json(const std::string& name_or_path) {
    const fs::path file = resolve_preset(name_or_path);
    if (file.empty()) {
        std::string msg = "cannot open configuration file " + quoted(name_or_path);
        std::error_code ec;
        if (fs::is_directory(name_or_path, ec)) throw ConfigError(msg + ": it is a folder, not a file");
        if (name_or_path.find('/') == std::string::npos) {
            const auto dirs = preset_search_path();
            msg += ": no such file, and no preset " + quoted(name_or_path + ".json") + " in " +
                   (dirs.empty() ? std::string("(no preset directory)") : join(dirs));
            const auto names = available_presets();
            if (!names.empty()) msg += " (available presets: " + join(names) + ")";
        }
        throw ConfigError(msg);
    }
    std::error_code ec;
    std::vector<fs::path> chain{fs::weakly_canonical(file, ec)};
    return load_with_bases(file, chain);
}

SimParams load_preset(const std::string& name_or_path) {
    const json cfg = load_preset_json(name_or_path);
    try {
        return from_json(cfg);
    } catch (const ConfigError& e) {
        throw ConfigError(resolve_preset(name_or_path).string() + ": " + e.what());
    }
}

void apply_set(json& cfg, const std::string& key_eq_value) {
    const size_t eq = key_eq_value.find('=');
    if (eq == std::string::npos) throw ConfigError("--set expects section.key=value, got " + quoted(key_eq_value));
    const std::string path = key_eq_value.substr(0, eq);
    const std::string text = key_eq_value.substr(eq + 1);
    const size_t dot = path.find('.');
    if (dot == std::string::npos)
        throw ConfigError("--set expects section.key=value, got " + quoted(key_eq_value) + ": " + quoted(path) +
                          " is not a section.key");
    const std::string section = path.substr(0, dot);
    const std::string key = path.substr(dot + 1);
    if (std::find(sections().begin(), sections().end(), section) == sections().end()) unknown_section(section);
    const Field* f = find_field(section, key);
    if (!f) unknown_key(section, key);

    // Not JSON is not an error yet (a string key takes the text as written);
    // a NUL byte or a too deeply nested value is.
    json value = parse_json_text(text, "--set " + quoted(path), /*syntax_errors_throw=*/false);
    const bool textual =
        f->kind == Kind::text || f->kind == Kind::timing || f->kind == Kind::page_policy || f->kind == Kind::scheme;
    if (textual) {
        // scheme=syncron and scheme="syncron" both mean the string.
        if (!value.is_string()) value = text;
    } else if (value.is_discarded()) {
        const char* expected = f->kind == Kind::real      ? "a number"
                               : f->kind == Kind::boolean ? "true or false"
                                                          : "a non-negative integer";
        throw ConfigError(quoted(path) + " must be " + expected + ", got " + json_excerpt(json(text)));
    }
    check_value(*f, value);

    if (cfg.is_null()) cfg = json::object();
    if (!cfg.is_object()) throw ConfigError("a configuration must be a JSON object, got " + json_kind(cfg));
    json& body = cfg[section];
    if (body.is_null()) body = json::object();
    if (!body.is_object()) type_error(section, "an object", body);
    body[key] = value;
}

std::vector<unsigned> client_cores_per_unit(const PlatformParams& platform) {
    if (platform.units == 0) throw ConfigError("'platform.units' must be at least 1, got 0");
    const uint64_t hw_cores = uint64_t(platform.units) * platform.cores_per_unit;
    if (platform.client_cores > hw_cores)
        throw ConfigError("'platform.client_cores' (" + str(platform.client_cores) +
                          ") exceeds platform.units x platform.cores_per_unit (" + str(hw_cores) + ")");
    const unsigned base = platform.client_cores / platform.units;
    const unsigned extra = platform.client_cores % platform.units;
    std::vector<unsigned> split(platform.units, base);
    for (unsigned u = 0; u < extra; ++u) ++split[u];
    return split;
}

} // namespace syncron
