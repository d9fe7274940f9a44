#include "models/interconnect/link.h"

#include <algorithm>

namespace syncron {

using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
constexpr double kLineBytes = 64.0; // the line latency_ns is quoted for
} // namespace

Link::Link(const sc_core::sc_module_name& name, unsigned src_unit, unsigned dst_unit,
           const LinkParams& params)
    : sc_module(name),
      in("in"),
      out("out"),
      m_src(src_unit),
      m_dst(dst_unit),
      m_params(params) {
    if (params.bandwidth_gbps <= 0 || params.latency_ns < 0)
        SC_REPORT_ERROR(this->name(), "link: bandwidth_gbps must be positive and latency_ns not negative");
    // latency_ns is quoted per 64 B line with its serialization included; a
    // latency shorter than that serialization leaves no fixed part.
    if (params.bandwidth_gbps > 0)
        m_latency = sc_time(std::max(0.0, params.latency_ns - kLineBytes / params.bandwidth_gbps), SC_NS);
    in.register_b_transport(this, &Link::b_transport);
    in.register_transport_dbg(this, &Link::transport_dbg);
}

sc_time Link::serialization(unsigned bytes) const {
    return sc_time(bytes / m_params.bandwidth_gbps, SC_NS); // GB/s == bytes per ns
}

Link::Schedule Link::schedule(unsigned bytes, const sc_time& arrival) {
    // Nothing can arrive before the current time: older bookings are dead.
    m_serializer.prune(sc_core::sc_time_stamp());
    Schedule s;
    const sc_time ser = serialization(bytes);
    s.start = m_serializer.book(arrival, ser);
    s.link_free = s.start + ser;
    s.arrive = s.link_free + m_latency;
    ++m_transfers;
    m_bytes += bytes;
    m_busy += ser;
    m_queueing += s.start - arrival;
    return s;
}

void Link::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    const sc_time arrival = sc_core::sc_time_stamp() + delay;
    const Schedule s = schedule(trans.get_data_length(), arrival);
    delay += s.arrive - arrival; // queueing + serialization + fixed pipeline latency
    out->b_transport(trans, delay);
}

unsigned Link::transport_dbg(tlm::tlm_generic_payload& trans) {
    return out->transport_dbg(trans);
}

double Link::achieved_gbps(const sc_time& interval) const {
    const double ns = interval.to_seconds() * 1e9;
    return ns > 0 ? static_cast<double>(m_bytes) / ns : 0.0;
}

double Link::utilization(const sc_time& interval) const {
    return interval > sc_core::SC_ZERO_TIME ? m_busy / interval : 0.0;
}

void Link::reset_stats() {
    m_transfers = m_bytes = 0;
    m_busy = m_queueing = sc_core::SC_ZERO_TIME;
}

} // namespace syncron
