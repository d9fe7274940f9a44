#pragma once
// Runs the syncron-sim binary the way a user does and captures its output.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace syncron::test {

struct SimRun {
    int status = -1; ///< exit status
    std::string out; ///< stdout and stderr
};

inline SimRun run_sim(const std::string& args) {
    const std::string cmd = std::string(SYNCRON_SIM_BINARY) + " " + args + " 2>&1";
    SimRun r;
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::array<char, 4096> buf;
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

/// The test run's temporary folder ($TMPDIR, made per run by test_main.cpp).
inline std::string temp_dir() {
    const char* dir = std::getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

/// A temporary file name unique to this test process, in temp_dir().
inline std::string temp_path(const std::string& prefix, const std::string& name) {
    return temp_dir() + "/" + prefix + std::to_string(::getpid()) + "_" + name;
}

} // namespace syncron::test
