#include "models/se/se_module.h"

#include <stdexcept>
#include <string>

namespace syncron {

using sc_core::sc_time;

SeModule::SeModule(sc_core::sc_module_name name, unsigned unit, const SeParams& params, const SeTopology& topology,
                   const AddressMap& map)
    : sc_module(name), in("in"), to_cores("to_cores"), to_ses("to_ses"), to_mem("to_mem"),
      m_service(this->name(), unit, params, topology, map, to_mem),
      m_buffer(*this, m_service,
               [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                   return in->nb_transport_bw(t, p, d);
               }),
      m_lt(m_service, m_buffer, to_cores, to_ses, to_mem), m_at(*this, m_service, m_buffer, to_cores, to_ses, to_mem) {
    if (!(params.clock_ghz > 0)) throw std::invalid_argument("SeModule: se.clock_ghz must be positive");
    if (params.cycles_per_message == 0)
        throw std::invalid_argument("SeModule: se.cycles_per_message must be at least 1");
    m_service.set_transport(m_transport);
    in.register_b_transport(this, &SeModule::b_transport);
    in.register_nb_transport_fw(this, &SeModule::nb_transport_fw);
    in.register_transport_dbg(this, &SeModule::transport_dbg);
    to_cores.register_nb_transport_bw(this, &SeModule::bw_cores);
    to_ses.register_nb_transport_bw(this, &SeModule::bw_ses);
    to_mem.register_nb_transport_bw(this, &SeModule::bw_mem);
    SC_THREAD(spu);
    m_at.spawn_senders(); // after the SPU thread: the processes keep the order they always had
}

void SeModule::set_timing(Timing t) {
    m_transport = t == Timing::at ? static_cast<SeTransport*>(&m_at) : &m_lt;
    m_service.set_transport(m_transport);
}

void SeModule::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    Message msg;
    std::string why;
    if (!m_service.decode(trans, msg, why)) {
        m_service.reject(why);
        return;
    }
    const SeBuffer::Arrival a = m_buffer.stamp(sc_core::sc_time_stamp() + delay, msg);
    if (m_service.trace()) m_service.trace_arrival(trans, msg, a.time);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    const sc_time held = m_transport->deliver(a, delay);
    if (held == sc_core::SC_ZERO_TIME) return;
    // The input was full (LT): the transfer completes once it takes the
    // message; a sender that posts it learns the hold from the extension.
    delay += held;
    if (auto* ext = trans.get_extension<SyncronExtension>()) ext->held = held;
}

unsigned SeModule::transport_dbg(tlm::tlm_generic_payload& trans) {
    // Debug access reads the wire form of the next buffered message; it
    // never advances time or changes state.
    if (trans.get_command() != tlm::TLM_READ_COMMAND || trans.get_data_length() < kWireBytes || m_buffer.empty())
        return 0;
    return m_service.wire_form(m_buffer.front().msg, trans.get_data_ptr()) ? kWireBytes : 0;
}

void SeModule::spu() {
    // Messages are served in arrival order, each once its arrival time has
    // come (an earlier one may still arrive meanwhile); the chosen shell
    // serves it (AT: once the SPU is free; LT: booked on the SPU's timeline).
    for (;;) {
        while (m_buffer.empty()) wait(m_buffer.arrival_event());
        const sc_time now = sc_core::sc_time_stamp();
        const sc_time next = m_buffer.front().time;
        if (next > now) {
            wait(next - now, m_buffer.arrival_event());
            continue;
        }
        m_transport->serve_front();
    }
}

double SeModule::st_occupancy_avg(const sc_time& now) const {
    const double total_ns = now.to_seconds() * 1e9;
    if (total_ns <= 0) return 0;
    return m_transport->st_occupancy_integral_ns(now) / total_ns;
}

} // namespace syncron
