#include "platforms/simulation.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <sstream>

#include "platforms/build_info.h"
#include "platforms/config/config.h"
#include "platforms/ndp_platform.h"
#include "platforms/run_summary.h"
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
    // What ran: unset workload parameters take the registered workload's defaults.
    const WorkloadRegistry& registry = WorkloadRegistry::instance();
    const WorkloadParams ran = registry.has(params.workload.name) ? registry.resolve(params.workload) : params.workload;
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
    j["host"] = {{"seconds", r.host_seconds}, {"run_seconds", r.host_run_seconds}};
    return r;
}

std::string summary(const SimulationResult& r) {
    const RunSummary s = RunSummary::from_stats(r.stats);
    std::ostringstream os;
    char line[256];
    os << "SynCron simulation: scheme " << s.scheme << ", workload " << s.workload << ", " << s.timing << ", "
       << s.cores << " cores on " << s.units << " units\n";
    std::snprintf(line, sizeof line, "  status            %s%s%s\n", r.ok ? "ok" : "FAILED", r.ok ? "" : ": ",
                  r.ok ? "" : r.error.c_str());
    os << line;
    std::snprintf(line, sizeof line, "  simulated time    %.1f ns\n", r.simulated_ns);
    os << line;
    std::snprintf(line, sizeof line, "  operations        %llu (%.3f per us)\n",
                  static_cast<unsigned long long>(r.operations), s.throughput_ops_per_us);
    os << line;
    std::snprintf(line, sizeof line, "  traffic           %llu B within units, %llu B across links\n",
                  static_cast<unsigned long long>(s.bytes_within_units),
                  static_cast<unsigned long long>(s.bytes_across_links));
    os << line;
    std::snprintf(line, sizeof line, "  sync messages     %llu\n", static_cast<unsigned long long>(s.sync_messages));
    os << line;
    for (const auto& se : s.ses) {
        std::snprintf(
            line, sizeof line,
            "  SE %u              %llu messages, ST occupancy avg %.2f max %u of %u, %llu overflow requests\n", se.unit,
            static_cast<unsigned long long>(se.messages), se.st_occupancy_avg, se.st_occupancy_max, se.st_entries,
            static_cast<unsigned long long>(se.overflow_requests));
        os << line;
    }
    for (const auto& sv : s.servers) {
        std::snprintf(line, sizeof line, "  server (unit %u)   %llu messages, busy %.1f%%\n", sv.unit,
                      static_cast<unsigned long long>(sv.messages_handled), 100.0 * sv.busy_fraction);
        os << line;
    }
    if (s.atomics) {
        std::snprintf(
            line, sizeof line, "  atomics           %llu cas (%llu failed), %llu swap, %llu faa\n",
            static_cast<unsigned long long>(s.atomics->cas), static_cast<unsigned long long>(s.atomics->cas_failures),
            static_cast<unsigned long long>(s.atomics->swap), static_cast<unsigned long long>(s.atomics->faa));
        os << line;
    }
    if (s.misar) {
        std::snprintf(
            line, sizeof line, "  MiSAR overflow    %llu aborts, %llu fallbacks to the server, %llu retries\n",
            static_cast<unsigned long long>(s.misar->aborts), static_cast<unsigned long long>(s.misar->fallbacks),
            static_cast<unsigned long long>(s.misar->retries));
        os << line;
    }
    if (!s.sync_variables.empty()) {
        std::string vars;
        for (const auto& v : s.sync_variables) vars += (vars.empty() ? "" : " ") + v;
        os << "  variables         " << vars << (s.sync_variables.size() == 16 ? " ..." : "") << "\n";
    }
    std::snprintf(line, sizeof line, "  host time         %.2f s\n", r.host_seconds);
    os << line;
    return os.str();
}

} // namespace syncron
