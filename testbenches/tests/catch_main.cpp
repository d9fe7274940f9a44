// Catch2's own main, for test executables without SystemC (test_se_core).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
