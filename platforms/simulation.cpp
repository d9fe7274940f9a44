#include "platforms/simulation.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <sstream>

#include "platforms/config/config.h"
#include "platforms/ndp_platform.h"
#include "platforms/trace_session.h"
#include "platforms/workload_registry.h"

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
/// SIGINT: ask the platform to stop at its next check; a second one kills.
extern "C" void on_sigint(int) {
    NdpPlatform::request_stop();
    std::signal(SIGINT, SIG_DFL);
}
} // namespace

SimulationResult simulate(const SimParams& params, const TraceOptions& traces, std::unique_ptr<Workload> workload,
                          const std::function<void(NdpPlatform&)>& before_run) {
    SimulationResult r;
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<NdpPlatform> platform;
    TraceSession session;
    auto previous = std::signal(SIGINT, on_sigint);
    try {
        if (!workload) workload = WorkloadRegistry::instance().make(params.workload);
        platform = std::make_unique<NdpPlatform>("ndp", params);
        // Trace files are opened before anything runs: a bad path costs no simulation.
        session.open(traces, params, *platform);
        platform->load(*workload);
        session.attach(traces, *platform, [w = workload.get()] { return w->operations(); });
        if (before_run) before_run(*platform);
        const auto run0 = std::chrono::steady_clock::now();
        const bool finished = platform->run();
        r.host_run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count();
        if (NdpPlatform::stop_requested()) {
            r.error = "interrupted (SIGINT) at " + sc_core::sc_time_stamp().to_string();
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
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    std::signal(SIGINT, previous);
    session.close(r.error.empty() ? "ok" : r.error);
    r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.ok = r.error.empty();

    nlohmann::json& j = r.stats;
    j["status"] = r.ok ? "ok" : "error";
    if (!r.ok) j["error"] = r.error;
    j["scheme"] = params.platform.scheme;
    j["workload"] = workload ? workload->name() : params.workload.name;
    j["timing"] = timing_name(params.platform.timing);
    j["cores"] = params.platform.client_cores;
    j["units"] = params.platform.units;
    j["interval"] = params.workload.interval;
    j["ops_per_core"] = params.workload.ops;
    j["seed"] = params.workload.seed;
    if (platform) {
        const nlohmann::json ps = platform->stats_json();
        for (auto it = ps.begin(); it != ps.end(); ++it) j[it.key()] = it.value();
        r.simulated_ns = ps.value("simulated_ns", 0.0);
    }
    r.operations = workload ? workload->operations() : 0;
    j["operations"] = r.operations;
    j["throughput_ops_per_us"] = r.simulated_ns > 0 ? r.operations / (r.simulated_ns / 1000.0) : 0.0;
    j["check"] = {{"ok", r.check.ok && r.ok}, {"failures", r.check.failures}};
    j["config"] = to_json(params);
    j["host"] = {{"seconds", r.host_seconds}, {"run_seconds", r.host_run_seconds}};
    return r;
}

std::string summary(const SimulationResult& r) {
    const auto& j = r.stats;
    std::ostringstream os;
    char line[256];
    os << "SynCron simulation: scheme " << j.value("scheme", "") << ", workload " << j.value("workload", "")
       << ", " << j.value("timing", "") << ", " << j.value("cores", 0) << " cores on " << j.value("units", 0)
       << " units\n";
    std::snprintf(line, sizeof line, "  status            %s%s%s\n", r.ok ? "ok" : "FAILED",
                  r.ok ? "" : ": ", r.ok ? "" : r.error.c_str());
    os << line;
    std::snprintf(line, sizeof line, "  simulated time    %.1f ns\n", r.simulated_ns);
    os << line;
    std::snprintf(line, sizeof line, "  operations        %llu (%.3f per us)\n",
                  static_cast<unsigned long long>(r.operations), j.value("throughput_ops_per_us", 0.0));
    os << line;
    std::snprintf(line, sizeof line, "  traffic           %llu B within units, %llu B across links\n",
                  static_cast<unsigned long long>(j.value("bytes_within_units", 0ull)),
                  static_cast<unsigned long long>(j.value("bytes_across_links", 0ull)));
    os << line;
    std::snprintf(line, sizeof line, "  sync messages     %llu\n",
                  static_cast<unsigned long long>(j.value("sync_messages", 0ull)));
    os << line;
    if (j.contains("se") && j.value("se_used", true))
        for (const auto& se : j["se"]) {
            uint64_t msgs = 0;
            for (const auto& kv : se["messages"].items()) msgs += kv.value().get<uint64_t>();
            std::snprintf(line, sizeof line,
                          "  SE %u              %llu messages, ST occupancy avg %.2f max %u of %u, %llu overflow requests\n",
                          se.value("unit", 0u), static_cast<unsigned long long>(msgs), se.value("st_occupancy_avg", 0.0),
                          se.value("st_occupancy_max", 0u), se.value("st_entries", 0u),
                          static_cast<unsigned long long>(se.value("overflow_requests", 0ull)));
            os << line;
        }
    if (j.contains("servers"))
        for (const auto& sv : j["servers"]) {
            std::snprintf(line, sizeof line, "  server (unit %u)   %llu messages, busy %.1f%%\n", sv.value("unit", 0u),
                          static_cast<unsigned long long>(sv.value("messages_handled", 0ull)),
                          100.0 * sv.value("busy_fraction", 0.0));
            os << line;
        }
    if (j.contains("atomics")) {
        const auto& a = j["atomics"];
        std::snprintf(line, sizeof line, "  atomics           %llu cas (%llu failed), %llu swap, %llu faa\n",
                      static_cast<unsigned long long>(a.value("cas", 0ull)),
                      static_cast<unsigned long long>(a.value("cas_failures", 0ull)),
                      static_cast<unsigned long long>(a.value("swap", 0ull)),
                      static_cast<unsigned long long>(a.value("faa", 0ull)));
        os << line;
    }
    if (j.contains("misar")) {
        const auto& m = j["misar"];
        std::snprintf(line, sizeof line, "  MiSAR overflow    %llu aborts, %llu fallbacks to the server, %llu retries\n",
                      static_cast<unsigned long long>(m.value("aborts", 0ull)),
                      static_cast<unsigned long long>(m.value("fallbacks", 0ull)),
                      static_cast<unsigned long long>(m.value("retries", 0ull)));
        os << line;
    }
    if (j.contains("sync_variables") && !j["sync_variables"].empty()) {
        std::string vars;
        for (const auto& v : j["sync_variables"]) vars += (vars.empty() ? "" : " ") + v.get<std::string>();
        os << "  variables         " << vars << (j["sync_variables"].size() == 16 ? " ..." : "") << "\n";
    }
    std::snprintf(line, sizeof line, "  host time         %.2f s\n", r.host_seconds);
    os << line;
    return os.str();
}

} // namespace syncron
