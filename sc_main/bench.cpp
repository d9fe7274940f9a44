// syncron-bench: simulation-speed benchmark (not a test). Runs the four
// microbenchmarks on the 60-core hmc4 platform in LT and AT through
// syncron-sim, and a bare SystemC kernel reference in the same run (two
// threads handing a timed event back and forth), then prints simulated
// synchronization operations per host second, host ns per simulated message
// and the ratio to one bare hand-off. Each simulation runs in its own
// process (a SystemC kernel elaborates once per process).
//
//   syncron-bench [--ops N] [--interval N] [--json FILE] [--reference-handoffs N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <systemc>
#include <unistd.h>

namespace {

/// Bare kernel reference: A notifies B one ns later and waits; B does the same.
struct PingPong : sc_core::sc_module {
    SC_HAS_PROCESS(PingPong);
    PingPong(sc_core::sc_module_name n, uint64_t rounds) : sc_module(n), m_rounds(rounds) {
        SC_THREAD(a);
        SC_THREAD(b);
    }
    void a() {
        for (uint64_t i = 0; i < m_rounds; ++i) {
            m_ab.notify(1, sc_core::SC_NS);
            wait(m_ba);
        }
    }
    void b() {
        for (;;) {
            wait(m_ab);
            m_ba.notify(1, sc_core::SC_NS);
        }
    }
    uint64_t m_rounds;
    sc_core::sc_event m_ab, m_ba;
};

std::string self_dir(const char* argv0) {
    std::string p = argv0;
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
}

int run_command(const std::string& cmd, std::string& out) {
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

} // namespace

int sc_main(int argc, char* argv[]) {
    uint64_t ops = 200, interval = 200, handoffs = 2000000;
    std::string json_out;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "syncron-bench: " << a << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--ops")
            ops = std::stoull(next());
        else if (a == "--interval")
            interval = std::stoull(next());
        else if (a == "--json")
            json_out = next();
        else if (a == "--reference-handoffs")
            handoffs = std::stoull(next());
        else if (a == "--child-reference") {
            // Child mode: time the bare kernel hand-offs, print host seconds.
            const uint64_t rounds = std::stoull(next()) / 2;
            PingPong pp("pingpong", rounds);
            const auto t0 = std::chrono::steady_clock::now();
            sc_core::sc_start();
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::printf("%.9f\n", s);
            return 0;
        } else {
            std::cerr << "usage: syncron-bench [--ops N] [--interval N] [--json FILE] [--reference-handoffs N]\n";
            return a == "--help" ? 0 : 2;
        }
    }
    const std::string dir = self_dir(argv[0]);
    nlohmann::json report;

    std::string out;
    if (run_command(dir + "/syncron-bench --child-reference " + std::to_string(handoffs), out) != 0) {
        std::cerr << "syncron-bench: reference run failed:\n" << out;
        return 1;
    }
    const double ref_ns = std::stod(out) * 1e9 / handoffs;
    report["reference"] = {{"handoffs", handoffs}, {"host_ns_per_handoff", ref_ns}};
    std::printf("bare SystemC thread hand-off (timed event, process switch): %.1f host ns\n\n", ref_ns);
    std::printf("%-10s %-6s %12s %14s %16s %10s %8s\n", "workload", "timing", "operations", "ops/host-s",
                "host ns/message", "x hand-off", "status");

    const std::string stats = "/tmp/syncron_bench_" + std::to_string(::getpid()) + ".json";
    for (const char* w : {"lock", "barrier", "semaphore", "condvar"})
        for (const char* timing : {"lt", "at"}) {
            std::string log;
            const std::string cmd = dir + "/syncron-sim --workload " + w + " --timing " + timing + " --ops " +
                                    std::to_string(ops) + " --interval " + std::to_string(interval) + " --stats " +
                                    stats;
            const int rc = run_command(cmd, log);
            nlohmann::json row = {{"workload", w}, {"timing", timing}};
            std::ifstream f(stats);
            if (rc != 0 || !f) {
                row["status"] = "unavailable";
                std::printf("%-10s %-6s %12s %14s %16s %10s %8s\n", w, timing, "-", "-", "-", "-", "n/a");
                report["runs"].push_back(row);
                continue;
            }
            const auto j = nlohmann::json::parse(f);
            const double run_s = j["host"].value("run_seconds", j["host"].value("seconds", 0.0));
            const double ops_done = j.value("operations", 0.0);
            const double msgs = j.value("sync_messages", 0.0);
            const double ns_per_msg = msgs > 0 ? run_s * 1e9 / msgs : 0;
            row["operations"] = ops_done;
            row["sync_messages"] = msgs;
            row["host_run_seconds"] = run_s;
            row["ops_per_host_second"] = run_s > 0 ? ops_done / run_s : 0;
            row["host_ns_per_message"] = ns_per_msg;
            row["ratio_to_handoff"] = ns_per_msg / ref_ns;
            row["simulated_throughput_ops_per_us"] = j.value("throughput_ops_per_us", 0.0);
            row["status"] = j.value("status", "");
            report["runs"].push_back(row);
            std::printf("%-10s %-6s %12.0f %14.0f %16.1f %10.2f %8s\n", w, timing, ops_done,
                        row["ops_per_host_second"].get<double>(), ns_per_msg, ns_per_msg / ref_ns,
                        row["status"].get<std::string>().c_str());
            std::remove(stats.c_str());
        }
    if (!json_out.empty()) std::ofstream(json_out) << report.dump(2) << "\n";
    return 0;
}

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
