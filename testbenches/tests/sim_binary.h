#pragma once
// Runs the syncron-sim binary the way a user does and captures its output.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
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

/// A temporary file name unique to this test process.
inline std::string temp_path(const std::string& prefix, const std::string& name) {
    return "/tmp/" + prefix + std::to_string(::getpid()) + "_" + name;
}

} // namespace syncron::test
