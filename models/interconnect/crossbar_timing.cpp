#include "models/interconnect/crossbar_timing.h"

#include <algorithm>

#include "models/tlm/kernel_time.h"

namespace syncron {

using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

CrossbarTiming::CrossbarTiming(const XbarParams& params)
    : m_params(params), m_cycle(params.clock_ghz > 0 ? sc_time(1.0 / params.clock_ghz, SC_NS) : SC_ZERO_TIME),
      m_hop(m_cycle * static_cast<double>(params.arbiter_cycles + params.hop_cycles)) {}

unsigned CrossbarTiming::flits(unsigned bytes) const {
    return std::max(1u, (bytes + m_params.flit_bytes - 1) / m_params.flit_bytes);
}

CrossbarTiming::Schedule CrossbarTiming::schedule(unsigned port, unsigned bytes, const sc_time& arrival,
                                                  TrafficClass cls) {
    Port& p = m_ports[port];
    if (cls == TrafficClass::sync) m_sync_bytes += bytes;
    // Nothing can arrive before the current time: older bookings are dead.
    p.timeline.prune(kernel_time());
    const sc_time occupancy = m_cycle * static_cast<double>(flits(bytes));
    Schedule s;
    s.start = p.timeline.book(arrival, occupancy);
    s.port_free = s.start + occupancy;
    ++p.transfers;
    p.bytes += bytes;
    p.queueing += s.start - arrival;
    m_queueing += s.start - arrival;
    return s;
}

void CrossbarTiming::lt_hop(unsigned port, unsigned bytes, TrafficClass cls, sc_time& delay) {
    const sc_time arrival = kernel_time() + delay;
    const Schedule s = schedule(port, bytes, arrival, cls);
    delay += (s.start - arrival) + m_hop;
}

void CrossbarTiming::add_queueing(unsigned port, const sc_time& extra) {
    m_ports[port].queueing += extra;
    m_queueing += extra;
}

uint64_t CrossbarTiming::total_transfers() const {
    uint64_t n = 0;
    for (const Port& p : m_ports) n += p.transfers;
    return n;
}

uint64_t CrossbarTiming::total_bytes() const {
    uint64_t n = 0;
    for (const Port& p : m_ports) n += p.bytes;
    return n;
}

void CrossbarTiming::reset_stats() {
    for (Port& p : m_ports) {
        p.transfers = p.bytes = 0;
        p.queueing = SC_ZERO_TIME;
    }
    m_queueing = SC_ZERO_TIME;
    m_unrouted = 0;
    m_sync_bytes = 0;
}

} // namespace syncron
