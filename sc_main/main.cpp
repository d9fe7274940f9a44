// syncron-sim: elaborate an NDP platform, run a workload, report statistics.
// `syncron-sim --help` lists the options; docs/configuration.md explains them.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>

#include "platforms/build_info.h"
#include "platforms/comparison.h"
#include "platforms/config/config.h"
#include "platforms/simulation.h"
#include "platforms/workload_registry.h"
#include "sc_main/cli.h"
#include "testbenches/workloads/builtin_workloads.h"

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

void write_file(const std::string& path, const std::string& text) {
    std::ofstream f(path);
    if (!(f << text)) throw std::runtime_error("cannot write '" + path + "'");
}

/// Where a run's printed summary and statistics go besides stdout.
class OutputFiles {
public:
    void open_stats(const std::string& path) { m_stats.push_back(open(path, "statistics file")); }
    void open_summary(const std::string& path) { m_summaries.push_back(open(path, "summary file")); }
    /// Prints the summary and writes it and the statistics to every file opened.
    void write(const std::string& summary_text, const nlohmann::json& stats) {
        std::cout << summary_text;
        for (auto& f : m_summaries) *f << summary_text;
        const std::string text = stats.dump(2) + "\n";
        for (auto& f : m_stats) *f << text;
        m_summaries.clear(); // closes them
        m_stats.clear();
    }

private:
    static std::unique_ptr<std::ofstream> open(const std::string& path, const char* what) {
        auto f = std::make_unique<std::ofstream>(path);
        if (!*f) throw std::runtime_error(std::string("cannot write ") + what + " '" + path + "'");
        return f;
    }
    std::vector<std::unique_ptr<std::ofstream>> m_stats, m_summaries;
};

} // namespace

int sc_main(int argc, char* argv[]) {
    using namespace syncron;
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
    if (opt.version) {
        std::cout << version_line("syncron-sim") << "\n";
        return 0;
    }
    if (opt.dump_config) {
        std::cout << to_json(opt.params).dump(2) << "\n";
        return 0;
    }
    // The output folder and the stats files are opened before simulating, so
    // a bad path fails fast.
    OutputFiles files;
    try {
        if (!opt.out_dir.empty()) {
            make_out_dir(opt.out_dir);
            write_file(opt.out_dir + "/config.json", to_json(opt.params).dump(2) + "\n");
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
        files.write(comparison_table(c), c.to_json());
        if (!c.ok()) {
            std::cerr << "syncron-sim: at least one scheme failed (see the table)\n";
            return 1;
        }
        return 0;
    }
    const SimulationResult r = simulate(opt.params, opt.traces);
    files.write(summary(r), r.stats);
    if (!r.ok) {
        std::cerr << "syncron-sim: " << r.error << "\n";
        return 1;
    }
    return 0;
}

int main(int argc, char* argv[]) {
    // The kernel prints its banner before sc_main runs; keep the output to
    // the simulator's own report.
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    syncron::register_builtin_workloads(syncron::WorkloadRegistry::instance());
    return sc_core::sc_elab_and_sim(argc, argv);
}
