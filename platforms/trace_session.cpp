#include "platforms/trace_session.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "models/common/hex.h"
#include "models/common/input_file.h"
#include "platforms/build_info.h"
#include "platforms/config/config.h"
#include "platforms/ndp_platform.h"
#include "platforms/workload_registry.h"
#include "traces/gtkw_save_file.h"
#include "traces/progress.h"
#include "traces/staged_file.h"
#include "traces/timeline_json.h"
#include "traces/transaction_db.h"
#include "traces/vcd_recorder.h"

namespace syncron {

TraceSession::TraceSession() = default;
TraceSession::~TraceSession() { close("aborted"); }

void TraceSession::open(const TraceOptions& options, const SimParams& params, NdpPlatform& platform) {
    m_params = params;
    if (!options.db.empty()) {
        StagedFile(options.db).check("trace database"); // e.g. a read-only earlier database
        const AddressMap& map = platform.address_map();
        m_db = std::make_unique<TransactionDb>(
            options.db, [&map](uint64_t a) { return map.is_memory(a) ? map.home_unit(a) : map.units(); },
            [&map](uint64_t a) { return map.vault_of(a); });
        m_db->set_meta("configuration", to_json(params).dump());
        m_db->set_meta("scheme", to_string(params.platform.scheme));
        m_db->set_meta("workload", params.workload.name);
        m_db->set_meta("timing", timing_name(params.platform.timing));
        m_db->set_meta("seed", std::to_string(params.workload.seed));
        m_db->set_meta("version", build_version());
        m_db->set_meta("commit", build_commit());
        m_fanout.add(m_db.get());
    }
    if (!options.json.empty()) {
        m_json = std::make_unique<TimelineJson>(options.json);
        m_fanout.add(m_json.get());
    }
    if (!options.vcd.empty()) {
        // The recorder is built after the workload's set-up (it needs the
        // traced variables); check the path now, without touching the file
        // (the previous one stays until the new one is complete).
        StagedFile(VcdRecorder::file_base(options.vcd) + ".vcd").check("waveform file"); // what SystemC writes
        m_vcd_path = options.vcd;
    }
    if (!options.gtkw.empty()) {
        // Written at close (it needs the run's end time); check the paths now.
        if (m_vcd_path.empty()) throw std::runtime_error("--gtkw needs --vcd (the save file shows the VCD's signals)");
        m_gtkw_path = options.gtkw;
        for (const std::string& file : gtkw_files(m_gtkw_path)) StagedFile(file).check("GTKWave file");
    }
}

std::vector<std::string> TraceSession::gtkw_files(const std::string& gtkw) {
    // run.gtkw, run_state.txt, run_op.txt, run_owner.txt
    std::string stem = gtkw;
    const std::string ext = ".gtkw";
    if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0)
        stem.resize(stem.size() - ext.size());
    return {gtkw, stem + "_state.txt", stem + "_op.txt", stem + "_owner.txt"};
}

void TraceSession::write_gtkw() {
    if (m_gtkw_path.empty() || !m_vcd) return;
    const std::vector<std::string> files = gtkw_files(m_gtkw_path);
    // Each file complete under a temporary name, then renamed (StagedFile);
    // every file is attempted, and every failure reported.
    std::string failures;
    const auto write = [&failures](const std::string& file, const std::string& text) {
        StagedFile staged(file);
        errno = 0;
        std::ofstream out(staged.temporary());
        out << text;
        out.close();
        int error = out ? 0 : errno;
        if (out) error = staged.commit();
        if (!out || error)
            failures += (failures.empty() ? "" : "\n") + ("cannot write GTKWave file '" + file + "'") +
                        (error ? std::string(": ") + std::strerror(error) : std::string());
    };
    std::vector<unsigned> ids;
    for (unsigned u = 0; u < m_layout.units; ++u)
        ids.push_back(m_layout.clients(u) + (u < m_layout.servers.size() && m_layout.servers[u] ? 1 : 0));
    write(files[1], gtkw_state_filter());
    write(files[2], gtkw_op_filter());
    write(files[3], gtkw_owner_filter(ids, m_layout.servers));
    // Absolute paths: GTKWave opens filter files relative to its working directory.
    const auto abs = [](const std::string& f) { return std::filesystem::absolute(f).lexically_normal().string(); };
    // The last value change: the kernel's own end (sc_time_stamp) can lie
    // later (pollers), which would only add an empty stretch.
    const sc_core::sc_time end =
        m_vcd->latest_change() > sc_core::SC_ZERO_TIME ? m_vcd->latest_change() : sc_core::sc_time_stamp();
    write(files[0], gtkw_save_file(m_vcd->traced(), end.value(), {abs(files[1]), abs(files[2]), abs(files[3])},
                                   "syncron-sim --gtkw: the signals of " + m_vcd->file() + " that changed (" +
                                       m_params.workload.name + ", " + to_string(m_params.platform.scheme) + ")"));
    if (!failures.empty()) throw std::runtime_error(failures);
}

void TraceSession::attach(const TraceOptions& options, NdpPlatform& platform, std::function<uint64_t()> operations) {
    const auto& vars = platform.syncvars();
    std::vector<uint64_t> traced = options.vars;
    if (options.first_var) {
        if (vars.empty()) throw ConfigError("--trace-var first: the workload created no synchronization variable");
        if (std::find(traced.begin(), traced.end(), vars.front()) == traced.end()) traced.push_back(vars.front());
    }
    for (const uint64_t v : traced)
        if (std::find(vars.begin(), vars.end(), v) == vars.end()) {
            std::ostringstream known;
            for (size_t i = 0; i < vars.size() && i < 8; ++i) known << (i ? ", " : "") << hex(vars[i]);
            if (vars.size() > 8) known << ", ...";
            throw ConfigError("--trace-var " + hex(v) + " is not a synchronization variable of this run " +
                              "(the workload's variables: " + known.str() + ")");
        }
    if (!m_vcd_path.empty()) {
        VcdLayout layout;
        layout.units = m_params.platform.units;
        layout.client_cores = client_cores_per_unit(m_params.platform);
        for (unsigned u = 0; u < m_params.platform.units; ++u)
            layout.servers.push_back(platform.sync_scheme().servers_in(u) > 0);
        if (platform.topology().organization == SeOrganization::flat)
            layout.local_waiting_bits = m_params.platform.units * m_params.platform.cores_per_unit;
        layout.st_entries = m_params.se.st_entries;
        layout.counters = m_params.se.indexing_counters;
        layout.traced_vars = traced;
        for (const auto& l : platform.links()) layout.links.emplace_back(l->src_unit(), l->dst_unit());
        if (m_params.platform.timing == Timing::at)
            for (unsigned u = 0; u < m_params.platform.units; ++u)
                for (unsigned v = 0; v < m_params.memory.vaults_per_unit; ++v)
                    layout.queues.push_back("ndp.unit" + std::to_string(u) + "_vault" + std::to_string(v));
        for (unsigned u = 0; u < m_params.platform.units; ++u)
            for (unsigned v = 0; v < m_params.memory.vaults_per_unit; ++v) layout.vaults.emplace_back(u, v);
        const AddressMap& map = platform.address_map();
        layout.vault_of = [&map](uint64_t a) {
            return map.is_memory(a) ? std::make_pair(map.home_unit(a), map.vault_of(a)) : std::make_pair(~0u, ~0u);
        };
        m_layout = layout;
        try {
            m_vcd = std::make_unique<VcdRecorder>("vcd", m_vcd_path, layout, options.filter);
        } catch (const std::exception& e) {
            throw ConfigError(e.what()); // a waveform file the run cannot write, found before it starts
        }
        m_fanout.add(m_vcd.get());
    }
    for (const uint64_t v : traced) platform.trace_var(v);
    // A filter that selects nothing would write a VCD with no signals: a typo
    // (or a malformed glob such as '[') the user should hear about.
    if (m_vcd && !options.filter.empty() && m_vcd->signals().empty())
        throw ConfigError("--trace-filter '" + options.filter +
                          "' matches no waveform signal (names look like unit0.se.st_occupancy; "
                          "docs/traces.md lists them)");
    if (!m_fanout.empty()) platform.attach_trace(&m_fanout);
    if (options.progress) {
        m_progress = std::make_unique<ProgressReporter>("progress", std::move(operations));
        // Every workload completes its ops on every client core (stats: operations).
        const WorkloadRegistry& registry = WorkloadRegistry::instance();
        const WorkloadParams w =
            registry.has(m_params.workload.name) ? registry.resolve(m_params.workload) : m_params.workload;
        m_progress->set_total(uint64_t{w.ops.value_or(0)} * m_params.platform.client_cores);
        // Its wake-ups must not outlive the model.
        platform.on_finished([p = m_progress.get()] { p->stop(); });
    }
}

std::string TraceSession::close(const std::string& status) {
    if (m_closed) return "";
    m_closed = true;
    // Every recorder is closed even if one fails; every failure is kept, one line each.
    std::string failure;
    const auto guarded = [&](const std::function<void()>& f) {
        try {
            f();
        } catch (const std::exception& e) {
            failure += (failure.empty() ? "" : "\n") + std::string(e.what());
        }
    };
    if (m_progress) guarded([&] { m_progress->finish(); });
    if (m_db) {
        guarded([&] { m_db->set_meta("status", status); });
        guarded([&] { m_db->close(); });
    }
    if (m_json)
        guarded([&] {
            m_json->close();
            if (m_json->failed())
                throw std::runtime_error("cannot write timeline to '" + excerpt(m_json->path(), kQuotedMax) +
                                         "': " + std::strerror(m_json->error_number()));
        });
    if (m_vcd) guarded([&] { m_vcd->close(); });
    if (m_vcd) guarded([&] { write_gtkw(); });
    return failure;
}

void TraceSession::discard() noexcept {
    if (m_closed) return;
    m_closed = true;
    if (m_progress) m_progress->stop();
    if (m_db) m_db->discard();
    if (m_json) m_json->discard();
    if (m_vcd) m_vcd->discard();
}

} // namespace syncron
