#pragma once
// One direction of an inter-cube link between two units (docs/link.md).
// Loosely-timed: b_transport adds the wait for the serializer, the
// serialization of the data at the link bandwidth and the fixed pipeline
// latency, then forwards the payload unchanged. latency_ns is the time of one
// 64 B line on an idle link, serialization included, so the fixed part is
// latency_ns - 64 B / bandwidth. The serializer is a ResourceTimeline (first
// fit, so temporally decoupled initiators do not queue behind each other's
// future bookings); the timing helpers are separate from the transport code so
// an nb_transport (AT) path can reuse them.
#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/params.h"
#include "models/common/resource_timeline.h"

namespace syncron {

class Link : public sc_core::sc_module {
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

    Link(const sc_core::sc_module_name& name, unsigned src_unit, unsigned dst_unit,
         const LinkParams& params);

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
    /// End of the last serializer booking.
    sc_core::sc_time busy_until() const { return m_serializer.busy_until(); }
    const ResourceTimeline& serializer() const { return m_serializer; }

    // Statistics.
    uint64_t transfers() const { return m_transfers; }
    uint64_t bytes() const { return m_bytes; }
    /// Total time the serializer was occupied (since the last reset_stats()).
    const sc_core::sc_time& busy_time() const { return m_busy; }
    /// Sum over transfers of the time spent waiting for the link.
    const sc_core::sc_time& queueing_delay() const { return m_queueing; }
    /// Bytes carried divided by `interval`, in GB/s (bytes/ns); 0 for an empty interval.
    double achieved_gbps(const sc_core::sc_time& interval) const;
    /// Fraction of `interval` the serializer was busy.
    double utilization(const sc_core::sc_time& interval) const;
    void reset_stats();

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);

    /// Book the serializer for `bytes` arriving at `arrival` (first fit);
    /// updates the link state and statistics.
    Schedule schedule(unsigned bytes, const sc_core::sc_time& arrival);

    unsigned m_src;
    unsigned m_dst;
    LinkParams m_params;
    sc_core::sc_time m_latency;
    ResourceTimeline m_serializer;

    uint64_t m_transfers = 0;
    uint64_t m_bytes = 0;
    sc_core::sc_time m_busy;
    sc_core::sc_time m_queueing;
};

} // namespace syncron
