#pragma once
// The trace recorders of one run (docs/traces.md): created from the
// TraceOptions, attached to every probe of the platform, closed on every exit
// path so their files are complete even after an error or SIGINT.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "models/tlm/trace_sink.h"
#include "platforms/simulation.h"
#include "traces/vcd_recorder.h"

namespace syncron {

class NdpPlatform;
class TransactionDb;
class TimelineJson;
class VcdRecorder;
class ProgressReporter;

class TraceSession {
public:
    TraceSession();
    ~TraceSession();

    /// Opens the database and timeline files and checks that the VCD file can
    /// be written; throws std::runtime_error naming a bad path.
    void open(const TraceOptions& options, const SimParams& params, NdpPlatform& platform);
    /// After the workload's set-up: validates --trace-var, creates the VCD
    /// recorder and the progress line, attaches everything to the platform.
    /// A --trace-var or --trace-filter that names nothing of this run, or a
    /// VCD file that cannot be written, throws ConfigError (bad input: the
    /// caller discards the session).
    void attach(const TraceOptions& options, NdpPlatform& platform, std::function<uint64_t()> operations);
    /// Flushes and closes every recorder (idempotent); `status` goes into the
    /// database's meta table. Returns every failure, one line each (a file a
    /// write failed on is not renamed into place: the previous one stays),
    /// empty when every file is complete.
    std::string close(const std::string& status);
    /// Closes every recorder without keeping anything (idempotent): for a run
    /// refused before it started, which must leave the previous files as they were.
    void discard() noexcept;

    /// What --gtkw FILE writes: the save file, then its three filter files.
    static std::vector<std::string> gtkw_files(const std::string& gtkw);

private:
    void write_gtkw(); ///< --gtkw, after the VCD is closed

    TraceFanout m_fanout;
    SimParams m_params;
    std::string m_vcd_path;
    std::string m_gtkw_path;
    std::unique_ptr<TransactionDb> m_db;
    std::unique_ptr<TimelineJson> m_json;
    VcdLayout m_layout; ///< what the VCD recorder declared
    std::unique_ptr<VcdRecorder> m_vcd;
    std::unique_ptr<ProgressReporter> m_progress;
    bool m_closed = false;
};

} // namespace syncron
