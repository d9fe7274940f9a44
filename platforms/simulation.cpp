#include "platforms/simulation.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <signal.h>

#include "platforms/build_info.h"
#include "platforms/config/config.h"
#include "platforms/ndp_platform.h"
#include "platforms/run_summary.h"
#include "platforms/trace_session.h"
#include "platforms/workload_registry.h"
#include "traces/staged_file.h"

namespace syncron {

SimulationResult simulate(const SimParams& params, const std::function<void(NdpPlatform&)>& before_run) {
    std::unique_ptr<Workload> workload;
    try {
        workload = WorkloadRegistry::instance().make(params.workload);
    } catch (const std::exception& e) {
        SimulationResult r;
        r.error = e.what();
        r.stats = {{"status", "error"}, {"error", r.error}};
        return r;
    }
    return simulate(params, std::move(workload), before_run);
}

SimulationResult simulate(const SimParams& params, std::unique_ptr<Workload> workload,
                          const std::function<void(NdpPlatform&)>& before_run) {
    return simulate(params, TraceOptions{}, std::move(workload), before_run);
}

namespace {
/// CPU time of this process (the simulation is single-threaded).
double process_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Ratios a reader compares across runs (docs/stats.md): per operation, and
/// the share of SE messages served through ST overflow.
void add_derived_stats(nlohmann::json& j, uint64_t operations) {
    const auto count = [](const nlohmann::json& group, const char* key) {
        return group.contains(key) ? group.at(key).get<uint64_t>() : uint64_t{0};
    };
    const nlohmann::json& cores = j.at("cores_summary");
    const nlohmann::json& mem = j.at("memory");
    const uint64_t sync_requests = count(j, "sync_requests");
    // An atomic counts as one read and one write in `memory`; here it is one access.
    const uint64_t accesses = count(mem, "reads") + count(mem, "writes") - count(mem, "atomics");
    const double ops = operations ? static_cast<double>(operations) : 1.0;
    j["per_operation"] = {{"sync_requests", operations ? sync_requests / ops : 0.0},
                          {"memory_accesses", operations ? accesses / ops : 0.0},
                          {"core_loads", operations ? count(cores, "loads") / ops : 0.0},
                          {"core_stores", operations ? count(cores, "stores") / ops : 0.0},
                          {"bytes_within_units", operations ? count(j, "bytes_within_units") / ops : 0.0},
                          {"bytes_across_links", operations ? count(j, "bytes_across_links") / ops : 0.0}};
    uint64_t processed = 0, overflowed = 0;
    for (const auto& se : j.at("se")) {
        processed += count(se, "messages_processed");
        overflowed += count(se, "messages_overflowed");
    }
    j["se_messages_overflowed"] = overflowed;
    j["overflow_fraction"] = processed ? static_cast<double>(overflowed) / processed : 0.0;
}

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
volatile std::sig_atomic_t g_received = 0; ///< the first stop signal

/// The first stop signal asks the platform to stop at its next check; a
/// second one removes the outputs' temporaries (StagedFile: the final files
/// keep their previous contents) and kills with the default action. Only
/// async-signal-safe calls.
extern "C" void on_stop_signal(int sig) {
    if (g_received != 0) {
        StagedFile::remove_all_temporaries();
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        for (const int s : kStopSignals) sigaction(s, &dfl, nullptr);
        raise(sig); // delivered when the handler returns (the stop signals are blocked in it)
        return;
    }
    g_received = sig;
    NdpPlatform::request_stop();
}
} // namespace

struct StopSignals::Saved {
    struct sigaction old[std::size(kStopSignals)];
};

StopSignals::StopSignals() : m_saved(std::make_unique<Saved>()) {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (const int s : kStopSignals) sigaddset(&sa.sa_mask, s); // one handler at a time
    sa.sa_flags = SA_RESTART; // reads and waits of the program go on after the handler
    for (size_t i = 0; i < std::size(kStopSignals); ++i) {
        // A signal already received: keep the default action, so the next one kills.
        if (g_received) {
            sigaction(kStopSignals[i], nullptr, &m_saved->old[i]);
            continue;
        }
        sigaction(kStopSignals[i], &sa, &m_saved->old[i]);
    }
}

StopSignals::~StopSignals() {
    for (size_t i = 0; i < std::size(kStopSignals); ++i) {
        const bool ours = m_saved->old[i].sa_handler == on_stop_signal;
        // After a signal our handler stays off: a second signal must kill.
        if (ours && g_received) continue;
        sigaction(kStopSignals[i], &m_saved->old[i], nullptr);
    }
}

int StopSignals::received() { return g_received; }

std::string StopSignals::name(int signal) {
    switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case 0: return "stop requested"; // NdpPlatform::request_stop() called directly
    default: return "signal " + std::to_string(signal);
    }
}

SimulationResult simulate(const SimParams& params, const TraceOptions& traces, std::unique_ptr<Workload> workload,
                          const std::function<void(NdpPlatform&)>& before_run) {
    SimulationResult r;
    const auto t0 = std::chrono::steady_clock::now();
    // What ran: unset workload parameters take the registered workload's defaults.
    const WorkloadRegistry& registry = WorkloadRegistry::instance();
    const WorkloadParams ran = registry.has(params.workload.name) ? registry.resolve(params.workload) : params.workload;
    std::unique_ptr<NdpPlatform> platform;
    TraceSession session;
    // Before elaboration: a signal while a large platform is built still
    // leaves statistics and closed traces (the run is then skipped).
    const StopSignals signals;
    try {
        if (!workload) workload = WorkloadRegistry::instance().make(params.workload);
        platform = std::make_unique<NdpPlatform>("ndp", params);
        // Trace files are opened before anything runs: a bad path costs no simulation.
        try {
            session.open(traces, params, *platform);
        } catch (const std::exception& e) {
            throw ConfigError(e.what()); // an output the run cannot write: refused like any bad input
        }
        platform->load(*workload);
        session.attach(traces, *platform, [w = workload.get()] { return w->operations(); });
        if (before_run) before_run(*platform);
        // A signal during elaboration: nothing is simulated.
        const bool started = !NdpPlatform::stop_requested();
        bool finished = false;
        if (started) {
            const auto run0 = std::chrono::steady_clock::now();
            const double cpu0 = process_cpu_seconds();
            finished = platform->run();
            r.host_run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count();
            r.host_run_cpu_seconds = process_cpu_seconds() - cpu0;
        }
        if (NdpPlatform::stop_requested()) {
            r.interrupted = true;
            r.error = "interrupted (" + StopSignals::name(StopSignals::received()) + ") " +
                      (started ? "at " + sc_core::sc_time_stamp().to_string() : "before the simulation started");
        } else if (!finished) {
            r.error = std::to_string(platform->unfinished_cores()) +
                      " cores never finished: every event is consumed while they wait for a "
                      "synchronization reply (deadlock or lost wake-up)";
        } else {
            r.check = workload->check(*platform);
            if (!r.check.ok) r.error = "workload invariant violated: " + r.check.failures.front();
        }
    } catch (const sc_core::sc_report& e) {
        r.error = e.what();
    } catch (const ConfigError& e) {
        r.error = e.what();
        r.bad_input = true;
    } catch (const InputsInterrupted& e) {
        // A signal while the workload built its inputs: nothing was simulated.
        r.interrupted = true;
        r.error = "interrupted (" + StopSignals::name(StopSignals::received()) +
                  ") before the simulation started, while " + e.what();
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    // Refused input leaves the previous trace files as they were; otherwise a
    // trace file a write failed on is incomplete: the run is not ok.
    if (r.bad_input) session.discard();
    const std::string trace_failure = r.bad_input ? "" : session.close(r.error.empty() ? "ok" : r.error);
    if (r.error.empty()) r.error = trace_failure;
    r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.ok = r.error.empty();

    nlohmann::json& j = r.stats;
    j["status"] = r.ok ? "ok" : r.interrupted ? "interrupted" : "error";
    if (!trace_failure.empty() && trace_failure != r.error) j["trace_error"] = trace_failure;
    if (!r.ok) j["error"] = r.error;
    j["scheme"] = params.platform.scheme;
    j["workload"] = workload ? workload->name() : params.workload.name;
    j["timing"] = timing_name(params.platform.timing);
    j["cores"] = params.platform.client_cores;
    j["units"] = params.platform.units;
    j["interval"] = params.workload.interval;
    j["ops_per_core"] = ran.ops ? nlohmann::json(*ran.ops) : nlohmann::json(nullptr);
    j["seed"] = params.workload.seed;
    if (platform) {
        const nlohmann::json ps = platform->stats_json();
        for (auto it = ps.begin(); it != ps.end(); ++it) j[it.key()] = it.value();
        r.simulated_ns = ps.at("simulated_ns").get<double>();
    }
    r.operations = workload ? workload->operations() : 0;
    j["operations"] = r.operations;
    j["throughput_ops_per_us"] = r.simulated_ns > 0 ? r.operations / (r.simulated_ns / 1000.0) : 0.0;
    if (platform) add_derived_stats(j, r.operations);
    if (workload) {
        nlohmann::json ws = nlohmann::json::object();
        workload->report_stats(StatContext{}, ws);
        if (!ws.empty()) j["workload_stats"] = ws;
    }
    j["check"] = {{"ok", r.check.ok && r.ok}, {"failures", r.check.failures}};
    j["config"] = to_json(params);
    j["build"] = {{"version", build_version()}, {"commit", build_commit()}};
    j["host"] = {
        {"seconds", r.host_seconds}, {"run_seconds", r.host_run_seconds}, {"run_cpu_seconds", r.host_run_cpu_seconds}};
    return r;
}

namespace {
/// printf into a std::string.
template <class... Args> std::string format(const char* fmt, Args... args) {
    const int n = std::snprintf(nullptr, 0, fmt, args...);
    std::string out(static_cast<size_t>(std::max(n, 0)) + 1, '\0');
    std::snprintf(out.data(), out.size(), fmt, args...);
    out.resize(static_cast<size_t>(std::max(n, 0)));
    return out;
}

/// Text columns of the summary: the width of column `c` is that of its
/// widest cell, so rows stay aligned at any number of SEs, servers or cores.
class Columns {
public:
    void row(std::vector<std::string> cells) { m_rows.push_back(std::move(cells)); }
    /// Cell `c` of row `r`, right-aligned (numbers) to the column's width.
    std::string right(size_t r, size_t c) const {
        const std::string& s = m_rows[r][c];
        return std::string(width(c) - s.size(), ' ') + s;
    }
    size_t rows() const { return m_rows.size(); }

private:
    size_t width(size_t c) const {
        size_t w = 0;
        for (const auto& row : m_rows) w = std::max(w, row[c].size());
        return w;
    }
    std::vector<std::vector<std::string>> m_rows;
};

/// The summary's label of a blocking call of sync_latency.
std::string call_label(const std::string& call) {
    if (call == "lock_acquire") return "lock acquire";
    if (call == "barrier_wait_within_unit") return "barrier (unit)";
    if (call == "barrier_wait_across_units") return "barrier (all)";
    if (call == "sem_wait") return "sem wait";
    if (call == "cond_wait") return "cond wait";
    return call;
}
} // namespace

std::string summary(const SimulationResult& r) {
    using ull = unsigned long long;
    const RunSummary s = RunSummary::from_stats(r.stats);
    // Every line is a label column and its text; the label column is as wide
    // as its longest label (at least the usual 18 characters).
    std::vector<std::pair<std::string, std::string>> lines;
    const auto add = [&lines](std::string label, std::string text) {
        lines.emplace_back(std::move(label), std::move(text));
    };
    add("status", r.ok ? "ok" : "FAILED: " + r.error);
    add("simulated time", format("%.1f ns", r.simulated_ns));
    add("operations", format("%llu (%.3f per us)", static_cast<ull>(r.operations), s.throughput_ops_per_us));
    add("traffic", format("%llu B within units, %llu B across links", static_cast<ull>(s.bytes_within_units),
                          static_cast<ull>(s.bytes_across_links)));
    add("of which sync",
        format("%llu B within units, %llu B across links", static_cast<ull>(s.data_movement.within_sync),
               static_cast<ull>(s.data_movement.across_sync)));
    const auto& en = s.energy;
    add("energy",
        format("%.3f uJ: cores %.3f, caches %.3f, network %.3f, links %.3f, memory %.3f, SEs %.3f", en.total * 1e-6,
               en.cores * 1e-6, en.caches * 1e-6, en.network * 1e-6, en.links * 1e-6, en.memory * 1e-6, en.se * 1e-6));
    add("sync messages", format("%llu", static_cast<ull>(s.sync_messages)));
    Columns se;
    for (const auto& e : s.ses)
        se.row({std::to_string(e.unit), std::to_string(e.messages), format("%.2f", e.st_occupancy_avg),
                std::to_string(e.st_occupancy_max), std::to_string(e.st_entries), std::to_string(e.overflow_requests)});
    for (size_t i = 0; i < se.rows(); ++i)
        add("SE " + se.right(i, 0), se.right(i, 1) + " messages, ST occupancy avg " + se.right(i, 2) + " max " +
                                        se.right(i, 3) + " of " + se.right(i, 4) + ", " + se.right(i, 5) +
                                        " overflow requests");
    Columns sv;
    for (const auto& e : s.servers)
        sv.row({std::to_string(e.unit), std::to_string(e.messages_handled), format("%.1f", 100.0 * e.busy_fraction)});
    for (size_t i = 0; i < sv.rows(); ++i)
        add("server (unit " + sv.right(i, 0) + ")", sv.right(i, 1) + " messages, busy " + sv.right(i, 2) + "%");
    if (s.atomics)
        add("atomics", format("%llu cas (%llu failed), %llu swap, %llu faa", static_cast<ull>(s.atomics->cas),
                              static_cast<ull>(s.atomics->cas_failures), static_cast<ull>(s.atomics->swap),
                              static_cast<ull>(s.atomics->faa)));
    if (s.misar)
        add("MiSAR overflow",
            format("%llu aborts, %llu fallbacks to the server, %llu retries", static_cast<ull>(s.misar->aborts),
                   static_cast<ull>(s.misar->fallbacks), static_cast<ull>(s.misar->retries)));
    Columns lat; // request-to-grant latency per blocking call, in ns
    for (const auto& l : s.latency)
        lat.row({l.call, std::to_string(l.count), format("%.1f", l.mean_ns), format("%.1f", l.p50_ns),
                 format("%.1f", l.p95_ns), format("%.1f", l.p99_ns), format("%.1f", l.max_ns)});
    for (size_t i = 0; i < lat.rows(); ++i)
        add(call_label(s.latency[i].call), lat.right(i, 1) + " waits, ns: mean " + lat.right(i, 2) + " p50 " +
                                               lat.right(i, 3) + " p95 " + lat.right(i, 4) + " p99 " + lat.right(i, 5) +
                                               " max " + lat.right(i, 6));
    if (s.fairness) {
        const auto& f = *s.fairness;
        add("lock fairness", format("Jain index of per-core mean waits %.3f, per-core share of acquisitions "
                                    "%.2f%% to %.2f%%",
                                    f.wait_jain_index, 100 * f.share_min, 100 * f.share_max));
        add("lock wait/core", format("ns, lowest to highest core: p50 %.1f-%.1f, p99 %.1f-%.1f, max %.1f-%.1f",
                                     f.p50_lo, f.p50_hi, f.p99_lo, f.p99_hi, f.max_lo, f.max_hi));
        std::string units = "acquisitions";
        for (const double share : f.unit_shares) units += format(" %.1f%%", 100 * share);
        if (f.handoffs_within) {
            const uint64_t all = *f.handoffs_within + *f.handoffs_across;
            units += format("; hand-offs %llu within, %llu across units (%.1f%% across)",
                            static_cast<ull>(*f.handoffs_within), static_cast<ull>(*f.handoffs_across),
                            all ? 100.0 * static_cast<double>(*f.handoffs_across) / static_cast<double>(all) : 0.0);
        }
        add("lock by unit", units);
    }
    if (!s.sync_variables.empty()) {
        std::string vars;
        for (const auto& v : s.sync_variables) vars += (vars.empty() ? "" : " ") + v;
        add("variables", vars + (s.sync_variables.size() == 16 ? " ..." : ""));
    }
    add("host time", format("%.2f s", r.host_seconds));

    size_t label = 16;
    for (const auto& l : lines) label = std::max(label, l.first.size());
    std::ostringstream os;
    os << "SynCron simulation: scheme " << s.scheme << ", workload " << s.workload << ", " << s.timing << ", "
       << s.cores << " cores on " << s.units << " units\n";
    for (const auto& [name, text] : lines)
        os << "  " << name << std::string(label + 2 - name.size(), ' ') << text << "\n";
    return os.str();
}

} // namespace syncron
