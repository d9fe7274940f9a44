#include "models/interconnect/crossbar.h"

#include <algorithm>
#include <sstream>

namespace syncron {

using sc_core::SC_NS;
using sc_core::sc_time;

Crossbar::Crossbar(const sc_core::sc_module_name& name, const XbarParams& params,
                   const Router* router)
    : sc_module(name),
      in("in"),
      out("out"),
      m_params(params),
      m_cycle(params.clock_ghz > 0 ? sc_time(1.0 / params.clock_ghz, SC_NS) : sc_core::SC_ZERO_TIME),
      m_router(router) {
    if (params.clock_ghz <= 0 || params.flit_bytes == 0)
        SC_REPORT_ERROR(this->name(), "crossbar: clock_ghz and flit_bytes must be positive");
    in.register_b_transport(this, &Crossbar::b_transport);
    in.register_transport_dbg(this, &Crossbar::transport_dbg);
    in.register_nb_transport_fw(this, &Crossbar::nb_transport_fw);
    out.register_nb_transport_bw(this, &Crossbar::nb_transport_bw);
}

void Crossbar::end_of_elaboration() {
    m_ports.resize(out.size());
    if (m_router == nullptr) SC_REPORT_ERROR(name(), "crossbar: no router set (call set_router)");
}

sc_time Crossbar::hop_latency() const {
    return m_cycle * static_cast<double>(m_params.arbiter_cycles + m_params.hop_cycles);
}

unsigned Crossbar::flits(unsigned bytes) const {
    return std::max(1u, (bytes + m_params.flit_bytes - 1) / m_params.flit_bytes);
}

Crossbar::Schedule Crossbar::schedule(unsigned port, unsigned bytes, const sc_time& arrival) {
    Port& p = m_ports[port];
    // Nothing can arrive before the current time: older bookings are dead.
    p.timeline.prune(sc_core::sc_time_stamp());
    const sc_time occupancy = m_cycle * static_cast<double>(flits(bytes));
    Schedule s;
    s.start = p.timeline.book(arrival, occupancy);
    s.port_free = s.start + occupancy;
    ++p.transfers;
    p.bytes += bytes;
    m_queueing += s.start - arrival;
    return s;
}

int Crossbar::decode(tlm::tlm_generic_payload& trans, bool warn) {
    const uint64_t addr = trans.get_address();
    const int port = m_router ? m_router->route(addr) : -1;
    if (port < 0) {
        if (warn) {
            std::ostringstream os;
            os << "no output port for address 0x" << std::hex << addr;
            SC_REPORT_WARNING(name(), os.str().c_str());
        }
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return -1;
    }
    if (static_cast<unsigned>(port) >= out.size()) {
        // A router/netlist mismatch is a configuration bug, not a bad address.
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        std::ostringstream os;
        os << "router sent address 0x" << std::hex << addr << std::dec << " to port " << port
           << " but only " << out.size() << " output ports are bound";
        SC_REPORT_ERROR(name(), os.str().c_str());
        return -1;
    }
    return port;
}

void Crossbar::b_transport(int id, tlm::tlm_generic_payload& trans, sc_time& delay) {
    const int port = decode(trans, true);
    if (port < 0) {
        ++m_unrouted;
        return;
    }
    const sc_time arrival = sc_core::sc_time_stamp() + delay;
    const Schedule s = schedule(static_cast<unsigned>(port), trans.get_data_length(), arrival);
    delay += (s.start - arrival) + hop_latency();
    out[port]->b_transport(trans, delay);
}

unsigned Crossbar::transport_dbg(int id, tlm::tlm_generic_payload& trans) {
    const int port = decode(trans, false);
    if (port < 0) return 0;
    return out[port]->transport_dbg(trans);
}

tlm::tlm_sync_enum Crossbar::nb_transport_fw(int id, tlm::tlm_generic_payload& trans,
                                             tlm::tlm_phase& phase, sc_time& delay) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    SC_REPORT_ERROR(name(), "nb_transport_fw: AT is not supported by this crossbar yet (use b_transport)");
    return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum Crossbar::nb_transport_bw(int id, tlm::tlm_generic_payload& trans,
                                             tlm::tlm_phase& phase, sc_time& delay) {
    // Never reached: the crossbar only calls b_transport downstream.
    SC_REPORT_ERROR(name(), "nb_transport_bw: AT is not supported by this crossbar yet");
    return tlm::TLM_COMPLETED;
}

uint64_t Crossbar::total_transfers() const {
    uint64_t n = 0;
    for (const Port& p : m_ports) n += p.transfers;
    return n;
}

uint64_t Crossbar::total_bytes() const {
    uint64_t n = 0;
    for (const Port& p : m_ports) n += p.bytes;
    return n;
}

void Crossbar::reset_stats() {
    for (Port& p : m_ports) p.transfers = p.bytes = 0;
    m_queueing = sc_core::SC_ZERO_TIME;
    m_unrouted = 0;
}

} // namespace syncron
