// Catch2 runner for SystemC tests. A SystemC kernel elaborates once per
// process, so a test case that builds modules must not share its process:
// ctest runs every TEST_CASE in its own process (catch_discover_tests), and a
// selection of several cases given by hand (`test_se "[se_module]"`) runs
// each selected case in its own forked child, one after the other; the exit
// status is the number of failed cases, as Catch's own. Set
// SYNCRON_TEST_IN_PROCESS=1 to run the selection in one process (a debugger;
// then at most one selected case may elaborate modules).
//
// Each run gets its own temporary folder, $TMPDIR for the tests and the
// simulators they start, removed when the run ends: a test's files never
// outlive it or meet another test's, even when a test fails half-way.
//
// With Catch's implementation (CATCH_CONFIG_RUNNER, the suite's slowest
// translation unit) this file is compiled once for every test executable
// (syncron_test_main), not once per executable.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <systemc>
#include <unistd.h>

#include "platforms/workload_registry.h"
#include "testbenches/workloads/builtin_workloads.h"

namespace {

Catch::Session& session() {
    static Catch::Session s;
    return s;
}

/// A test spec matching exactly the case `name` (Catch's escapes, as catch_discover_tests writes them).
std::string exact_spec(const std::string& name) {
    std::string out;
    for (const char c : name) {
        if (c == '\\' || c == ',' || c == '[' || c == ']') out += '\\';
        out += c;
    }
    return out;
}

/// Whether the selection runs case by case in child processes: several
/// cases, run (not listed), not asked to stay in this process.
bool isolate(const std::vector<Catch::TestCase>& cases) {
    const Catch::ConfigData& d = session().configData();
    if (d.listTests || d.listTags || d.listReporters || d.listTestNamesOnly || d.showHelp || d.libIdentify)
        return false;
    const char* in_process = std::getenv("SYNCRON_TEST_IN_PROCESS");
    if (in_process && std::string(in_process) != "0") return false;
    return cases.size() > 1;
}

/// Runs every case of `cases` in its own child process, serially; returns the
/// number that failed (capped at 255, like Catch). In a child it returns that
/// child's one case's status.
int run_isolated(const std::vector<Catch::TestCase>& cases, int argc, char* argv[]) {
    if (!session().configData().outputFilename.empty()) {
        std::cerr << "error: " << cases.size()
                  << " test cases selected with -o/--out: each case runs in its own process (a SystemC "
                     "kernel elaborates once per process) and would overwrite the file; select one case, "
                     "or set SYNCRON_TEST_IN_PROCESS=1 if at most one of them elaborates modules\n";
        return 255;
    }
    std::vector<std::string> failed;
    for (const Catch::TestCase& tc : cases) {
        std::cout.flush();
        std::fflush(nullptr);
        const pid_t pid = ::fork();
        if (pid < 0) {
            std::perror("fork");
            return 255;
        }
        if (pid == 0) {
            Catch::ConfigData d = session().configData();
            d.testsOrTags = {exact_spec(tc.name)};
            session().useConfigData(d);
            return sc_core::sc_elab_and_sim(argc, argv);
        }
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0) {
        }
        if (WIFSIGNALED(status))
            failed.push_back(tc.name + " (killed by signal " + std::to_string(WTERMSIG(status)) + ")");
        else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            failed.push_back(tc.name);
    }
    std::cout << "\n"
              << cases.size() << " test cases, each in its own process: " << cases.size() - failed.size() << " passed, "
              << failed.size() << " failed\n";
    for (const auto& name : failed) std::cout << "  failed: " << name << "\n";
    return static_cast<int>(std::min<size_t>(failed.size(), 255));
}

} // namespace

int sc_main(int, char*[]) { return session().run(); }

/// A fresh folder under $TMPDIR (else /tmp), made the process's $TMPDIR;
/// removed when the run that made it exits (forked children leave it).
class TempDir {
public:
    TempDir() : m_owner(::getpid()) {
        const char* base = std::getenv("TMPDIR");
        std::string templ = std::string(base && *base ? base : "/tmp") + "/syncron-test-XXXXXX";
        if (::mkdtemp(templ.data()) == nullptr) {
            std::perror("mkdtemp");
            return; // the tests then use the old $TMPDIR
        }
        m_path = templ;
        setenv("TMPDIR", m_path.c_str(), 1);
    }
    ~TempDir() {
        std::error_code ec;
        if (!m_path.empty() && ::getpid() == m_owner) std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

private:
    std::string m_path;
    pid_t m_owner;
};

int main(int argc, char* argv[]) {
    const TempDir temp_dir;
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    syncron::register_builtin_workloads(syncron::WorkloadRegistry::instance());
    if (const int rc = session().applyCommandLine(argc, argv)) return rc;
    std::vector<Catch::TestCase> cases;
    if (!session().configData().showHelp && !session().configData().libIdentify) {
        const Catch::Config& config = session().config();
        cases = Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
    }
    if (isolate(cases)) return run_isolated(cases, argc, argv);
    return sc_core::sc_elab_and_sim(argc, argv);
}
