#pragma once
// Trace-event JSON timeline (--trace-json): the Chrome / Perfetto format
// {"traceEvents":[ ... ],"displayTimeUnit":"ns"}, written as a stream.
//
// Tracks: one process per unit ("unit 0") holding one thread per core
// ("core 3") and one for the unit's SE ("SE"). A core's track shows what it
// does, one complete ("X") event per span, named "compute", "memory" or
// "waiting" (args: op = the operation, addr); a span begins at a
// CoreStateRecord and ends when the next record of that core starts ("done"
// ends it without opening another). An SE's track shows one X event per
// served message [start, end), named after the opcode (args: addr, wait_ns =
// start - arrival, st_occupancy, overflow, core, se, buffer_waiting).
// ts and dur are in microseconds (the format's unit) with ns precision.
//
// Streaming with bounded memory: only the open span of each core is kept;
// every other event is written as soon as it is complete into a fixed
// 64 KiB buffer that is flushed when full. Records may arrive out of time
// order across cores (LT temporal decoupling); the format does not need
// sorted events. A core's own record that is earlier than that core's open
// span (not produced by the models, handled anyway) is written nested inside
// the span that covers its time, with args.late = true, so spans on a track
// never partially overlap.
//
// close() ends the open spans at the last known time (the latest time of any
// record received), writes the closing brackets and closes the file. It is
// idempotent and does no allocation, no stdio and no SystemC call: it only
// formats into stack buffers and calls write(2)/close(2), so a SIGINT
// handler may call it (best effort: a signal that lands in the middle of a
// flush may duplicate or lose the bytes of that one write). The destructor
// calls close(). The file is written under a temporary name and renamed
// over `path` by a close() that completed it; a failed one leaves the
// previous file.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/tlm/trace_sink.h"
#include "traces/staged_file.h"

namespace syncron {

class TimelineJson : public TraceSink {
public:
    /// Creates a temporary beside `path` (StagedFile; renamed over `path`
    /// when close() completes the file); throws std::runtime_error naming
    /// the path if it cannot be opened for writing.
    explicit TimelineJson(const std::string& path);
    ~TimelineJson() override;
    TimelineJson(const TimelineJson&) = delete;
    TimelineJson& operator=(const TimelineJson&) = delete;

    void on_core_state(const CoreStateRecord& r) override;
    void on_service(const ServiceRecord& r) override;
    // The other records are not drawn; they only advance the last known time.
    void on_message(const MessageRecord& r) override;
    void on_memory(const MemoryRecord& r) override;
    void on_link(const LinkRecord& r) override;
    void on_queue(const QueueRecord& r) override;

    /// Ends open spans at the last known time, finishes the JSON and closes
    /// the file. Idempotent; async-signal-safe (see above).
    void close() noexcept;
    /// Same, but open spans end at max(end, last known time), e.g.
    /// sc_time_stamp() after sc_start() returned. Not for signal handlers.
    void close(const sc_core::sc_time& end);
    /// Closes without keeping anything: the temporary file is removed and a
    /// previous file of that name stays (a run refused before it started).
    void discard() noexcept;

    bool is_open() const { return !m_closed.load(); }
    /// A write or the close failed (disk full, file-size limit, ...): the file is incomplete.
    bool failed() const { return m_failed; }
    /// errno of the first failure (0 = none): the reason an error message gives.
    int error_number() const { return m_errno; }
    const std::string& path() const { return m_path; }
    /// The file being written: a temporary beside path() until close() renames it.
    const std::string& temporary() const { return m_file.temporary(); }
    /// Trace events written so far (metadata included).
    uint64_t events() const { return m_events; }
    /// Records of a core earlier than its open span (drawn nested, "late").
    uint64_t late_records() const { return m_late; }

    // Track IDs (exposed for tests and tools). pid = unit + 1 and tids are
    // unique across processes (Perfetto's JSON importer keys threads by tid);
    // no ID is 0.
    static int64_t pid_of(unsigned unit) { return int64_t(unit) + 1; }
    static int64_t se_tid(unsigned unit) { return pid_of(unit) << 17; }
    static int64_t core_tid(unsigned unit, unsigned core) { return (pid_of(unit) << 17) + 1 + core; }

private:
    struct CoreTrack {
        bool named = false;
        bool open = false; ///< a span is open from `start`
        bool seen = false; ///< `boundary` / `prev_start` are valid
        CoreActivity activity = CoreActivity::computing;
        const char* op = "";
        uint64_t addr = 0;
        uint64_t start = 0;      ///< ns, start of the open span
        uint64_t boundary = 0;   ///< ns, the track is written up to here
        uint64_t prev_start = 0; ///< ns, start of the last span ending at `boundary`
    };
    struct UnitTracks {
        bool named = false;
        bool se_named = false;
        std::vector<CoreTrack> cores;
    };

    uint64_t ns_of(const sc_core::sc_time& t);
    void seen(uint64_t ns) {
        if (ns > m_last) m_last = ns;
    }
    UnitTracks& unit(unsigned u);
    CoreTrack& core(unsigned u, unsigned c);
    /// Writes [start, end) of `t`'s open span, or of a late record.
    void write_core_span(unsigned u, unsigned c, CoreActivity a, const char* op, uint64_t addr, uint64_t start,
                         uint64_t end, bool late, char* scratch, size_t cap) noexcept;
    void commit(const char* text, size_t n) noexcept; ///< appends one event (adds the separator)
    void flush() noexcept;
    void write_all(const char* p, size_t n) noexcept;
    void finish(uint64_t end) noexcept;

    std::string m_path;
    StagedFile m_file; ///< written under a temporary name, renamed by close()
    int m_fd = -1;
    std::atomic<bool> m_closed{false};
    bool m_failed = false;
    int m_errno = 0;
    bool m_first = true;
    uint64_t m_events = 0;
    uint64_t m_late = 0;
    uint64_t m_last = 0;         ///< ns, latest time of any record
    uint64_t m_units_per_ns = 0; ///< sc_time units per ns (0: not known yet)
    uint64_t m_ns_per_unit = 0;  ///< when the resolution is coarser than 1 ns

    static constexpr size_t kBufSize = size_t{64} * 1024;
    static constexpr size_t kEventMax = 1024;
    std::unique_ptr<char[]> m_buf;
    size_t m_len = 0;
    std::unique_ptr<char[]> m_scratch; ///< formatting area of the on_* calls
    std::vector<UnitTracks> m_units;
};

} // namespace syncron
