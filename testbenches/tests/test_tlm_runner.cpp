// The test runner (test_main.cpp) with a selection of several cases that each
// elaborate modules: hidden cases, run only by the ctest tests
// test_runner_selection and test_runner_failure (CMakeLists.txt), which check
// that each ran in its own process and that a failure is counted.
#include <catch2/catch.hpp>

#include <systemc>

namespace {

/// One thread that waits `ns` and stops.
struct Ticker : sc_core::sc_module {
    SC_HAS_PROCESS(Ticker);
    Ticker(sc_core::sc_module_name n, double ns) : sc_module(n), m_ns(ns) { SC_THREAD(run); }
    void run() { wait(m_ns, sc_core::SC_NS); }
    double m_ns;
};

/// Elaborates a module named "ticker" and simulates it: a second one in the
/// same process would fail (E529 or a duplicate name).
sc_core::sc_time elaborate_and_run(double ns) {
    Ticker t("ticker", ns);
    sc_core::sc_start();
    return sc_core::sc_time_stamp();
}

} // namespace

TEST_CASE("test runner: a selected case elaborates and simulates (first)", "[.][isolation]") {
    CHECK(elaborate_and_run(3) == sc_core::sc_time(3, sc_core::SC_NS));
}

TEST_CASE("test runner: a selected case elaborates and simulates (second)", "[.][isolation]") {
    CHECK(elaborate_and_run(5) == sc_core::sc_time(5, sc_core::SC_NS));
}

TEST_CASE("test runner: a case that fails on purpose is counted as failed", "[.][isolation_fail]") {
    // Expects a time the module never reaches: the runner must report this case failed.
    CHECK(elaborate_and_run(7) == sc_core::sc_time(8, sc_core::SC_NS));
}
