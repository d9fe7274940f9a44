#pragma once
// The Synchronization Engine as an sc_module: a timing shell around SeCore.
// Messages arrive as TLM WRITEs on `in` (data = 140-bit wire form, and/or a
// SyncronExtension) and are processed one at a time: cycles_per_message SPU
// cycles, plus ST and indexing-counter accesses, plus the real latency of
// syncronVar accesses on `to_mem`. AT: every message waits in the SPU's
// buffer for the SPU thread. LT: a core's message is served inside its
// sender's call, on the SPU's timeline (serve_lt); messages from other SEs
// wait in the buffer for their arrival time.
// Replies leave on `to_cores` (core mailboxes) and `to_ses` (other SEs and,
// with the abort overflow policy, the fallback server cores' mailboxes).
// Usable alone: any initiator that writes messages to `in` and a target that
// receives the replies are enough (see docs/se.md).
// Both timing styles at once on `in` (b_transport or 4-phase nb_transport);
// set_timing() picks how the SE itself initiates (LT: b_transport with
// annotated delays; AT: pooled payloads, 4-phase, and the message buffer
// applies back-pressure by withholding END_REQ while full).
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/common/sorted_fifo.h"
#include "models/common/stat_provider.h"
#include "models/protocol/tlm/syncron_extension.h"
#include "models/protocol/tlm/traffic_class.h"
#include "models/protocol/wire_format.h"
#include "models/se/core/se_core.h"
#include "models/se/lt_occupancy.h"
#include "models/se/lt_var_clock.h"
#include "models/tlm/at_initiator_port.h"
#include "models/tlm/at_target_port.h"
#include "models/tlm/payload_pool.h"
#include "models/tlm/resource_timeline.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

class SeModule : public sc_core::sc_module, public StatProvider, private SyncVarMemory {
public:
    tlm_utils::simple_target_socket<SeModule> in;
    tlm_utils::simple_initiator_socket<SeModule> to_cores;
    tlm_utils::simple_initiator_socket<SeModule> to_ses;
    tlm_utils::simple_initiator_socket<SeModule> to_mem;

    struct Stats {
        uint64_t processed = 0;          ///< messages taken from the buffer
        uint64_t rejected = 0;           ///< malformed messages answered with an error response
        sc_core::sc_time spu_busy;       ///< total SPU service time
        unsigned buffer_max = 0;         ///< most messages waiting at once
        uint64_t buffer_full_events = 0; ///< arrivals that found buffer_messages already waiting (back-pressure in AT)
        unsigned st_max = 0;             ///< AT: most ST entries occupied at once (both timings: st_max())
        uint64_t mem_accesses = 0;       ///< syncronVar reads and writes
        double st_occupancy_integral_ns = 0; ///< ST entries x ns, for the time average
        sc_core::sc_time last_change;
    };

    SC_HAS_PROCESS(SeModule);
    SeModule(sc_core::sc_module_name name, unsigned unit, const SeParams& params, const SeTopology& topology,
             const AddressMap& map);

    /// Attach a probe (before sc_start); nullptr = tracing off.
    void set_trace(TraceSink* sink) { m_trace = sink; }
    /// Report this SE's view of a variable with every message it serves for it.
    void trace_var(uint64_t addr) { m_traced_vars.push_back(addr); }
    /// How the SE initiates (before sc_start). Default: loosely-timed.
    void set_timing(Timing t) { m_timing = t; }
    Timing timing() const { return m_timing; }
    /// AT payloads currently out (0 when the SE is quiet).
    size_t payloads_in_use() const { return m_pool.in_use(); }

    const SeCore& core() const { return m_core; }
    const Stats& stats() const { return m_stats; }
    /// This module's group of statistics (docs/stats.md); in se_module_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    unsigned unit() const { return m_unit; }
    const SeParams& params() const { return m_params; }
    /// Time-weighted average ST occupancy (entries) up to `now`.
    double st_occupancy_avg(const sc_core::sc_time& now) const;
    /// Most ST entries occupied at once, in simulated time.
    unsigned st_max() const;
    sc_core::sc_time cycle() const { return m_cycle; }

private:
    struct Arrival {
        sc_core::sc_time time;
        uint64_t seq;
        Message msg;
        bool operator<(const Arrival& o) const { return time != o.time ? time < o.time : seq < o.seq; }
    };

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    /// The message of `trans`; `check` = false skips validation (already done on arrival).
    bool decode(tlm::tlm_generic_payload& trans, Message& msg, std::string& why, bool check = true) const;
    void spu();
    /// LT: serves `a` at once in the caller's context (docs/timing.md, "The SE
    /// in LT"): the SPU is booked on its timeline no earlier than the arrival
    /// and what the variable's clock holds, and the replies leave annotated.
    void serve_lt(const Arrival& a);
    /// serve_lt, or queued behind the message this SE is serving (re-entry).
    void serve_now(const Arrival& a);
    /// The SPU work common to both styles: runs the message through SeCore
    /// starting at `start` and returns its service time.
    sc_core::sc_time service(const Message& msg, const sc_core::sc_time& start);
    void emit(const Outgoing& o, const sc_core::sc_time& delay);
    void note_st_change(const sc_core::sc_time& at);
    void trace_arrival(const tlm::tlm_generic_payload& t, const Message& msg, const sc_core::sc_time& arrived);
    void trace_service(const Message& msg, const sc_core::sc_time& arrival, const sc_core::sc_time& start,
                       const sc_core::sc_time& end, unsigned waiting);

    // SyncVarMemory: the overflow path's accesses to the local vaults.
    void read(uint64_t addr, uint8_t* data, unsigned len) override;
    void write(uint64_t addr, const uint8_t* data, unsigned len) override;
    void mem_access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len);
    void fill_message(tlm::tlm_generic_payload& t, const Outgoing& o, uint8_t* data) const;
    /// MMIO address of an outgoing message's receiver: a core mailbox
    /// (flat: of any unit), an SE port, or a fallback server's mailbox.
    uint64_t destination_address(const Outgoing& o) const;
    void report_delivery_error(const tlm::tlm_generic_payload& t) const;

    // AT: `in` and the three initiator sockets on the AT engine; the SE keeps
    // its message buffer's back-pressure and one send queue per socket.
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
    void at_request(tlm::tlm_generic_payload& t);
    void accept_request(tlm::tlm_generic_payload& t);
    void release_withheld();
    enum OutIndex : unsigned { kToCores = 0, kToSes = 1, kToMem = 2 }; // indices of m_out_port
    struct OutQueue {
        std::deque<tlm::tlm_generic_payload*> queue;
        sc_core::sc_event ready;
    };
    tlm::tlm_sync_enum bw_cores(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_out_port.nb_transport_bw(kToCores, t, ph, d);
    }
    tlm::tlm_sync_enum bw_ses(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_out_port.nb_transport_bw(kToSes, t, ph, d);
    }
    tlm::tlm_sync_enum bw_mem(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_out_port.nb_transport_bw(kToMem, t, ph, d);
    }
    void at_response(unsigned index, tlm::tlm_generic_payload& t);
    void sender(unsigned index);
    void send_cores() { sender(kToCores); }
    void send_ses() { sender(kToSes); }

    unsigned m_unit;
    SeParams m_params;
    AddressMap m_map;
    WireLayout m_layout;
    bool m_wire_ok;
    SeCore m_core;
    sc_core::sc_time m_cycle;

    unsigned waiting_at(const sc_core::sc_time& t) const; // buffered messages arrived by t

    SortedFifo<Arrival> m_buffer; // sorted by (arrival time, sequence)
    uint64_t m_seq = 0;
    sc_core::sc_event m_arrival;
    SeResult m_result;
    sc_core::sc_time m_mem_delay; // accumulated while serving one message
    Stats m_stats;

    TraceSink* m_trace = nullptr;
    std::vector<uint64_t> m_traced_vars;
    Timing m_timing = Timing::lt;
    tlm::tlm_generic_payload m_lt_trans; // the LT path's payload, reused
    PayloadPool m_pool;
    SyncTrafficExtension m_sync_tag;                // on every syncronVar access (traffic_class.h)
    AtTargetPort m_in_port;                         // 4-phase target side of `in`
    AtInitiatorPort m_out_port;                     // 4-phase initiator side of to_cores, to_ses, to_mem
    tlm::tlm_generic_payload* m_withheld = nullptr; // request held back while the buffer is full
    OutQueue m_out[2];                              // to_cores, to_ses
    // Memory access of the SPU in AT.
    sc_core::sc_event m_mem_done;
    bool m_mem_pending = false;
    sc_core::sc_time m_msg_start;        // when the SPU started the current message
    sc_core::sc_time m_last_mem_latency; // of the last syncronVar access, for traces
    sc_core::sc_time m_spu_free;         // when the SPU finishes its last message

    // LT direct service: messages that reach the SE while it serves one (a
    // reply to its own emit) wait here in call order; the SPU's booked time;
    // what later messages must not overtake per variable.
    std::deque<Arrival> m_lt_pending;
    bool m_lt_serving = false;
    ResourceTimeline m_spu_timeline;
    LtVarClock m_var_clock;
    LtOccupancy m_lt_occupancy;
};

} // namespace syncron
