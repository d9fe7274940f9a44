// Catch2 runner for the front end tests: the fabric links only the model
// libraries it needs (syncron_frontend), as a virtual platform does, not the
// simulator. ctest runs every TEST_CASE in its own process (one elaboration).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include <systemc>

int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
