// syncron-sim's program: parse the command line, check the inputs, run the
// simulation, write and report the outputs (docs/configuration.md).
#include "sc_main/simulator_main.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "models/common/input_file.h"
#include "models/common/scheme.h"
#include "models/common/stop_request.h"
#include "platforms/build_info.h"
#include "platforms/comparison.h"
#include "platforms/config/config.h"
#include "platforms/simulation.h"
#include "platforms/trace_session.h"
#include "platforms/workload_registry.h"
#include "sc_main/check_args.h"
#include "sc_main/cli.h"
#include "traces/staged_file.h"
#include "traces/vcd_recorder.h"

namespace {

/// Creates the --out folder (and its parents); an error names what is in the way.
void make_out_dir(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw std::runtime_error("--out '" + dir + "' exists and is not a folder");
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot create output folder '" + dir + "': " + ec.message());
}

/// An output file written with checked writes: an error names the file and
/// the OS's reason (a full device, a file-size limit), never a silent
/// truncation. Written under a temporary name and renamed when complete, so
/// the previous file survives a failed or killed run (StagedFile).
class OutputFile {
public:
    /// Checks now that `path` can be written, so a bad path fails before
    /// simulating; the file itself is not touched until write_and_close().
    OutputFile(const std::string& path, std::string what) : m_file(path), m_what(std::move(what)) {
        m_file.check(m_what);
    }

    const std::string& path() const { return m_file.path(); }

    /// Writes `text`, flushes, closes and renames; throws std::runtime_error when any step fails.
    void write_and_close(const std::string& text) {
        std::FILE* f = std::fopen(m_file.temporary().c_str(), "w");
        if (!f) fail(errno);
        const bool written =
            std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0 && !std::ferror(f);
        const int error = errno;
        const int closed = std::fclose(f);
        if (!written) fail(error);
        if (closed != 0) fail(errno);
        if (const int e = m_file.commit()) fail(e);
    }

private:
    [[noreturn]] void fail(int error) {
        m_file.discard();
        throw std::runtime_error("cannot write " + m_what + " to '" +
                                 syncron::excerpt(m_file.path(), syncron::kQuotedMax) + "': " + std::strerror(error));
    }
    syncron::StagedFile m_file;
    std::string m_what;
};

/// Where a run's printed summary and statistics go besides stdout.
class OutputFiles {
public:
    void open_stats(const std::string& path) { m_stats.push_back(std::make_unique<OutputFile>(path, "statistics")); }
    void open_summary(const std::string& path) { m_summaries.push_back(std::make_unique<OutputFile>(path, "summary")); }
    /// A file written before the run (--out's config.json), reported with the others.
    void add_written(const std::string& path) { m_written.push_back(path); }
    /// The files written: add_written()'s, then write()'s statistics and summaries.
    const std::vector<std::string>& written() const { return m_written; }
    /// Prints the summary and writes it and the statistics to every file
    /// opened. Every file is written even if one fails; returns the failures,
    /// one line each (empty: all written).
    std::string write(const std::string& summary_text, const nlohmann::json& stats) {
        std::cout << summary_text << std::flush;
        std::string failures;
        const auto write_all = [&](std::vector<std::unique_ptr<OutputFile>>& files, const std::string& text) {
            for (auto& f : files) try {
                    f->write_and_close(text);
                    m_written.push_back(f->path());
                } catch (const std::exception& e) {
                    failures += std::string(e.what()) + "\n";
                }
            files.clear();
        };
        write_all(m_stats, stats.dump(2) + "\n");
        write_all(m_summaries, summary_text);
        return failures;
    }

private:
    std::vector<std::unique_ptr<OutputFile>> m_stats, m_summaries;
    std::vector<std::string> m_written;
};

/// A trace run says on stderr which files it wrote, so that a user finds
/// them, --gtkw's filter files included (the traces only when every one is
/// complete: a failed one is reported instead).
void report_written(const std::vector<std::string>& outputs, const syncron::TraceOptions& traces, bool traces_ok) {
    if (!traces.any()) return;
    std::vector<std::string> files = outputs;
    if (traces_ok) {
        if (!traces.vcd.empty()) files.push_back(syncron::VcdRecorder::file_base(traces.vcd) + ".vcd");
        if (!traces.gtkw.empty() && !traces.vcd.empty())
            for (const std::string& f : syncron::TraceSession::gtkw_files(traces.gtkw)) files.push_back(f);
        if (!traces.db.empty()) files.push_back(traces.db);
        if (!traces.json.empty()) files.push_back(traces.json);
    }
    if (files.empty()) return;
    std::string line;
    for (const std::string& f : files) line += (line.empty() ? "" : ", ") + syncron::excerpt(f, syncron::kQuotedMax);
    std::cerr << "syncron-sim: wrote " << line << "\n";
}

/// Prints every line of `text` on stderr as the simulator's.
void report(const std::string& text) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) std::cerr << "syncron-sim: " << line << "\n";
}

/// The run's exit status once its outputs are written: 1 when a file could
/// not be written or a stop signal came (even after the run finished), else `status`.
/// What --list prints: the names a script may ask for, from the simulator
/// itself (the sweeps' `{from: KIND}` reads it instead of copying lists).
nlohmann::json name_listing() {
    const syncron::WorkloadRegistry& registry = syncron::WorkloadRegistry::instance();
    nlohmann::json workloads = nlohmann::json::array();
    for (const std::string& name : registry.names()) {
        const syncron::WorkloadInfo& info = registry.info(name);
        workloads.push_back({{"name", name}, {"family", info.family}, {"inputs", info.inputs}});
    }
    // Platforms and sets of assumptions apart: a sweep over the platforms
    // ({from: presets}) must not pick up `paper`, which is hbm4 plus assumptions.
    nlohmann::json platforms = nlohmann::json::array(), assumptions = nlohmann::json::array();
    for (const std::string& name : syncron::available_presets()) {
        std::string kind;
        try {
            kind = syncron::load_preset_json(name).value("kind", std::string());
        } catch (const std::exception&) { // listed as a platform; running it reports the problem
        }
        (kind == "assumptions" ? assumptions : platforms).push_back(name);
    }
    return {{"presets", platforms},
            {"assumption_sets", assumptions},
            {"schemes", syncron::scheme_names()},
            {"workloads", workloads}};
}

int finish(int status, const std::string& failures) {
    if (!failures.empty()) {
        report(failures);
        status = 1;
    }
    if (const int sig = syncron::StopSignals::received()) {
        if (status == 0)
            std::cerr << "syncron-sim: " << syncron::StopSignals::name(sig)
                      << " received after the run finished (every output is complete)\n";
        status = 1;
    }
    return status;
}

} // namespace

namespace syncron {

int simulator_sc_main(int argc, char* argv[]) {
    // From the start: a signal at any moment leaves complete outputs (the
    // run is skipped or stopped, then everything is written and closed).
    const StopSignals signals;
    CliOptions opt;
    try {
        opt = parse_cli(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "syncron-sim: " << e.what() << "\n(see syncron-sim --help)\n";
        return 2;
    }
    if (opt.help) {
        std::cout << opt.help_text;
        return 0;
    }
    if (opt.list_presets) {
        std::cout << preset_listing();
        return 0;
    }
    if (opt.list) {
        std::cout << name_listing().dump(2) << "\n";
        return 0;
    }
    if (opt.version) {
        std::cout << version_line("syncron-sim") << "\n";
        return 0;
    }
    if (opt.check_args) return check_args(std::cin, std::cout);
    if (opt.dump_config) {
        std::cout << to_json(opt.params).dump(2) << "\n";
        return 0;
    }
    // The workload's input files (a graph, a series) are read and checked
    // before anything is built or written: a bad line is a start-up error.
    try {
        const WorkloadRegistry& registry = WorkloadRegistry::instance();
        if (registry.has(opt.params.workload.name)) {
            const WorkloadInfo& info = registry.info(opt.params.workload.name);
            if (info.check_inputs) info.check_inputs(opt.params);
        }
    } catch (const InputsInterrupted& e) {
        // Nothing was built, opened or written: the exit status of a stop signal.
        std::cerr << "syncron-sim: interrupted (" << StopSignals::name(StopSignals::received()) << ") while "
                  << e.what() << "; nothing was run or written\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "syncron-sim: " << e.what() << "\n";
        return 2;
    }
    // The output folder is made and the stats files are checked before
    // simulating, so a bad path fails fast.
    OutputFiles files;
    try {
        if (!opt.out_dir.empty()) {
            make_out_dir(opt.out_dir);
            OutputFile(opt.out_dir + "/config.json", "configuration")
                .write_and_close(to_json(opt.params).dump(2) + "\n");
            files.add_written(opt.out_dir + "/config.json");
            files.open_stats(opt.out_dir + "/stats.json");
            files.open_summary(opt.out_dir + "/summary.txt");
        }
        if (!opt.stats_file.empty()) files.open_stats(opt.stats_file);
    } catch (const std::exception& e) {
        std::cerr << "syncron-sim: " << e.what() << "\n";
        return 2;
    }
    // Errors are reported through exceptions and collected by simulate().
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);

    if (!opt.compare.empty()) {
        const Comparison c = compare_schemes(opt.params, opt.compare);
        const std::string failures = files.write(comparison_table(c), c.to_json());
        if (!c.ok()) std::cerr << "syncron-sim: at least one scheme failed (see the table)\n";
        return finish(c.ok() ? 0 : 1, failures);
    }
    const SimulationResult r = simulate(opt.params, opt.traces);
    if (r.bad_input) {
        // Refused before anything ran, like the input errors above: no
        // output is written and the previous ones stay as they were.
        report(r.error);
        return 2;
    }
    const std::string failures = files.write(summary(r), r.stats);
    if (!r.ok) report(r.error);
    const bool traces_ok = !r.stats.contains("trace_error");
    if (!traces_ok) report(r.stats["trace_error"].get<std::string>());
    report_written(files.written(), opt.traces, traces_ok);
    return finish(r.ok ? 0 : 1, failures);
}

int simulator_main(int argc, char* argv[]) {
    // The kernel prints its banner before sc_main runs; keep the output to
    // the simulator's own report.
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}

} // namespace syncron
