// Catch2's own main, for test executables without SystemC (test_se_core,
// test_coherence_core); compiled once for both (syncron_catch_main).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
