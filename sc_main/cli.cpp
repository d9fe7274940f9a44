#include "sc_main/cli.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "models/common/input_file.h"
#include "models/common/spelling.h"
#include "platforms/config/json_text.h"
#include "platforms/workload_registry.h"
#include "sc_main/output_paths.h"

namespace syncron {

namespace po = boost::program_options;
using nlohmann::json;

namespace {

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
    return out;
}

// Boost's lexical_cast wraps "-1" into a huge unsigned; parse numbers ourselves.
uint64_t parse_uint(const std::string& option, const std::string& text, uint64_t max) {
    uint64_t v = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != end)
        throw CliError("invalid value '" + text + "' for option '--" + option + "': expected a non-negative integer");
    if (ec == std::errc::result_out_of_range || v > max)
        throw CliError("invalid value '" + text + "' for option '--" + option + "': out of range (at most " +
                       std::to_string(max) + ")");
    return v;
}

std::string one_of(const std::string& option, const std::string& text, const std::vector<std::string>& valid) {
    if (std::find(valid.begin(), valid.end(), text) == valid.end())
        throw CliError("invalid value '" + text + "' for option '--" + option + "': valid values are " + join(valid));
    return text;
}

unsigned uint_in(const json& cfg, const char* section, const char* key, unsigned fallback) {
    if (!cfg.contains(section) || !cfg[section].is_object()) return fallback;
    const json& v = cfg[section].value(key, json());
    if (!v.is_number_unsigned() || v.get<uint64_t>() > std::numeric_limits<unsigned>::max())
        return fallback; // from_json reports the bad value later
    return v.get<unsigned>();
}

/// The registered workloads grouped by family, e.g.
/// "microbenchmarks: lock, barrier; data structures: stack, queue".
std::string workload_list() {
    const WorkloadRegistry& registry = WorkloadRegistry::instance();
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;
    for (const std::string& name : registry.names()) {
        const std::string& family = registry.info(name).family;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == family; });
        if (it == groups.end()) it = groups.insert(groups.end(), {family, {}});
        it->second.push_back(name);
    }
    std::string out;
    for (const auto& [family, names] : groups)
        out += (out.empty() ? "" : "; ") + (family.empty() ? "" : family + ": ") + join(names);
    return out;
}

/// workload.ops defaults by value, e.g. "100 (lock, barrier), 10 (linked_list)".
std::string default_ops_list() {
    const WorkloadRegistry& registry = WorkloadRegistry::instance();
    std::vector<std::pair<unsigned, std::vector<std::string>>> groups;
    for (const std::string& name : registry.names()) {
        const unsigned ops = registry.info(name).default_ops;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == ops; });
        if (it == groups.end()) it = groups.insert(groups.end(), {ops, {}});
        it->second.push_back(name);
    }
    std::string out;
    for (const auto& [ops, names] : groups)
        out += (out.empty() ? "" : "; ") + std::to_string(ops) + " for " + join(names);
    return out;
}

std::string text_in(const json& cfg, const char* section, const char* key, const std::string& fallback) {
    if (!cfg.contains(section) || !cfg[section].is_object()) return fallback;
    const json& v = cfg[section].value(key, json());
    return v.is_string() ? v.get<std::string>() : fallback; // from_json reports a bad value later
}

struct Described {
    po::options_description desc{"Options", 80, 40};
    po::options_description hidden;
};

Described describe() {
    const SimParams d; // the defaults of params.h, which the hmc4 preset states
    const std::string per_unit = std::to_string(d.platform.client_cores / d.platform.units);
    std::string presets = join(available_presets());
    if (presets.empty()) presets = "none found";
    Described o;
    // clang-format off
    o.desc.add_options()
        ("help,h", "print this help and exit")
        ("version", "print the version and the git commit this binary was built from, and exit")
        ("config", po::value<std::string>()->value_name("NAME|FILE")->default_value("hmc4"),
         ("preset name, looked up as NAME.json in $SYNCRON_PRESET_DIR and then the built-in "
          "preset directory, or the path of a JSON configuration file (available presets: " +
          presets + ")").c_str())
        ("scheme", po::value<std::string>()->value_name("NAME"),
         ("synchronization scheme: " + join(implemented_schemes()) +
          ", or all (= --compare) (default: from the configuration; hmc4: " + to_string(d.platform.scheme) + ")").c_str())
        ("compare", po::value<std::string>()->value_name("LIST")->implicit_value("all"),
         "run the workload under several schemes (each in its own process) and print a table of "
         "throughput and speedup over central; LIST is comma-separated scheme names, default all; "
         "--stats writes the table and every run's statistics (default: off)")
        ("workload", po::value<std::string>()->value_name("NAME"),
         ("workload: " + workload_list() + " (default: from the configuration; hmc4: " +
          d.workload.name + ")").c_str())
        ("graph", po::value<std::string>()->value_name("FILE"),
         "graph of the graph applications (bfs, cc, sssp, pr, tf, tc): a SNAP edge list, or Matrix "
         "Market for FILE.mtx (--set workload.graph_format=snap|mtx overrides) (default: an R-MAT "
         "graph, workload.rmat_scale and workload.rmat_edge_factor)")
        ("series", po::value<std::string>()->value_name("FILE"),
         "time series of ts: one value per line, or a CSV column (workload.series_column) (default: a "
         "seeded random walk of workload.series_length values)")
        ("interval", po::value<std::string>()->value_name("N"),
         ("instructions between synchronization points (default: from the configuration; "
          "hmc4: " + std::to_string(d.workload.interval) + ")").c_str())
        ("ops", po::value<std::string>()->value_name("N"),
         ("operations per core: synchronization operations of a microbenchmark, operations on "
          "a data structure, iterations of pr (default: from the configuration; hmc4 leaves it to the workload: " +
          default_ops_list() + ")").c_str())
        ("cores", po::value<std::string>()->value_name("N"),
         ("client cores running the workload, spread evenly over the units (default: from the "
          "configuration; hmc4: " + std::to_string(d.platform.client_cores) + " = " + per_unit +
          " per unit); for the data structures, without --units, one unit per " + per_unit +
          " client cores, as the paper scales them (--cores 30: 2 units)").c_str())
        ("units", po::value<std::string>()->value_name("N"),
         ("NDP units, 1..64 (default: from the configuration; hmc4: " +
          std::to_string(d.platform.units) + "); without --cores the client cores per unit are "
          "kept (--units 8 on hmc4 runs " + std::to_string(8 * (d.platform.client_cores /
          d.platform.units)) + " client cores)").c_str())
        ("timing", po::value<std::string>()->value_name("lt|at"),
         "timing style of the platform: lt (loosely timed, fast) or at (approximately "
         "timed, models queueing) (default: from the configuration; hmc4: lt)")
        ("set", po::value<std::vector<std::string>>()->value_name("KEY=VALUE")->composing(),
         "override one configuration key, e.g. --set se.st_entries=8; repeatable, applied in "
         "order after the preset and before the flags above (keys: docs/configuration.md)")
        ("seed", po::value<std::string>()->value_name("N"),
         ("random seed of the workload (default: from the configuration; hmc4: " +
          std::to_string(d.workload.seed) + ")").c_str())
        ("stats", po::value<std::string>()->value_name("FILE.json"),
         "write the statistics as JSON to FILE.json (default: none)")
        ("out", po::value<std::string>()->value_name("DIR"),
         "write the run's outputs into the folder DIR (created if missing): stats.json, "
         "config.json (the effective configuration), summary.txt (what is printed), and the traces "
         "asked for by --vcd, --trace-db, --trace-json given without a file name as trace.vcd, "
         "trace.db, timeline.json; with --compare stats.json is the comparison's (default: none)")
        ("dump-config", "print the final configuration as JSON and exit (default: off)")
        ("list-presets", "list the presets --config takes by name, one line each, and exit")
        ("check-args", "check many runs at once, for scripts: read one JSON array of a run's arguments per "
                       "line from standard input, print one JSON object per line ({\"config\": ...} as "
                       "--dump-config prints it, or {\"error\": MESSAGE}), and exit; give it alone")
        ("list", "print the presets, schemes and workloads (each with its family and the input files it "
                 "reads) as JSON, for scripts, and exit")
        ("vcd", po::value<std::string>()->value_name("FILE.vcd")->implicit_value(""),
         "write waveforms (VCD) to FILE.vcd (with --out and no FILE: DIR/trace.vcd); view with "
         "gtkwave FILE.vcd FILE.gtkw, the save file --gtkw writes for this run (default: none)")
        ("trace-filter", po::value<std::string>()->value_name("PATTERN"),
         "only trace VCD signals whose name matches the glob PATTERN, comma-separated list "
         "(e.g. 'unit0.*,link*'; default: all)")
        ("trace-var", po::value<std::vector<std::string>>()->value_name("ADDR|first")->composing(),
         "trace a synchronization variable (hex 0x... or decimal address, or first = the first one "
         "the workload creates; repeatable) in the VCD (lock owner, waiting lists, barrier count, "
         "semaphore resources)")
        ("gtkw", po::value<std::string>()->value_name("FILE.gtkw"),
         "with --vcd: write a GTKWave save file for exactly this run's signals, opening zoomed to the "
         "whole run, rows labelled, state/op/lock owner by name (view: gtkwave FILE.vcd FILE.gtkw)")
        ("trace-db", po::value<std::string>()->value_name("FILE.db")->implicit_value(""),
         "write every message and memory transaction to an SQLite database (with --out and no "
         "FILE: DIR/trace.db) (default: none)")
        ("trace-json", po::value<std::string>()->value_name("FILE.json")->implicit_value(""),
         "write a trace-event timeline (Perfetto / chrome://tracing) (with --out and no FILE: "
         "DIR/timeline.json) (default: none)");
    o.hidden.add_options()
        ("positional", po::value<std::vector<std::string>>());
    // clang-format on
    return o;
}

std::string help_text(const po::options_description& desc) {
    std::ostringstream os;
    os << "Usage: syncron-sim [options]\n\n"
          "Simulates a near-data-processing system with SynCron hardware synchronization\n"
          "and reports throughput, latency, traffic, energy and Synchronization Table\n"
          "statistics. The configuration is the preset given by --config, then every\n"
          "--set override in order, then the dedicated flags (--scheme, --workload,\n"
          "--interval, --ops, --cores, --units, --timing, --seed, --graph, --series).\n\n"
       << desc
       << "\nExamples:\n"
          "  syncron-sim --workload barrier --interval 2000 --stats barrier.json\n"
          "  syncron-sim --workload condvar --compare --stats condvar-schemes.json\n"
          "  syncron-sim --compare central,hier,syncron --timing at\n"
          "  syncron-sim --config hmc4 --set se.st_entries=8 --set core.l1_bytes=32768\n"
          "  syncron-sim --config my-platform.json --cores 61 --ops 1000 --seed 7\n"
          "  syncron-sim --units 2 --dump-config > two-units.json\n"
          "  syncron-sim --workload barrier --out barrier-run --vcd --trace-db\n";
    return os.str();
}

} // namespace

CliOptions parse_cli(int argc, const char* const argv[]) {
    const Described o = describe();
    CliOptions out;
    out.help_text = help_text(o.desc);

    po::options_description all;
    all.add(o.desc).add(o.hidden);
    po::positional_options_description positional;
    positional.add("positional", -1);
    // No guessing of abbreviated options: a new option must not break old scripts.
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc > 0 ? argc : 1, argc > 0 ? argv : nullptr)
                      .options(all)
                      .positional(positional)
                      .style(style)
                      .run(),
                  vm);
        po::notify(vm);
    } catch (const po::unknown_option& e) {
        // A misspelt flag: name the option it is closest to.
        std::vector<std::string> names;
        for (const auto& option : o.desc.options()) names.push_back("--" + option->long_name());
        const std::string hint = closest_spelling(e.get_option_name(), names);
        throw CliError(std::string(e.what()) + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    } catch (const po::error& e) {
        throw CliError(e.what());
    }
    if (vm.count("positional"))
        throw CliError("unexpected argument '" + vm["positional"].as<std::vector<std::string>>().front() +
                       "' (options start with --)");

    if (vm.count("help")) {
        out.help = true;
        return out;
    }
    if (vm.count("list-presets")) {
        out.list_presets = true;
        return out;
    }
    if (vm.count("list")) {
        out.list = true;
        return out;
    }
    if (vm.count("version")) {
        out.version = true;
        return out;
    }
    if (vm.count("check-args")) {
        // Its command lines come from standard input; a flag beside it would be silently ignored.
        const auto given = std::count_if(vm.begin(), vm.end(), [](const auto& kv) { return !kv.second.defaulted(); });
        if (given > 1)
            throw CliError("option '--check-args' reads its command lines from standard input; give it alone");
        out.check_args = true;
        return out;
    }
    out.dump_config = vm.count("dump-config") > 0;
    if (vm.count("stats")) {
        out.stats_file = vm["stats"].as<std::string>();
        if (out.stats_file.empty()) throw CliError("option '--stats' needs a file name");
    }
    if (vm.count("out")) {
        out.out_dir = vm["out"].as<std::string>();
        if (out.out_dir.empty()) throw CliError("option '--out' needs a folder name");
    }
    // A trace flag without a file name writes into the --out folder under a fixed name.
    const auto file_option = [&](const char* name, const char* in_out_dir, std::string& into) {
        if (!vm.count(name)) return;
        into = vm[name].as<std::string>();
        if (!into.empty()) return;
        if (out.out_dir.empty())
            throw CliError(std::string("option '--") + name + "' needs a file name (or '--out DIR' to write " +
                           in_out_dir + " there)");
        into = out.out_dir + "/" + in_out_dir;
    };
    file_option("vcd", "trace.vcd", out.traces.vcd);
    file_option("trace-db", "trace.db", out.traces.db);
    file_option("trace-json", "timeline.json", out.traces.json);
    if (vm.count("trace-filter")) out.traces.filter = vm["trace-filter"].as<std::string>();
    if (vm.count("trace-var"))
        for (const auto& text : vm["trace-var"].as<std::vector<std::string>>()) {
            if (text == "first") {
                out.traces.first_var = true;
                continue;
            }
            size_t used = 0;
            uint64_t v = 0;
            try {
                v = std::stoull(text, &used, 0); // 0x... hex, otherwise decimal
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != text.size() || text.empty() || text[0] == '-')
                throw CliError("invalid value '" + text +
                               "' for option '--trace-var': expected an address "
                               "(hex 0x... or decimal) or first");
            out.traces.vars.push_back(v);
        }
    if ((!out.traces.vars.empty() || out.traces.first_var) && out.traces.vcd.empty())
        throw CliError("option '--trace-var' needs '--vcd FILE' (traced variables appear in the waveforms)");
    file_option("gtkw", "trace.gtkw", out.traces.gtkw);
    if (!out.traces.gtkw.empty() && out.traces.vcd.empty())
        throw CliError("option '--gtkw' needs '--vcd FILE' (the save file shows the waveforms' signals)");
    check_output_paths(out);

    // Check every flag before loading the preset, so a typo is reported as such.
    auto flag = [&](const char* name) -> std::optional<std::string> {
        if (!vm.count(name)) return std::nullopt;
        return vm[name].as<std::string>();
    };
    const unsigned umax = std::numeric_limits<unsigned>::max();
    auto scheme = flag("scheme");
    std::optional<std::string> compare = flag("compare");
    if (scheme && *scheme == "all") {
        if (compare && *compare != "all")
            throw CliError("'--scheme all' and '--compare " + *compare + "' disagree: give one of them");
        compare = "all";
        scheme.reset();
    }
    if (scheme) one_of("scheme", *scheme, implemented_schemes());
    if (compare) {
        if (*compare == "all" || compare->empty()) {
            out.compare = implemented_schemes();
        } else {
            std::stringstream list(*compare);
            for (std::string item; std::getline(list, item, ',');) {
                if (item.empty()) continue;
                one_of("compare", item, implemented_schemes());
                if (std::find(out.compare.begin(), out.compare.end(), item) == out.compare.end())
                    out.compare.push_back(item);
            }
            if (out.compare.empty()) throw CliError("option '--compare' needs at least one scheme name");
        }
        if (scheme)
            throw CliError("'--scheme " + *scheme +
                           "' and '--compare' disagree: --compare runs its own list of schemes");
        if (out.traces.any() || !out.traces.vars.empty() || out.traces.first_var)
            throw CliError("'--compare' runs one simulation per scheme: the trace options (--vcd, --trace-db, "
                           "--trace-json) record a single run; run that scheme alone with --scheme");
    }
    const auto workload = flag("workload");
    if (workload) one_of("workload", *workload, known_workloads());
    const auto timing = flag("timing");
    if (timing) one_of("timing", *timing, {"lt", "at"});
    std::optional<uint64_t> interval, ops, cores, units, seed;
    if (auto v = flag("interval")) interval = parse_uint("interval", *v, umax);
    if (auto v = flag("ops")) ops = parse_uint("ops", *v, umax);
    if (auto v = flag("cores")) cores = parse_uint("cores", *v, umax);
    if (auto v = flag("units")) units = parse_uint("units", *v, umax);
    if (auto v = flag("seed")) seed = parse_uint("seed", *v, std::numeric_limits<uint64_t>::max());

    json cfg = load_preset_json(vm["config"].as<std::string>());
    if (vm.count("set")) {
        for (const auto& kv : vm["set"].as<std::vector<std::string>>()) apply_set(cfg, kv);
    }
    // Every value of the file and --set, before a flag can replace one: a bad
    // value must not go unnoticed because a flag happens to override it.
    try {
        check_keys(cfg);
    } catch (const ConfigError& e) {
        throw ConfigError("configuration '" + excerpt(vm["config"].as<std::string>(), kQuotedMax) + "': " + e.what());
    }

    if (cfg.is_null()) cfg = json::object();
    auto put = [&cfg](const char* section, const char* key, json value) {
        if (!cfg.contains(section) || cfg[section].is_null()) cfg[section] = json::object();
        if (!cfg[section].is_object())
            throw ConfigError("'" + std::string(section) + "' must be an object, got " + json_kind(cfg[section]));
        cfg[section][key] = std::move(value);
    };
    // The data structures scale as in the paper: --cores adds one unit per
    // clients-per-unit cores (15 on hmc4) unless --units says otherwise.
    const std::string workload_name =
        workload ? *workload : text_in(cfg, "workload", "name", SimParams{}.workload.name);
    if (cores && !units && WorkloadRegistry::instance().has(workload_name) &&
        WorkloadRegistry::instance().info(workload_name).mapping == CoreMapping::fill_units) {
        const SimParams d;
        const unsigned old_units = std::max(1u, uint_in(cfg, "platform", "units", d.platform.units));
        const unsigned old_cores = uint_in(cfg, "platform", "client_cores", d.platform.client_cores);
        const uint64_t per_unit = std::max(1u, old_cores / old_units);
        units = std::max<uint64_t>(1, (*cores + per_unit - 1) / per_unit);
    }
    if (units && !cores) {
        // Keep the clients per unit, so --units alone scales the system.
        const SimParams d;
        const unsigned old_units = std::max(1u, uint_in(cfg, "platform", "units", d.platform.units));
        const unsigned old_cores = uint_in(cfg, "platform", "client_cores", d.platform.client_cores);
        const unsigned hw = uint_in(cfg, "platform", "cores_per_unit", d.platform.cores_per_unit);
        const uint64_t per_unit = std::max(1u, std::min(old_cores / old_units, hw));
        cores = std::min<uint64_t>(*units * per_unit, std::numeric_limits<unsigned>::max());
    }
    if (scheme) put("platform", "scheme", *scheme);
    if (workload) put("workload", "name", *workload);
    if (timing) put("platform", "timing", *timing);
    if (interval) put("workload", "interval", *interval);
    if (ops) put("workload", "ops", *ops);
    if (units) put("platform", "units", *units);
    if (cores) put("platform", "client_cores", *cores);
    if (seed) put("workload", "seed", *seed);
    if (const auto graph = flag("graph")) put("workload", "graph", *graph);
    if (const auto series = flag("series")) put("workload", "series", *series);

    try {
        out.params = from_json(cfg);
    } catch (const ConfigError& e) {
        // A bad value a flag set is the flag's: name it, not only its key.
        const std::pair<const char*, const char*> flags[] = {{"interval", "workload.interval"},
                                                             {"ops", "workload.ops"},
                                                             {"cores", "platform.client_cores"},
                                                             {"units", "platform.units"},
                                                             {"seed", "workload.seed"}};
        const std::string what = e.what();
        for (const auto& [flag, key] : flags)
            if (vm.count(flag) && what.find("'" + std::string(key) + "'") != std::string::npos)
                throw ConfigError("option '--" + std::string(flag) + "': " + what);
        throw ConfigError("configuration '" + excerpt(vm["config"].as<std::string>(), kQuotedMax) + "': " + what);
    }
    // A --graph or --series the workload would never read is a mistake, not a no-op.
    const WorkloadRegistry& registry = WorkloadRegistry::instance();
    for (const char* input : {"graph", "series"}) {
        if (!vm.count(input) || !registry.has(out.params.workload.name)) continue;
        const auto reads = [&](const std::string& name) {
            const auto& inputs = registry.info(name).inputs;
            return std::find(inputs.begin(), inputs.end(), input) != inputs.end();
        };
        if (reads(out.params.workload.name)) continue;
        std::vector<std::string> readers;
        for (const std::string& name : registry.names())
            if (reads(name)) readers.push_back(name);
        throw CliError(std::string("option '--") + input + "': workload '" + out.params.workload.name + "' reads no " +
                       input + " file (the workloads that do: " + join(readers) + ")");
    }
    // Inputs are known only now (a graph may come from the file or --set);
    // nothing has been opened for writing yet.
    out.inputs.push_back({"--config", preset_file(vm["config"].as<std::string>())});
    const WorkloadParams& w = out.params.workload;
    if (!w.graph.empty()) out.inputs.push_back({vm.count("graph") ? "--graph" : "workload.graph", w.graph});
    if (!w.series.empty()) out.inputs.push_back({vm.count("series") ? "--series" : "workload.series", w.series});
    check_outputs_against_inputs(out);
    return out;
}

} // namespace syncron
