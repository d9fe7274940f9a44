#pragma once
// The Synchronization Engine as an sc_module (docs/se.md): sockets around
// SeService (decode, SeCore, the SPU's service time, statistics, traces) and
// SeBuffer (the SPU's message buffer), timed by one of two shells behind
// SeTransport, picked by set_timing():
//  - SeLtTransport (default): a core's message is served inside its sender's
//    call, on the SPU's timeline; messages from other SEs wait in the buffer
//    for their arrival time; replies and syncronVar accesses are b_transport
//    calls with annotated delays;
//  - SeAtTransport: every message waits in the buffer for the SPU thread;
//    replies and syncronVar accesses are 4-phase transactions on pooled
//    payloads, and the buffer applies back-pressure by withholding END_REQ.
// `in` takes both styles (b_transport or 4-phase nb_transport) in both.
// Messages arrive as TLM WRITEs (data = 140-bit wire form, and/or a
// SyncronExtension); replies leave on `to_cores` (core mailboxes) and
// `to_ses` (other SEs and, with the abort overflow policy, the fallback
// server cores' mailboxes); syncronVar accesses on `to_mem`.
// Usable alone: any initiator that writes messages to `in` and a target that
// receives the replies are enough (see docs/se.md).
#include <cstddef>
#include <cstdint>
#include <memory>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/se/core/se_core.h"
#include "models/se/se_at_transport.h"
#include "models/se/se_buffer.h"
#include "models/se/se_lt_transport.h"
#include "models/se/se_service.h"
#include "models/se/se_stats.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

class SeModule : public sc_core::sc_module, public StatProvider {
public:
    tlm_utils::simple_target_socket<SeModule> in;
    tlm_utils::simple_initiator_socket<SeModule> to_cores;
    tlm_utils::simple_initiator_socket<SeModule> to_ses;
    tlm_utils::simple_initiator_socket<SeModule> to_mem;

    using Stats = SeStats;

    SC_HAS_PROCESS(SeModule);
    SeModule(sc_core::sc_module_name name, unsigned unit, const SeParams& params, const SeTopology& topology,
             const AddressMap& map);

    /// Attach a probe (before sc_start); nullptr = tracing off.
    void set_trace(TraceSink* sink) { m_service.set_trace(sink); }
    /// Report this SE's view of a variable with every message it serves for it.
    void trace_var(uint64_t addr) { m_service.trace_var(addr); }
    /// How the SE initiates (before sc_start). Default: loosely-timed.
    void set_timing(Timing t);
    Timing timing() const { return m_transport->timing(); }
    /// LT: messages and memory accesses take this direct path where it
    /// covers them (docs/timing.md, "The direct path"); not owned.
    void set_direct_path(LtDirectPath* path) { m_lt.set_direct(path); }
    /// LT: messages the interconnect queues in front of `in` before it holds
    /// their senders back (a crossbar's queue_depth); with se.buffer_messages
    /// the bound of the SE's input (docs/timing.md, "The SE in LT"). Default 0.
    void set_upstream_queue(unsigned messages) { m_lt.set_upstream_queue(messages); }
    /// AT payloads currently out (0 when the SE is quiet).
    size_t payloads_in_use() const { return m_transport->payloads_in_use(); }

    const SeCore& core() const { return m_service.core(); }
    /// Reads the lock fairness threshold from `threshold` from now on (shared, changeable at run time).
    void share_lock_fairness(std::shared_ptr<unsigned> threshold) {
        m_service.core().share_lock_fairness(std::move(threshold));
    }
    const Stats& stats() const { return m_service.stats(); }
    /// This module's group of statistics (docs/stats.md); in se_module_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    unsigned unit() const { return m_service.unit(); }
    const SeParams& params() const { return m_service.params(); }
    /// Time-weighted average ST occupancy (entries) up to `now`.
    double st_occupancy_avg(const sc_core::sc_time& now) const;
    /// Most ST entries occupied at once, in simulated time.
    unsigned st_max() const { return m_transport->st_max(); }
    sc_core::sc_time cycle() const { return m_service.cycle(); }

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_buffer.nb_transport_fw(t, ph, d);
    }
    // The initiator sockets' backward paths: only the AT shell initiates 4-phase.
    tlm::tlm_sync_enum bw_cores(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_at.nb_transport_bw(SeAtTransport::kToCores, t, ph, d);
    }
    tlm::tlm_sync_enum bw_ses(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_at.nb_transport_bw(SeAtTransport::kToSes, t, ph, d);
    }
    tlm::tlm_sync_enum bw_mem(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_at.nb_transport_bw(SeAtTransport::kToMem, t, ph, d);
    }
    /// The SPU thread: takes each buffered message once its arrival time has come.
    void spu();

    // Both shells are built here, while the module is under construction
    // (their event queues and threads are its children); set_timing() picks one.
    SeService m_service;
    SeBuffer m_buffer;
    SeLtTransport m_lt;
    SeAtTransport m_at;
    SeTransport* m_transport = &m_lt;
};

} // namespace syncron
