// Catch2 runner for SystemC tests. ctest runs every TEST_CASE in its own
// process (catch_discover_tests), because a SystemC kernel elaborates once per
// process: a test case that builds modules must not share its process.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include <systemc>

#include "platforms/workload_registry.h"
#include "testbenches/workloads/builtin_workloads.h"

int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    syncron::register_builtin_workloads(syncron::WorkloadRegistry::instance());
    return sc_core::sc_elab_and_sim(argc, argv);
}
