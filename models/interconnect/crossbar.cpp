#include "models/interconnect/crossbar.h"

#include <sstream>
#include <string>

namespace syncron {

using sc_core::sc_time;

Crossbar::Crossbar(const sc_core::sc_module_name& name, const XbarParams& params, const Router* router)
    : sc_module(name), in("in"), out("out"), m_timing(params),
      m_in_port(*this, "fw_peq",
                [this](unsigned i, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                    return in[static_cast<int>(i)]->nb_transport_bw(t, p, d);
                },
                {[this](unsigned i, tlm::tlm_generic_payload& t) { begin_request(i, t); }, nullptr}, {}),
      m_out_port(*this, "bw_peq",
                 [this](unsigned o, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                     return out[static_cast<int>(o)]->nb_transport_fw(t, p, d);
                 },
                 {[this](unsigned o, tlm::tlm_generic_payload& t) { downstream_accepted(o, t); },
                  [this](unsigned, tlm::tlm_generic_payload& t) {
                      // The response starts back over the hop.
                      m_resp_peq.notify(t, tlm::BEGIN_RESP, hop_latency());
                  }},
                 {}),
      m_resp_peq("resp_peq", this, &Crossbar::resp_peq_cb) {
    m_timing.set_router(router);
    if (params.clock_ghz <= 0 || params.flit_bytes == 0)
        SC_REPORT_ERROR(this->name(), "crossbar: clock_ghz and flit_bytes must be positive");
    if (params.queue_depth == 0) SC_REPORT_ERROR(this->name(), "crossbar: queue_depth must be at least 1");
    in.register_b_transport(this, &Crossbar::b_transport);
    in.register_transport_dbg(this, &Crossbar::transport_dbg);
    in.register_nb_transport_fw(this, &Crossbar::nb_transport_fw);
    out.register_nb_transport_bw(this, &Crossbar::nb_transport_bw);
}

void Crossbar::end_of_elaboration() {
    m_timing.set_ports(out.size());
    m_at_out = std::vector<AtOutput>(out.size());
    m_withheld.assign(in.size(), nullptr);
    if (m_timing.router() == nullptr) SC_REPORT_ERROR(name(), "crossbar: no router set (call set_router)");
    // One forwarding thread per output port (the port count is known only now).
    for (unsigned o = 0; o < out.size(); ++o) {
        sc_core::sc_spawn_options opts;
        sc_core::sc_spawn(sc_bind(&Crossbar::output_thread, this, o), ("out_" + std::to_string(o)).c_str(), &opts);
    }
}

int Crossbar::decode(tlm::tlm_generic_payload& trans, bool warn) {
    const uint64_t addr = trans.get_address();
    const int port = m_timing.route(addr);
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
        os << "router sent address 0x" << std::hex << addr << std::dec << " to port " << port << " but only "
           << out.size() << " output ports are bound";
        SC_REPORT_ERROR(name(), os.str().c_str());
        return -1;
    }
    return port;
}

// ---------------------------------------------------------------- LT shell

void Crossbar::b_transport(int, tlm::tlm_generic_payload& trans, sc_time& delay) {
    const int port = decode(trans, true);
    if (port < 0) {
        m_timing.count_unrouted();
        return;
    }
    m_timing.lt_hop(static_cast<unsigned>(port), trans.get_data_length(), traffic_class(trans), delay);
    out[port]->b_transport(trans, delay);
}

unsigned Crossbar::transport_dbg(int, tlm::tlm_generic_payload& trans) {
    const int port = decode(trans, false);
    if (port < 0) return 0;
    return out[port]->transport_dbg(trans);
}

// ---------------------------------------------------------------- statistics

void Crossbar::reset_stats() {
    m_timing.reset_stats();
    for (AtOutput& o : m_at_out) {
        o.max_occupancy = o.queue.size();
        o.withheld = 0;
    }
}

} // namespace syncron
