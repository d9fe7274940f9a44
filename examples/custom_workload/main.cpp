// syncron-sim's command line with one more workload: `shared_counter`
// (shared_counter.h) registered beside the built-in ones, so that every
// flag, scheme, preset and output works for it as for them:
//   build/examples/custom_workload/counter-sim --workload shared_counter --scheme hier --ops 10
#include <memory>
#include <utility>

#include "examples/custom_workload/shared_counter.h"
#include "platforms/workload_registry.h"
#include "sc_main/simulator_main.h"
#include "testbenches/workloads/builtin_workloads.h"

int sc_main(int argc, char* argv[]) { return syncron::simulator_sc_main(argc, argv); }

int main(int argc, char* argv[]) {
    auto& registry = syncron::WorkloadRegistry::instance();
    syncron::register_builtin_workloads(registry);
    syncron::WorkloadInfo info;
    info.factory = [](const syncron::WorkloadParams& p) { return std::make_unique<example::SharedCounter>(p); };
    info.default_ops = example::SharedCounter::kDefaultOps;
    info.family = "examples";
    registry.add("shared_counter", std::move(info));
    return syncron::simulator_main(argc, argv);
}
