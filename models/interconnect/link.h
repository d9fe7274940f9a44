#pragma once
// One direction of an inter-cube link between two units (docs/link.md).
// Both timing styles on the same instance:
//
// Loosely-timed: b_transport adds the wait for the serializer, the
// serialization of the data at the link bandwidth and the fixed pipeline
// latency, then forwards the payload unchanged. latency_ns is the time of one
// 64 B line on an idle link, serialization included, so the fixed part is
// latency_ns - 64 B / bandwidth. The serializer is a ResourceTimeline (first
// fit, so temporally decoupled initiators do not queue behind each other's
// future bookings).
//
// Approximately-timed (4-phase nb_transport, docs/timing.md): a FIFO of
// LinkParams::queue_depth transfers (credits). A BEGIN_REQ is accepted
// (END_REQ) while fewer than queue_depth transfers are between acceptance and
// the downstream's END_REQ, otherwise END_REQ is withheld until one leaves
// (back-pressure). An accepted transfer is serialized on the same timeline,
// crosses the fixed latency, then is offered downstream in FIFO order, one at
// a time (request exclusion).
//
// Responses travel back over the reverse direction (set_reverse): a READ's
// data books the reverse link's serializer, then its fixed latency; any other
// response carries no data and pays the fixed latency only. Without a reverse
// link the response passes back free and the request books its data length
// here whatever the command (the rule before reverse links existed). LT and
// AT apply the same rule.
#include <cstddef>
#include <cstdint>
#include <deque>

#include <tlm_utils/peq_with_cb_and_phase.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/tlm/trace_sink.h"
#include "models/tlm/resource_timeline.h"

namespace syncron {

class Link : public sc_core::sc_module, public StatProvider {
public:
    tlm_utils::simple_target_socket<Link> in;
    tlm_utils::simple_initiator_socket<Link> out;

    /// When a transfer holds the serializer and when it reaches the far end
    /// (absolute simulation times).
    struct Schedule {
        sc_core::sc_time start;     ///< serializer granted
        sc_core::sc_time link_free; ///< last byte sent
        sc_core::sc_time arrive;    ///< last byte delivered (link_free + latency())
    };

    SC_HAS_PROCESS(Link);
    Link(const sc_core::sc_module_name& name, unsigned src_unit, unsigned dst_unit,
         const LinkParams& params);
    /// Attach a probe (before sc_start); nullptr = tracing off.
    void set_trace(TraceSink* sink) { m_trace = sink; }

    /// The link of the opposite direction (dst_unit -> src_unit), which
    /// carries this link's responses; nullptr (the default) = responses pass
    /// back free. Not owned; set before sc_start. Call it on both links of a
    /// pair for both directions to account their responses.
    void set_reverse(Link* reverse);
    Link* reverse() const { return m_reverse; }

    unsigned src_unit() const { return m_src; }
    unsigned dst_unit() const { return m_dst; }
    const LinkParams& params() const { return m_params; }

    // Timing helpers (no side effects).
    /// Time to push `bytes` through the link at bandwidth_gbps (GB/s = bytes/ns).
    sc_core::sc_time serialization(unsigned bytes) const;
    /// Fixed pipeline latency: latency_ns minus the serialization of one 64 B
    /// line, at least 0.
    sc_core::sc_time latency() const { return m_latency; }
    /// Time of a transfer of `bytes` on an idle link: latency() + serialization(bytes).
    sc_core::sc_time transfer_latency(unsigned bytes) const { return m_latency + serialization(bytes); }
    /// Bytes the request of `trans` serializes on this link: its data length,
    /// except a READ when a reverse link is set (its data comes back there).
    unsigned request_bytes(const tlm::tlm_generic_payload& trans) const;
    /// End of the last serializer booking.
    sc_core::sc_time busy_until() const { return m_serializer.busy_until(); }
    const ResourceTimeline& serializer() const { return m_serializer; }

    // Statistics.
    /// Timed transfers / data bytes carried: this link's requests plus the
    /// READ data of its reverse link's responses.
    uint64_t transfers() const { return m_transfers; }
    uint64_t bytes() const { return m_bytes; }
    /// Of transfers(): READ data of the reverse link's responses.
    uint64_t response_transfers() const { return m_response_transfers; }
    /// Total time the serializer was occupied (since the last reset_stats()).
    const sc_core::sc_time& busy_time() const { return m_busy; }
    /// Sum over transfers of the time spent waiting for the link: the wait
    /// for the serializer (LT and AT) plus, in AT, the wait at the far end
    /// for the downstream's END_REQ.
    const sc_core::sc_time& queueing_delay() const { return m_queueing; }
    /// AT: transfers accepted and not yet accepted downstream (at most queue_depth).
    std::size_t queue_occupancy() const { return m_queue.size(); }
    /// AT: the largest queue_occupancy() since the last reset_stats().
    std::size_t max_queue_occupancy() const { return m_max_occupancy; }
    /// AT: BEGIN_REQs whose END_REQ was withheld because the queue was full.
    uint64_t withheld() const { return m_withheld_count; }
    /// Bytes carried divided by `interval`, in GB/s (bytes/ns); 0 for an empty interval.
    double achieved_gbps(const sc_core::sc_time& interval) const;
    /// Fraction of `interval` the serializer was busy.
    double utilization(const sc_core::sc_time& interval) const;
    /// This module's group of statistics (docs/stats.md); in link_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    void reset_stats();

private:
    struct Transfer {
        tlm::tlm_generic_payload* trans;
        sc_core::sc_time arrive; ///< delivered at the far end (Schedule::arrive)
    };

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);

    /// Book the serializer for `bytes` arriving at `arrival` (first fit);
    /// updates the link state and statistics.
    Schedule schedule(unsigned bytes, const sc_core::sc_time& arrival, bool response = false);
    /// When the response of `trans`, leaving the far end at `leave`, is back
    /// at this link's input side (books the reverse serializer for READ data).
    sc_core::sc_time response_arrival(tlm::tlm_generic_payload& trans, const sc_core::sc_time& leave);

    // AT
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    bool begin_request(tlm::tlm_generic_payload& trans);
    void enqueue(tlm::tlm_generic_payload& trans);
    void downstream_phase(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase,
                          const sc_core::sc_time& delay);
    void downstream_accepted(tlm::tlm_generic_payload& trans);
    void downstream_response(tlm::tlm_generic_payload& trans);
    void send_responses();
    void finish_response(tlm::tlm_generic_payload& trans);
    void response_completed(tlm::tlm_generic_payload& trans);
    void delivery_thread();
    void fw_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);
    void bw_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);
    void resp_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);

    unsigned m_src;
    unsigned m_dst;
    LinkParams m_params;
    sc_core::sc_time m_latency;
    ResourceTimeline m_serializer;
    Link* m_reverse = nullptr;

    uint64_t m_transfers = 0;
    uint64_t m_bytes = 0;
    uint64_t m_response_transfers = 0;
    sc_core::sc_time m_busy;
    sc_core::sc_time m_queueing;

    // AT state
    std::deque<Transfer> m_queue;   ///< FIFO; the front may be offered downstream
    bool m_offered = false;         ///< m_queue.front() sent downstream, END_REQ pending
    bool m_request_open = false;    ///< BEGIN_REQ received, END_REQ not yet sent
    tlm::tlm_generic_payload* m_withheld = nullptr; ///< request waiting for a slot
    std::deque<tlm::tlm_generic_payload*> m_responses; ///< back at the input side, waiting for exclusion
    tlm::tlm_generic_payload* m_responding = nullptr;  ///< BEGIN_RESP sent upstream, not yet completed
    std::size_t m_max_occupancy = 0;
    uint64_t m_withheld_count = 0;
    sc_core::sc_event m_kick;
    tlm_utils::peq_with_cb_and_phase<Link> m_fw_peq;   ///< delayed BEGIN_REQ / END_RESP from upstream
    tlm_utils::peq_with_cb_and_phase<Link> m_bw_peq;   ///< delayed END_REQ / BEGIN_RESP from downstream
    tlm_utils::peq_with_cb_and_phase<Link> m_resp_peq; ///< responses crossing the reverse direction
    TraceSink* m_trace = nullptr;
};

} // namespace syncron
