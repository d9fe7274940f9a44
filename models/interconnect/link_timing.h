#pragma once
// One link direction's function and timing formulas, free of any timing style
// (docs/link.md): the serializer as a ResourceTimeline (first fit), the
// serialization at the link bandwidth, the fixed pipeline latency
// (latency_ns less one 64 B line's serialization), which bytes a request and
// its response carry, and the statistics. The LT and AT shells of Link both
// book through it.
#include <array>
#include <cstdint>

#include <systemc>
#include <tlm>

#include "models/common/params.h"
#include "models/protocol/tlm/traffic_class.h"
#include "models/tlm/resource_timeline.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

class LinkTiming {
public:
    /// When a transfer holds the serializer and when it reaches the far end
    /// (absolute simulation times).
    struct Schedule {
        sc_core::sc_time start;     ///< serializer granted
        sc_core::sc_time link_free; ///< last byte sent
        sc_core::sc_time arrive;    ///< last byte delivered (link_free + latency())
    };

    LinkTiming(unsigned src_unit, unsigned dst_unit, const LinkParams& params);

    unsigned src_unit() const { return m_src; }
    unsigned dst_unit() const { return m_dst; }
    const LinkParams& params() const { return m_params; }
    void set_trace(TraceSink* sink) { m_trace = sink; }
    /// The opposite direction, which carries the responses (nullptr: free).
    void set_reverse(LinkTiming* reverse) { m_reverse = reverse; }
    bool has_reverse() const { return m_reverse != nullptr; }

    /// Time to push `bytes` through the link at bandwidth_gbps (GB/s = bytes/ns).
    sc_core::sc_time serialization(unsigned bytes) const;
    sc_core::sc_time latency() const { return m_latency; }
    /// Bytes the request of `trans` serializes: its data length, except a
    /// READ when a reverse link is set (its data comes back there).
    unsigned request_bytes(const tlm::tlm_generic_payload& trans) const;

    /// Book the serializer for `bytes` arriving at `arrival` (first fit);
    /// updates the statistics and the trace.
    Schedule schedule(unsigned bytes, const sc_core::sc_time& arrival, bool response = false,
                      TrafficClass cls = TrafficClass::data);
    /// When the response of `trans`, leaving the far end at `leave`, is back
    /// at this link's input side (books the reverse serializer for returned data).
    sc_core::sc_time response_arrival(const tlm::tlm_generic_payload& trans, const sc_core::sc_time& leave);
    /// LT: the request of `trans` crosses, arriving at sc_time_stamp() +
    /// `delay`; `delay` grows by its queueing, serialization and latency.
    void lt_request(const tlm::tlm_generic_payload& trans, TrafficClass cls, sc_core::sc_time& delay);
    /// LT: the response of `trans`, leaving the far end at sc_time_stamp() +
    /// `delay`, comes back (over the reverse link, when there is one).
    void lt_response(const tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    /// Further queueing (AT: the wait at the far end for the downstream's END_REQ).
    void add_queueing(const sc_core::sc_time& extra) { m_queueing += extra; }

    const ResourceTimeline& serializer() const { return m_serializer; }
    uint64_t transfers() const { return m_transfers; }
    uint64_t bytes() const { return m_bytes; }
    /// Bytes of synchronization traffic (traffic_class), requests and responses.
    uint64_t sync_bytes() const { return m_sync_bytes; }
    uint64_t response_transfers() const { return m_response_transfers; }
    const sc_core::sc_time& busy_time() const { return m_busy; }
    const sc_core::sc_time& queueing_delay() const { return m_queueing; }
    void reset_stats();

private:
    unsigned m_src;
    unsigned m_dst;
    LinkParams m_params;
    sc_core::sc_time m_latency;
    // serialization() is asked per transfer: computed once per length up to
    // kMemoBytes (the same value, no sc_time built from a double per transfer).
    static constexpr unsigned kMemoBytes = 64;
    struct Memo {
        sc_core::sc_time value;
        bool set = false;
    };
    mutable std::array<Memo, kMemoBytes + 1> m_serialization_memo{};
    ResourceTimeline m_serializer;
    LinkTiming* m_reverse = nullptr;
    TraceSink* m_trace = nullptr;

    uint64_t m_transfers = 0;
    uint64_t m_bytes = 0;
    uint64_t m_sync_bytes = 0;
    uint64_t m_response_transfers = 0;
    sc_core::sc_time m_busy;
    sc_core::sc_time m_queueing;
};

} // namespace syncron
