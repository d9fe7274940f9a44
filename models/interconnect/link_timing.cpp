#include "models/interconnect/link_timing.h"

#include <algorithm>

#include "models/protocol/tlm/atomic_extension.h"
#include "models/tlm/kernel_time.h"

namespace syncron {

using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

namespace {
constexpr double kLineBytes = 64.0; // the line latency_ns is quoted for
} // namespace

LinkTiming::LinkTiming(unsigned src_unit, unsigned dst_unit, const LinkParams& params)
    : m_src(src_unit), m_dst(dst_unit), m_params(params) {
    // latency_ns is quoted per 64 B line with its serialization included; a
    // latency shorter than that serialization leaves no fixed part.
    if (params.bandwidth_gbps > 0)
        m_latency = sc_time(std::max(0.0, params.latency_ns - kLineBytes / params.bandwidth_gbps), SC_NS);
}

sc_time LinkTiming::serialization(unsigned bytes) const {
    if (bytes <= kMemoBytes) {
        Memo& m = m_serialization_memo[bytes];
        if (!m.set) m = {sc_time(bytes / m_params.bandwidth_gbps, SC_NS), true}; // GB/s == bytes per ns
        return m.value;
    }
    return sc_time(bytes / m_params.bandwidth_gbps, SC_NS);
}

unsigned LinkTiming::request_bytes(const tlm::tlm_generic_payload& trans) const {
    return (m_reverse != nullptr && trans.is_read()) ? 0u : trans.get_data_length();
}

LinkTiming::Schedule LinkTiming::schedule(unsigned bytes, const sc_time& arrival, bool response, TrafficClass cls) {
    // Nothing can arrive before the current time: older bookings are dead.
    m_serializer.prune(kernel_time());
    Schedule s;
    const sc_time ser = serialization(bytes);
    s.start = m_serializer.book(arrival, ser);
    s.link_free = s.start + ser;
    s.arrive = s.link_free + m_latency;
    ++m_transfers;
    if (response) ++m_response_transfers;
    m_bytes += bytes;
    if (cls == TrafficClass::sync) m_sync_bytes += bytes;
    m_busy += ser;
    m_queueing += s.start - arrival;
    if (m_trace && bytes) m_trace->on_link({m_src, m_dst, bytes, response, s.start, s.link_free, s.arrive});
    return s;
}

sc_time LinkTiming::response_arrival(const tlm::tlm_generic_payload& trans, const sc_time& leave) {
    if (m_reverse == nullptr) return leave; // no reverse link: the response is free
    // Data comes back for a read, and for an atomic (its old value).
    const bool data_back = trans.is_read() || trans.get_extension<AtomicExtension>() != nullptr;
    if (data_back && trans.is_response_ok())
        return m_reverse->schedule(trans.get_data_length(), leave, true, traffic_class(trans)).arrive;
    return leave + m_reverse->latency(); // no data: the fixed latency only
}

void LinkTiming::lt_request(const tlm::tlm_generic_payload& trans, TrafficClass cls, sc_time& delay) {
    const sc_time arrival = kernel_time() + delay;
    delay += schedule(request_bytes(trans), arrival, false, cls).arrive - arrival;
}

void LinkTiming::lt_response(const tlm::tlm_generic_payload& trans, sc_time& delay) {
    if (m_reverse == nullptr) return; // no reverse link: the response is free
    const sc_time leave = kernel_time() + delay;
    delay += response_arrival(trans, leave) - leave;
}

void LinkTiming::reset_stats() {
    m_transfers = m_bytes = m_response_transfers = m_sync_bytes = 0;
    m_busy = m_queueing = SC_ZERO_TIME;
}

} // namespace syncron
