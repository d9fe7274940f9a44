#pragma once
// Waveforms (--vcd FILE, --trace-filter PATTERN): a TraceSink that turns the
// probe records into SystemC VCD signals (docs/traces.md, "Waveforms").
//
// Every signal is a plain member traced with sc_trace; the recorder writes
// each value change at its RECORD time, not at the time the record arrives:
// in the loosely timed platform records come ahead of sc_time_stamp()
// (temporal decoupling) and out of order across sources, so changes wait in a
// time-ordered queue and an SC_METHOD applies them when simulated time reaches
// them. A change whose time has already passed is applied at once (it shows
// at the current time), unless the signal already shows a later record's
// value (then it is stale and dropped).
//
// Signal names (hierarchical; the VCD nests them under the scope `SystemC`):
//   unit<u>.se.{st_occupancy, buffer_waiting, spu_busy, counters_in_use, overflow}
//   unit<u>.core<c>.{state, op, addr}
//   var_0x<hex>.unit<u>.{lock_owner, local_waiting, global_waiting,
//                        barrier_count, sem_resources, buffered, in_memory}
//   link<s>to<d>.{bytes_in_flight, transfers_in_flight}
//   queue.<component>.depth
// Encodings: core state 0 computing, 1 memory, 2 waiting_sync, 3 done;
// core op: operation_code(); lock_owner: owner_code() = se*1000 + core + 1,
// 0 = free; waiting lists: bit i = local core i (local) / SE i (global).
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <systemc>

#include "models/tlm/trace_sink.h"
#include "traces/staged_file.h"

namespace syncron {

/// What the recorder declares (signals are fixed once the VCD header is out).
struct VcdLayout {
    unsigned units = 0;
    /// Client cores per unit (index = unit): unit<u>.core0..core<n-1> and the
    /// width of each SE's local waiting list.
    std::vector<unsigned> client_cores;
    /// Used for every unit when client_cores is empty.
    unsigned cores_per_unit = 0;
    /// Units with a server core (schemes central, hier, MiSAR-style): its
    /// signals are unit<u>.server.*, after the unit's clients.
    std::vector<bool> servers;
    /// Width of the SEs' local waiting lists when it is not the unit's client
    /// count (the flat organization lists every core of the system).
    unsigned local_waiting_bits = 0;
    /// ST entries / indexing counters per SE: widths of st_occupancy and
    /// counters_in_use (16 bits, more only if these need it).
    unsigned st_entries = 0;
    unsigned counters = 0;
    /// Traced synchronization variables (--trace-var).
    std::vector<uint64_t> traced_vars;
    /// Inter-cube link directions (src unit, dst unit).
    std::vector<std::pair<unsigned, unsigned>> links;
    /// AT queue components to trace (the QueueRecord::component names).
    std::vector<std::string> queues;
    /// Vaults whose requests in flight are traced, as (unit, vault), and the
    /// map from a memory address to them; empty = no vault signals.
    std::vector<std::pair<unsigned, unsigned>> vaults;
    std::function<std::pair<unsigned, unsigned>(uint64_t)> vault_of;

    unsigned clients(unsigned unit) const;
};

/// A traced VCD signal: its name (as in the table above) and bit width, and
/// what the run showed of it (VcdRecorder::traced(), once the run is over).
struct TracedSignal {
    std::string name;
    unsigned width = 1;
    /// False when its value never left the initial 0 (a vault never accessed,
    /// a lock's barrier_count): the save file leaves it out, the VCD keeps it.
    bool changed = true;
    /// A traced variable's signal (var_0x...): the kinds the SEs reported it
    /// as, bit 1 << Primitive (lock, barrier, semaphore, condvar); 0 = not a
    /// variable's signal, or no report (every row then applies).
    unsigned var_kinds = 0;
};

class VcdRecorder : public sc_core::sc_module, public TraceSink {
public:
    SC_HAS_PROCESS(VcdRecorder);

    /// Writes `file_base(path) + ".vcd"`: SystemC appends ".vcd" itself, so a
    /// trailing ".vcd" is stripped first ("run.vcd" and "run" both give
    /// run.vcd). `filter`: comma-separated globs (fnmatch) on the signal
    /// names; only matching signals are declared and traced ("" = "*").
    /// Throws std::runtime_error naming the file when it cannot be created.
    /// Build it during elaboration (it is an sc_module with an SC_METHOD).
    VcdRecorder(sc_core::sc_module_name name, const std::string& path, const VcdLayout& layout,
                const std::string& filter = "*");
    ~VcdRecorder() override; ///< close(), errors swallowed

    void on_service(const ServiceRecord& r) override;
    void on_core_state(const CoreStateRecord& r) override;
    void on_link(const LinkRecord& r) override;
    void on_queue(const QueueRecord& r) override;
    void on_memory(const MemoryRecord& r) override;

    /// Applies what is due, writes the current time step, closes the trace
    /// file, then appends the changes still pending (times ahead of the
    /// kernel, e.g. after sc_stop or an error) at their own times. Idempotent;
    /// may be called from a process (the file stays valid) or after
    /// sc_start returned or threw. Records arriving later are ignored.
    /// Throws std::runtime_error naming the file when a write failed (the
    /// file is incomplete: full device or file system, file-size limit).
    /// The VCD is written under a temporary name (StagedFile) and renamed
    /// over the file here once complete; an incomplete one is removed.
    void close();
    /// Closes without keeping anything: the temporary file is removed and a
    /// previous file of that name stays (a run refused before it started).
    void discard() noexcept;
    bool closed() const { return m_closed; }

    const std::string& file() const { return m_file; } ///< the VCD written
    std::vector<std::string> signals() const;          ///< traced names, declaration order
    /// The same with their widths, whether each changed so far, and a traced
    /// variable's kinds (after the run: what --gtkw's save file shows).
    std::vector<TracedSignal> traced() const;
    /// The latest time of any value change recorded so far (written or pending).
    sc_core::sc_time latest_change() const { return m_latest; }
    size_t pending() const { return m_pending.size(); }
    uint64_t late_changes() const { return m_late; }   ///< applied after their time (shown at arrival)
    uint64_t stale_changes() const { return m_stale; } ///< dropped: older than the value shown

    /// `path` without a trailing ".vcd".
    static std::string file_base(const std::string& path);
    /// True when `name` matches one of the comma-separated globs of `filter`
    /// (blank entries ignored; an empty filter matches everything).
    static bool matches(const std::string& filter, const std::string& name);
    /// Core operation code (signal unit<u>.core<c>.op), docs/traces.md:
    /// 0 none, 1 compute, 2 load, 3 store, 4 done, 10 lock_acquire,
    /// 11 lock_release, 12 barrier_wait_within_unit, 13 barrier_wait_across_units,
    /// 14 sem_wait, 15 sem_post, 16 cond_wait, 17 cond_signal, 18 cond_broadcast,
    /// 19 create_syncvar, 20 destroy_syncvar, 255 anything else. A Table 2
    /// call's message opcode (lock_acquire_local, cond_broad_local, ...) maps
    /// to the call.
    static unsigned operation_code(const char* operation);
    /// (code, name) of every operation code, the call's own name first for
    /// each code (the table operation_code() reads; GTKWave filter files).
    static std::vector<std::pair<unsigned, std::string>> operation_names();
    /// lock_owner value of a lock held by core `core` of unit `se`.
    static uint32_t owner_code(unsigned se, unsigned core) { return se * 1000u + core + 1u; }
    /// "var_0x<hex>": the scope of a traced variable.
    static std::string var_scope(uint64_t addr);

private:
    struct Sig {
        enum class Kind : uint8_t { word, bit, vector };
        std::string name;
        Kind kind = Kind::word;
        unsigned width = 1;
        sc_dt::uint64 word = 0;
        bool bit = false;
        std::unique_ptr<sc_dt::sc_bv_base> vec;
        sc_core::sc_time last; ///< record time of the value shown (sets only)
        bool set_once = false;
        bool changed = false;                ///< ever shown (at a time step's end) a value other than 0
        const unsigned* var_kinds = nullptr; ///< a traced variable's kinds (m_var_kinds), else null
        bool nonzero() const;
        void assign(uint64_t v);
        void assign_bits(const std::string& bits); ///< '1' = 1, core/SE 0 last
        std::string text() const;                  ///< VCD value, e.g. "b101", "1"
    };
    struct Change {
        sc_core::sc_time at;
        uint64_t seq = 0;
        Sig* sig = nullptr;
        bool add = false; ///< add `delta` instead of setting `value`
        uint64_t value = 0;
        int64_t delta = 0;
        std::string bits; ///< vector signals
        bool operator>(const Change& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    struct SeSigs {
        Sig *st_occupancy, *buffer_waiting, *spu_busy, *counters_in_use, *overflow;
    };
    struct CoreSigs {
        Sig *state, *op, *addr;
    };
    struct VarSigs {
        Sig *lock_owner, *local_waiting, *global_waiting, *barrier_count, *sem_resources, *buffered, *in_memory;
    };
    struct LinkSigs {
        Sig *bytes, *transfers;
    };

    Sig* declare(const std::string& name, Sig::Kind kind, unsigned width);
    void set(Sig* s, const sc_core::sc_time& at, uint64_t value);
    void set_bits(Sig* s, const sc_core::sc_time& at, const std::string& bits);
    void add(Sig* s, const sc_core::sc_time& at, int64_t delta);
    void push(Change&& c);
    void schedule(); ///< apply what is due, arm m_wake for the rest
    void apply_due(const sc_core::sc_time& now);
    void apply(const Change& c, const sc_core::sc_time& now);
    void note_changes();        ///< once a time step is over: Sig::changed of the signals it touched
    void wake();                ///< SC_METHOD on m_wake
    void append_pending();      ///< after the trace file is closed
    void check_written() const; ///< throws when SystemC lost a write (see close())

    std::string m_file; ///< the final name (messages, file())
    StagedFile m_out;   ///< what is written until close() renames it to m_file
    std::string m_filter;
    VcdLayout m_layout;
    sc_core::sc_trace_file* m_tf = nullptr;
    bool m_closed = false;
    std::deque<Sig> m_sigs; ///< stable addresses: sc_trace keeps references
    std::vector<SeSigs> m_se;
    std::vector<std::vector<CoreSigs>> m_cores;
    std::map<uint64_t, std::vector<VarSigs>> m_vars;
    std::map<uint64_t, unsigned> m_var_kinds; ///< bit 1 << Primitive of each kind a variable was reported as
    std::map<std::pair<unsigned, unsigned>, LinkSigs> m_links;
    std::unordered_map<std::string, Sig*> m_queues;
    std::map<std::pair<unsigned, unsigned>, Sig*> m_vaults; // requests in flight
    std::priority_queue<Change, std::vector<Change>, std::greater<Change>> m_pending;
    std::vector<Sig*> m_unsettled; ///< touched in time step m_step and not yet known to have changed
    sc_core::sc_time m_step;       ///< the time step of the changes applied last
    uint64_t m_seq = 0;
    sc_core::sc_time m_latest;
    uint64_t m_late = 0, m_stale = 0;
    sc_core::sc_event m_wake;
};

} // namespace syncron
