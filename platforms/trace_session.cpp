#include "platforms/trace_session.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "models/common/hex.h"
#include "platforms/build_info.h"
#include "platforms/config/config.h"
#include "platforms/ndp_platform.h"
#include "traces/progress.h"
#include "traces/timeline_json.h"
#include "traces/transaction_db.h"
#include "traces/vcd_recorder.h"

namespace syncron {

TraceSession::TraceSession() = default;
TraceSession::~TraceSession() { close("aborted"); }

void TraceSession::open(const TraceOptions& options, const SimParams& params, NdpPlatform& platform) {
    m_params = params;
    if (!options.db.empty()) {
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
        // traced variables); check the path now.
        const std::string file = VcdRecorder::file_base(options.vcd) + ".vcd"; // what SystemC writes
        std::ofstream probe(file);
        if (!probe) throw std::runtime_error("cannot write waveform file '" + file + "'");
        m_vcd_path = options.vcd;
    }
}

void TraceSession::attach(const TraceOptions& options, NdpPlatform& platform, std::function<uint64_t()> operations) {
    const auto& vars = platform.syncvars();
    for (const uint64_t v : options.vars)
        if (std::find(vars.begin(), vars.end(), v) == vars.end()) {
            std::ostringstream known;
            for (size_t i = 0; i < vars.size() && i < 8; ++i) known << (i ? ", " : "") << hex(vars[i]);
            if (vars.size() > 8) known << ", ...";
            throw std::runtime_error("--trace-var " + hex(v) + " is not a synchronization variable of this run " +
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
        layout.traced_vars = options.vars;
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
        m_vcd = std::make_unique<VcdRecorder>("vcd", m_vcd_path, layout, options.filter);
        m_fanout.add(m_vcd.get());
    }
    for (const uint64_t v : options.vars) platform.trace_var(v);
    if (!m_fanout.empty()) platform.attach_trace(&m_fanout);
    if (options.progress) {
        m_progress = std::make_unique<ProgressReporter>("progress", std::move(operations));
        // Its wake-ups must not outlive the model.
        platform.on_finished([p = m_progress.get()] { p->stop(); });
    }
}

void TraceSession::close(const std::string& status) {
    if (m_closed) return;
    m_closed = true;
    // Every recorder is closed even if one fails; the first failure is kept.
    std::string failure;
    const auto guarded = [&](const std::function<void()>& f) {
        try {
            f();
        } catch (const std::exception& e) {
            if (failure.empty()) failure = e.what();
        }
    };
    if (m_progress) guarded([&] { m_progress->finish(); });
    if (m_db)
        guarded([&] {
            m_db->set_meta("status", status);
            m_db->close();
        });
    if (m_json) guarded([&] { m_json->close(); });
    if (m_vcd) guarded([&] { m_vcd->close(); });
    if (!failure.empty()) std::cerr << "syncron-sim: closing traces: " << failure << "\n";
}

} // namespace syncron
