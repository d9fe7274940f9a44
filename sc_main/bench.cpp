// syncron-bench: simulation-speed benchmark (not a test). Runs the four
// microbenchmarks on the 60-core hmc4 platform in LT and AT through
// syncron-sim, and a bare SystemC kernel reference in the same run (two
// threads handing a timed event back and forth), then prints simulated
// synchronization operations per host second, host ns per simulated message
// and the ratio to one bare hand-off (host CPU time: the machines are
// shared). Each simulation runs in its own
// process (a SystemC kernel elaborates once per process).
//
// Memory-heavy part: the data-structure workloads under the ideal
// scheme (synchronization is free there, so the memory path dominates) and
// under syncron, in LT and AT, reported as host ns per simulated memory
// access (core loads + stores) and its ratio to a bare temporally decoupled
// b_transport measured in the same run: one initiator with a quantum keeper
// (the platform's core quantum) and a target that copies 8 bytes from/to a
// host array and adds a fixed latency (the platform's closed-page read).
//
//   syncron-bench [--ops N] [--interval N] [--json FILE] [--reference-handoffs N]
//                 [--memory-workloads a,b,c] [--memory-ops N] [--reference-accesses N]
//                 [--reference-latency-ns X]
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <unistd.h>

#include "platforms/build_info.h"
#include "traces/staged_file.h"

namespace {

/// Bare kernel reference: a ring of threads (two: A and B), each waiting for
/// its event and then notifying the next one 1 ns later. With two threads it
/// is the classic hand-off; with as many as the platform has cores it shows
/// what a process switch costs when it lands on another of many coroutine
/// stacks, as a platform's does.
struct HandoffRing : sc_core::sc_module {
    SC_HAS_PROCESS(HandoffRing);
    HandoffRing(sc_core::sc_module_name n, uint64_t handoffs, unsigned threads)
        : sc_module(n), m_left(handoffs), m_events(threads) {
        for (unsigned i = 0; i < threads; ++i)
            sc_core::sc_spawn([this, i] { pass(i); }, sc_core::sc_gen_unique_name("link"));
        SC_THREAD(start);
    }
    void start() { m_events[0].notify(1, sc_core::SC_NS); }
    void pass(unsigned i) {
        for (;;) {
            wait(m_events[i]);
            if (m_left == 0) return;
            --m_left;
            m_events[(i + 1) % m_events.size()].notify(1, sc_core::SC_NS);
        }
    }
    uint64_t m_left;
    std::vector<sc_core::sc_event> m_events;
};

/// Bare memory reference, target side: 8-byte copies from/to a host array,
/// a fixed latency added to the annotated delay (no waiting, no queueing).
struct RefMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<RefMemory> socket;
    RefMemory(sc_core::sc_module_name n, size_t bytes, const sc_core::sc_time& latency)
        : sc_module(n), socket("socket"), m_mem(bytes, 0), m_latency(latency) {
        socket.register_b_transport(this, &RefMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        const uint64_t a = t.get_address();
        const unsigned len = t.get_data_length();
        if (a + len > m_mem.size() || t.get_byte_enable_ptr() || t.get_streaming_width() != len) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        if (t.is_read())
            std::memcpy(t.get_data_ptr(), &m_mem[a], len);
        else if (t.is_write())
            std::memcpy(&m_mem[a], t.get_data_ptr(), len);
        delay += m_latency;
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    std::vector<uint8_t> m_mem;
    sc_core::sc_time m_latency;
};

/// Bare memory reference, initiator side: alternating 8-byte loads and stores
/// to addresses spread over the array, temporally decoupled by a quantum
/// keeper as an LT core is (one payload reused, as the core does).
struct RefInitiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<RefInitiator> socket;
    SC_HAS_PROCESS(RefInitiator);
    RefInitiator(sc_core::sc_module_name n, uint64_t accesses, uint64_t bytes)
        : sc_module(n), socket("socket"), m_accesses(accesses), m_bytes(bytes) {
        SC_THREAD(run);
    }
    void run() {
        m_qk.reset();
        tlm::tlm_generic_payload t;
        uint8_t buf[8];
        const uint64_t words = m_bytes / 8;
        for (uint64_t i = 0; i < m_accesses; ++i) {
            // A load and then a store to the same word, the words visited in
            // an odd-stride order (every word of the array before repeating).
            const uint64_t addr = (((i >> 1) * 2654435761u) % words) * 8;
            const bool load = (i & 1) == 0;
            if (!load) std::memcpy(buf, &i, 8);
            t.set_command(load ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
            t.set_address(addr);
            t.set_data_ptr(buf);
            t.set_data_length(8);
            t.set_streaming_width(8);
            t.set_byte_enable_ptr(nullptr);
            t.set_dmi_allowed(false);
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            sc_core::sc_time delay = m_qk.get_local_time();
            socket->b_transport(t, delay);
            m_qk.set(delay);
            if (t.is_response_error()) {
                m_failed = true;
                return;
            }
            if (load) m_checksum += buf[0];
            if (m_qk.need_sync()) m_qk.sync();
        }
        m_qk.sync();
    }
    tlm_utils::tlm_quantumkeeper m_qk;
    uint64_t m_accesses, m_bytes, m_checksum = 0;
    bool m_failed = false;
};

/// CPU time of this process: the benchmark divides CPU time, not wall time,
/// because the machines it runs on are shared (wall time grows with the
/// load, CPU time much less); the simulation and the references are
/// single-threaded.
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// host.run_cpu_seconds of a stats file (sc_start only), else its wall time.
double run_seconds_of(const nlohmann::json& j) {
    const auto& h = j["host"];
    return h.value("run_cpu_seconds", h.value("run_seconds", h.value("seconds", 0.0)));
}

std::string self_dir(const char* argv0) {
    std::string p = argv0;
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
}

/// Runs `cmd`, its stdout and stderr in `out` (replaced, not appended to).
int run_command(const std::string& cmd, std::string& out) {
    out.clear();
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/// The nine data-structure workloads of paper Table 6, in its order.
const std::vector<std::string> kDataStructures = {"stack",          "queue",     "array_map",
                                                  "priority_queue", "skip_list", "hash_table",
                                                  "linked_list",    "bst_fg",    "bst_drachsler"};

/// Operations per core of the memory-heavy runs, chosen so that the default
/// benchmark stays under two minutes of host time on two cores while each run
/// lasts long enough (tenths of a second) to time: at the Table 6 sizes a
/// stack, queue, array-map or hash-table operation touches a few words, a
/// tree, skip-list or priority-queue operation some tens of nodes, and a
/// linked-list lookup walks about half of a 5000-node partition.
/// --memory-ops sets one number for all.
uint64_t default_memory_ops(const std::string& w) {
    if (w == "linked_list") return 2;
    if (w == "skip_list" || w == "bst_fg" || w == "bst_drachsler" || w == "priority_queue") return 50;
    return 400;
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

} // namespace

int sc_main(int argc, char* argv[]) {
    uint64_t ops = 200, interval = 200, handoffs = 2000000, ref_accesses = 4000000, memory_ops = 0;
    double ref_latency_ns = -1; // < 0: the platform's closed-page read
    std::vector<std::string> memory_workloads = kDataStructures;
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
        if (a == "--version") {
            std::cout << syncron::version_line("syncron-bench") << "\n";
            return 0;
        }
        if (a == "--ops")
            ops = std::stoull(next());
        else if (a == "--interval")
            interval = std::stoull(next());
        else if (a == "--json")
            json_out = next();
        else if (a == "--reference-handoffs")
            handoffs = std::stoull(next());
        else if (a == "--reference-accesses")
            ref_accesses = std::stoull(next());
        else if (a == "--reference-latency-ns")
            ref_latency_ns = std::stod(next());
        else if (a == "--memory-ops")
            memory_ops = std::stoull(next());
        else if (a == "--memory-workloads")
            memory_workloads = split_list(next());
        else if (a == "--child-reference") {
            // Child mode: time the bare kernel hand-offs, print host CPU and wall seconds.
            const uint64_t handoffs_n = std::stoull(next());
            const unsigned threads = static_cast<unsigned>(std::stoul(next()));
            HandoffRing ring("ring", handoffs_n, threads);
            const auto t0 = std::chrono::steady_clock::now();
            const double c0 = cpu_seconds();
            sc_core::sc_start();
            const double c = cpu_seconds() - c0;
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::printf("%.9f %.9f\n", c, s); // CPU, wall
            return 0;
        } else if (a == "--child-memory-reference") {
            // Child mode: time the bare b_transport accesses (ACCESSES
            // QUANTUM_NS LATENCY_NS), print host CPU seconds and simulated ns.
            const uint64_t n = std::stoull(next());
            const double quantum_ns = std::stod(next());
            const double latency_ns = std::stod(next());
            tlm::tlm_global_quantum::instance().set(sc_core::sc_time(quantum_ns, sc_core::SC_NS));
            const unsigned initiators = static_cast<unsigned>(std::stoul(next()));
            // 1 MiB in all, each initiator its own target and slice of it.
            const uint64_t bytes = std::max<uint64_t>(64, (uint64_t(1) << 20) / initiators / 8 * 8);
            std::vector<std::unique_ptr<RefInitiator>> inits;
            std::vector<std::unique_ptr<RefMemory>> mems;
            for (unsigned i = 0; i < initiators; ++i) {
                const uint64_t share = n / initiators + (i < n % initiators ? 1 : 0);
                inits.push_back(std::make_unique<RefInitiator>(sc_core::sc_gen_unique_name("initiator"), share, bytes));
                mems.push_back(std::make_unique<RefMemory>(sc_core::sc_gen_unique_name("memory"), bytes,
                                                           sc_core::sc_time(latency_ns, sc_core::SC_NS)));
                inits.back()->socket.bind(mems.back()->socket);
            }
            const double c0 = cpu_seconds();
            sc_core::sc_start();
            const double s = cpu_seconds() - c0;
            uint64_t checksum = 0;
            for (const auto& init : inits) {
                if (init->m_failed) {
                    std::fprintf(stderr, "reference access failed\n");
                    return 1;
                }
                checksum += init->m_checksum;
            }
            std::printf("%.9f %.3f %llu\n", s, sc_core::sc_time_stamp().to_seconds() * 1e9,
                        static_cast<unsigned long long>(checksum));
            return 0;
        } else {
            std::cerr
                << "usage: syncron-bench [--version] [--ops N] [--interval N] [--json FILE] [--reference-handoffs N]\n"
                   "                     [--memory-workloads a,b,c] [--memory-ops N] [--reference-accesses N]\n"
                   "                     [--reference-latency-ns X]\n";
            return a == "--help" ? 0 : 2;
        }
    }
    const std::string dir = self_dir(argv[0]);
    nlohmann::json report;
    report["build"] = {{"version", syncron::build_version()}, {"commit", syncron::build_commit()}};

    // The platform's core quantum, closed-page read time and core count, from the preset.
    double quantum_ns = 100.0, preset_latency_ns = 40.4;
    unsigned cores = 60;
    bool have_config = false;
    std::string cfg;
    if (run_command(dir + "/syncron-sim --dump-config", cfg) == 0) {
        try {
            const auto c = nlohmann::json::parse(cfg);
            const auto& m = c.at("memory");
            quantum_ns = c.at("core").at("quantum_ns").get<double>();
            cores = c.at("platform").at("client_cores").get<unsigned>();
            preset_latency_ns =
                m.at("t_rcd_ns").get<double>() + m.at("t_cl_ns").get<double>() + m.at("t_burst_ns").get<double>();
            have_config = true;
        } catch (const std::exception&) {
        }
    }
    if (!have_config)
        std::cerr << "syncron-bench: cannot read syncron-sim --dump-config; reference quantum 100 ns, latency 40.4 ns, "
                     "60 cores\n";
    if (ref_latency_ns < 0) ref_latency_ns = preset_latency_ns;
    std::string out;
    // The hand-off between two threads (the target's reference) and around a
    // ring of as many threads as the platform has cores (the kernel's floor
    // for a process switch among that many coroutine stacks).
    double ref_ns = 0, ref_cores_ns = 0;
    for (const unsigned threads : {2u, cores}) {
        if (run_command(dir + "/syncron-bench --child-reference " + std::to_string(handoffs) + " " +
                            std::to_string(threads),
                        out) != 0) {
            std::cerr << "syncron-bench: reference run failed:\n" << out;
            return 1;
        }
        double cpu_s = 0, wall_s = 0;
        std::istringstream(out) >> cpu_s >> wall_s;
        const nlohmann::json ref = {{"handoffs", handoffs},
                                    {"threads", threads},
                                    {"host_ns_per_handoff", cpu_s * 1e9 / handoffs},
                                    {"host_wall_ns_per_handoff", wall_s * 1e9 / handoffs}};
        (threads == 2 ? ref_ns : ref_cores_ns) = cpu_s * 1e9 / handoffs;
        report[threads == 2 ? "reference" : "reference_at_cores"] = ref;
    }
    std::printf("host CPU time throughout (wall time in --json)\n");
    std::printf("bare SystemC thread hand-off (timed event, process switch): %.1f host ns; "
                "around a ring of %u threads: %.1f host ns\n\n",
                ref_ns, cores, ref_cores_ns);
    std::printf("%-10s %-6s %12s %14s %16s %10s %8s %8s\n", "workload", "timing", "operations", "ops/host-s",
                "host ns/message", "x hand-off", "x ring", "status");

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
                std::printf("%-10s %-6s %12s %14s %16s %10s %8s %8s\n", w, timing, "-", "-", "-", "-", "-", "n/a");
                report["runs"].push_back(row);
                continue;
            }
            const auto j = nlohmann::json::parse(f);
            const double run_s = run_seconds_of(j);
            const double ops_done = j.value("operations", 0.0);
            const double msgs = j.value("sync_messages", 0.0);
            const double ns_per_msg = msgs > 0 ? run_s * 1e9 / msgs : 0;
            row["operations"] = ops_done;
            row["sync_messages"] = msgs;
            row["host_run_seconds"] = run_s;
            row["host_wall_run_seconds"] = j["host"].value("run_seconds", 0.0);
            row["ops_per_host_second"] = run_s > 0 ? ops_done / run_s : 0;
            row["host_ns_per_message"] = ns_per_msg;
            row["ratio_to_handoff"] = ns_per_msg / ref_ns;
            row["ratio_to_handoff_at_cores"] = ns_per_msg / ref_cores_ns;
            row["simulated_throughput_ops_per_us"] = j.value("throughput_ops_per_us", 0.0);
            row["status"] = j.value("status", "");
            report["runs"].push_back(row);
            std::printf("%-10s %-6s %12.0f %14.0f %16.1f %10.2f %8.2f %8s\n", w, timing, ops_done,
                        row["ops_per_host_second"].get<double>(), ns_per_msg, ns_per_msg / ref_ns,
                        ns_per_msg / ref_cores_ns, row["status"].get<std::string>().c_str());
            std::remove(stats.c_str());
        }
    // ------------------------------------------------ memory-heavy work
    // The bare b_transport with one initiator (the target's reference) and
    // with as many initiators as the platform has cores, the accesses split
    // evenly (the kernel's floor for that many decoupled initiators).
    double ref_access_ns = 0, ref_access_cores_ns = 0;
    for (const unsigned initiators : {1u, cores}) {
        out.clear();
        char args[160];
        std::snprintf(args, sizeof args, " %.6g %.6g %u", quantum_ns, ref_latency_ns, initiators);
        if (run_command(dir + "/syncron-bench --child-memory-reference " + std::to_string(ref_accesses) + args, out) !=
            0) {
            std::cerr << "syncron-bench: memory reference run failed:\n" << out;
            return 1;
        }
        const double ns = std::stod(out) * 1e9 / ref_accesses;
        (initiators == 1 ? ref_access_ns : ref_access_cores_ns) = ns;
        report[initiators == 1 ? "memory_reference" : "memory_reference_at_cores"] = {{"accesses", ref_accesses},
                                                                                      {"initiators", initiators},
                                                                                      {"quantum_ns", quantum_ns},
                                                                                      {"latency_ns", ref_latency_ns},
                                                                                      {"host_ns_per_access", ns}};
    }
    std::printf("\nbare temporally decoupled b_transport (8 B, quantum %.0f ns, latency %.1f ns): %.1f host ns; "
                "%u initiators: %.1f host ns\n\n",
                quantum_ns, ref_latency_ns, ref_access_ns, cores, ref_access_cores_ns);
    std::printf("%-14s %-8s %-6s %6s %10s %11s %8s %10s %14s %6s %6s %s\n", "workload", "scheme", "timing", "ops/c",
                "operations", "accesses", "acc/op", "sync/op", "host ns/access", "x b_tr", "x b_trN", "status");
    report["memory_runs"] = nlohmann::json::array();
    double lt_ideal_seconds = 0, lt_ideal_accesses = 0; // for memory_access
    for (const std::string& w : memory_workloads) {
        const uint64_t wops = memory_ops ? memory_ops : default_memory_ops(w);
        bool unknown = false;
        for (const char* scheme : {"ideal", "syncron"}) {
            for (const char* timing : {"lt", "at"}) {
                std::string log;
                const std::string cmd = dir + "/syncron-sim --workload " + w + " --scheme " + scheme + " --timing " +
                                        timing + " --ops " + std::to_string(wops) + " --stats " + stats;
                const int rc = run_command(cmd, log);
                if (rc != 0 && log.find("invalid value '" + w + "' for option '--workload'") != std::string::npos) {
                    unknown = true;
                    break;
                }
                nlohmann::json row = {{"workload", w}, {"scheme", scheme}, {"timing", timing}, {"ops_per_core", wops}};
                std::ifstream f(stats);
                if (rc != 0 || !f) {
                    row["status"] = "unavailable";
                    // Keep syncron-sim's own error line (else the last line) for the report.
                    size_t from = log.rfind("syncron-sim: ");
                    if (from == std::string::npos) {
                        const auto last = log.find_last_not_of('\n');
                        const auto nl = last == std::string::npos ? std::string::npos : log.rfind('\n', last);
                        from = nl == std::string::npos ? 0 : nl + 1;
                    }
                    row["error"] = log.substr(from, log.find('\n', from) - from);
                    std::remove(stats.c_str());
                    std::printf("%-14s %-8s %-6s %6llu %10s %11s %8s %10s %14s %6s %6s %s\n", w.c_str(), scheme, timing,
                                static_cast<unsigned long long>(wops), "-", "-", "-", "-", "-", "-", "-", "n/a");
                    report["memory_runs"].push_back(row);
                    continue;
                }
                const auto j = nlohmann::json::parse(f);
                const double run_s = run_seconds_of(j);
                const double ops_done = j.value("operations", 0.0);
                const auto& cs = j["cores_summary"];
                const double accesses = cs.value("loads", 0.0) + cs.value("stores", 0.0);
                const double syncs = j.value("sync_requests", 0.0);
                const double ns_per_access = accesses > 0 ? run_s * 1e9 / accesses : 0;
                row["operations"] = ops_done;
                row["memory_accesses"] = accesses;
                row["sync_requests"] = syncs;
                row["host_run_seconds"] = run_s;
                row["host_wall_run_seconds"] = j["host"].value("run_seconds", 0.0);
                if (std::string(scheme) == "ideal" && std::string(timing) == "lt") {
                    lt_ideal_seconds += run_s;
                    lt_ideal_accesses += accesses;
                }
                row["host_ns_per_access"] = ns_per_access;
                row["ratio_to_b_transport"] = ns_per_access / ref_access_ns;
                row["ratio_to_b_transport_at_cores"] = ns_per_access / ref_access_cores_ns;
                row["status"] = j.value("status", "");
                report["memory_runs"].push_back(row);
                std::printf("%-14s %-8s %-6s %6llu %10.0f %11.0f %8.1f %10.2f %14.1f %6.1f %6.1f %s\n", w.c_str(),
                            scheme, timing, static_cast<unsigned long long>(wops), ops_done, accesses,
                            ops_done > 0 ? accesses / ops_done : 0, ops_done > 0 ? syncs / ops_done : 0, ns_per_access,
                            ns_per_access / ref_access_ns, ns_per_access / ref_access_cores_ns,
                            row["status"].get<std::string>().c_str());
                std::remove(stats.c_str());
            }
            if (unknown) break;
        }
        if (unknown) {
            std::printf("%-14s (skipped: syncron-sim does not know this workload)\n", w.c_str());
            report["memory_skipped"].push_back(w);
        }
    }
    // The one figure for memory accesses: all data-structure runs
    // in LT under ideal (synchronization takes no simulated time there),
    // host time over accesses, against the bare b_transport.
    if (lt_ideal_accesses > 0) {
        const double ns = lt_ideal_seconds * 1e9 / lt_ideal_accesses;
        report["memory_access"] = {{"runs", "data structures, scheme ideal, LT"},
                                   {"accesses", lt_ideal_accesses},
                                   {"host_ns_per_access", ns},
                                   {"ratio_to_b_transport", ns / ref_access_ns},
                                   {"ratio_to_b_transport_at_cores", ns / ref_access_cores_ns}};
        std::printf("\nmemory access (data structures, ideal, LT, all runs): %.1f host ns = %.2f x bare b_transport "
                    "(%.2f x with %u initiators)\n",
                    ns, ns / ref_access_ns, ns / ref_access_cores_ns, cores);
    }
    if (!json_out.empty()) {
        // Complete under a temporary name, then renamed: an earlier report survives a failed write.
        syncron::StagedFile staged(json_out);
        std::ofstream out(staged.temporary());
        out << report.dump(2) << "\n";
        out.close();
        const int error = out ? staged.commit() : (errno ? errno : EIO);
        if (error) {
            std::cerr << "syncron-bench: cannot write '" << json_out << "': " << std::strerror(error) << "\n";
            return 1;
        }
    }
    return 0;
}

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
