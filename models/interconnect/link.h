#pragma once
// One direction of an inter-cube link between two units (docs/link.md).
// Both timing styles on the same instance, as thin shells around LinkTiming
// (serializer, latency, response bytes); the AT shell's 4-phase handshake is
// the AT engine's (AtTargetPort on `in`, AtInitiatorPort on `out`,
// docs/timing.md):
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

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/interconnect/link_timing.h"
#include "models/tlm/at_initiator_port.h"
#include "models/tlm/at_target_port.h"
#include "models/tlm/resource_timeline.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

class Link : public sc_core::sc_module, public StatProvider {
public:
    tlm_utils::simple_target_socket<Link> in;
    tlm_utils::simple_initiator_socket<Link> out;

    using Schedule = LinkTiming::Schedule;

    SC_HAS_PROCESS(Link);
    Link(const sc_core::sc_module_name& name, unsigned src_unit, unsigned dst_unit, const LinkParams& params);
    /// Attach a probe (before sc_start); nullptr = tracing off.
    void set_trace(TraceSink* sink) { m_timing.set_trace(sink); }

    /// The link of the opposite direction (dst_unit -> src_unit), which
    /// carries this link's responses; nullptr (the default) = responses pass
    /// back free. Not owned; set before sc_start. Call it on both links of a
    /// pair for both directions to account their responses.
    void set_reverse(Link* reverse);
    Link* reverse() const { return m_reverse; }

    unsigned src_unit() const { return m_timing.src_unit(); }
    unsigned dst_unit() const { return m_timing.dst_unit(); }
    const LinkParams& params() const { return m_timing.params(); }
    /// The function and timing the LT shell books through (the LT direct path books the same).
    LinkTiming& timing() { return m_timing; }

    // Timing helpers (no side effects).
    /// Time to push `bytes` through the link at bandwidth_gbps (GB/s = bytes/ns).
    sc_core::sc_time serialization(unsigned bytes) const { return m_timing.serialization(bytes); }
    /// Fixed pipeline latency: latency_ns minus the serialization of one 64 B
    /// line, at least 0.
    sc_core::sc_time latency() const { return m_timing.latency(); }
    /// Time of a transfer of `bytes` on an idle link: latency() + serialization(bytes).
    sc_core::sc_time transfer_latency(unsigned bytes) const { return latency() + serialization(bytes); }
    /// Bytes the request of `trans` serializes on this link: its data length,
    /// except a READ when a reverse link is set (its data comes back there).
    unsigned request_bytes(const tlm::tlm_generic_payload& trans) const { return m_timing.request_bytes(trans); }
    /// End of the last serializer booking.
    sc_core::sc_time busy_until() const { return serializer().busy_until(); }
    const ResourceTimeline& serializer() const { return m_timing.serializer(); }

    // Statistics.
    /// Timed transfers / data bytes carried: this link's requests plus the
    /// READ data of its reverse link's responses.
    uint64_t transfers() const { return m_timing.transfers(); }
    uint64_t bytes() const { return m_timing.bytes(); }
    uint64_t sync_bytes() const { return m_timing.sync_bytes(); }
    /// Of transfers(): READ data of the reverse link's responses.
    uint64_t response_transfers() const { return m_timing.response_transfers(); }
    /// Total time the serializer was occupied (since the last reset_stats()).
    const sc_core::sc_time& busy_time() const { return m_timing.busy_time(); }
    /// Sum over transfers of the time spent waiting for the link: the wait
    /// for the serializer (LT and AT) plus, in AT, the wait at the far end
    /// for the downstream's END_REQ.
    const sc_core::sc_time& queueing_delay() const { return m_timing.queueing_delay(); }
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

    // LT shell
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);

    // AT shell (link_at.cpp)
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    /// BEGIN_REQ: accepted while a credit is left, otherwise withheld.
    void begin_request(tlm::tlm_generic_payload& trans);
    void enqueue(tlm::tlm_generic_payload& trans);
    /// The downstream target accepted the transfer at the front of the queue.
    void downstream_accepted(tlm::tlm_generic_payload& trans);
    /// Downstream BEGIN_RESP: the response crosses the reverse direction.
    void downstream_response(tlm::tlm_generic_payload& trans);
    void delivery_thread();
    void resp_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);

    LinkTiming m_timing;
    Link* m_reverse = nullptr;

    // AT state
    std::deque<Transfer> m_queue;                   ///< FIFO; the front may be offered downstream
    tlm::tlm_generic_payload* m_withheld = nullptr; ///< request waiting for a slot
    std::size_t m_max_occupancy = 0;
    uint64_t m_withheld_count = 0;
    sc_core::sc_event m_kick;
    AtTargetPort m_in_port;     ///< 4-phase target side of `in` (its queue: delayed BEGIN_REQ / END_RESP)
    AtInitiatorPort m_out_port; ///< 4-phase initiator side of `out` (its queue: delayed END_REQ / BEGIN_RESP)
    tlm_utils::peq_with_cb_and_phase<Link> m_resp_peq; ///< responses crossing the reverse direction
};

} // namespace syncron
