// syncron-sim: elaborate an NDP platform, run a workload, report statistics.
// `syncron-sim --help` lists the options; docs/configuration.md explains them.
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <systemc>

#include "platforms/build_info.h"
#include "platforms/comparison.h"
#include "platforms/config/config.h"
#include "platforms/simulation.h"
#include "platforms/workload_registry.h"
#include "sc_main/cli.h"
#include "testbenches/workloads/builtin_workloads.h"

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
    if (opt.version) {
        std::cout << version_line("syncron-sim") << "\n";
        return 0;
    }
    if (opt.dump_config) {
        std::cout << to_json(opt.params).dump(2) << "\n";
        return 0;
    }
    // Open the stats file before simulating, so a bad path fails fast.
    std::ofstream stats;
    if (!opt.stats_file.empty()) {
        stats.open(opt.stats_file);
        if (!stats) {
            std::cerr << "syncron-sim: cannot write statistics file '" << opt.stats_file << "'\n";
            return 2;
        }
    }
    // Errors are reported through exceptions and collected by simulate().
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);

    if (!opt.compare.empty()) {
        const Comparison c = compare_schemes(opt.params, opt.compare);
        std::cout << comparison_table(c);
        if (stats) {
            stats << c.to_json().dump(2) << "\n";
            stats.close();
        }
        if (!c.ok()) {
            std::cerr << "syncron-sim: at least one scheme failed (see the table)\n";
            return 1;
        }
        return 0;
    }
    const SimulationResult r = simulate(opt.params, opt.traces);
    std::cout << summary(r);
    if (stats) {
        stats << r.stats.dump(2) << "\n";
        stats.close();
    }
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
