// syncron-sim: elaborate an NDP platform, run a workload, report statistics.
// `syncron-sim --help` lists the options; docs/configuration.md explains them.
#include "platforms/workload_registry.h"
#include "sc_main/simulator_main.h"
#include "testbenches/workloads/builtin_workloads.h"

int sc_main(int argc, char* argv[]) { return syncron::simulator_sc_main(argc, argv); }

int main(int argc, char* argv[]) {
    syncron::register_builtin_workloads(syncron::WorkloadRegistry::instance());
    return syncron::simulator_main(argc, argv);
}
