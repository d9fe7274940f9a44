#include "models/interconnect/link.h"

#include <sstream>

namespace syncron {

using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

Link::Link(const sc_core::sc_module_name& name, unsigned src_unit, unsigned dst_unit, const LinkParams& params)
    : sc_module(name), in("in"), out("out"), m_timing(src_unit, dst_unit, params),
      m_in_port(*this, "fw_peq",
                [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                    return in->nb_transport_bw(t, p, d);
                },
                {[this](unsigned, tlm::tlm_generic_payload& t) { begin_request(t); }, nullptr}, {}),
      m_out_port(*this, "bw_peq",
                 [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                     return out->nb_transport_fw(t, p, d);
                 },
                 {[this](unsigned, tlm::tlm_generic_payload& t) { downstream_accepted(t); },
                  [this](unsigned, tlm::tlm_generic_payload& t) { downstream_response(t); }},
                 {}),
      m_resp_peq("resp_peq", this, &Link::resp_peq_cb) {
    if (params.bandwidth_gbps <= 0 || params.latency_ns < 0)
        SC_REPORT_ERROR(this->name(), "link: bandwidth_gbps must be positive and latency_ns not negative");
    if (params.queue_depth == 0) SC_REPORT_ERROR(this->name(), "link: queue_depth must be at least 1");
    in.register_b_transport(this, &Link::b_transport);
    in.register_transport_dbg(this, &Link::transport_dbg);
    in.register_nb_transport_fw(this, &Link::nb_transport_fw);
    out.register_nb_transport_bw(this, &Link::nb_transport_bw);
    SC_THREAD(delivery_thread);
}

void Link::set_reverse(Link* reverse) {
    if (reverse == this) {
        SC_REPORT_ERROR(name(), "link: a link cannot be its own reverse");
        return;
    }
    if (reverse && (reverse->src_unit() != dst_unit() || reverse->dst_unit() != src_unit())) {
        std::ostringstream os;
        os << "link " << src_unit() << "->" << dst_unit() << ": reverse link " << reverse->name() << " goes "
           << reverse->src_unit() << "->" << reverse->dst_unit() << ", not " << dst_unit() << "->" << src_unit();
        SC_REPORT_ERROR(name(), os.str().c_str());
        return;
    }
    m_reverse = reverse;
    m_timing.set_reverse(reverse ? &reverse->m_timing : nullptr);
}

// ---------------------------------------------------------------- LT shell

void Link::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    m_timing.lt_request(trans, traffic_class(trans), delay); // queueing + serialization + fixed pipeline latency
    out->b_transport(trans, delay);
    m_timing.lt_response(trans, delay);
}

unsigned Link::transport_dbg(tlm::tlm_generic_payload& trans) { return out->transport_dbg(trans); }

// ---------------------------------------------------------------- statistics

double Link::achieved_gbps(const sc_time& interval) const {
    const double ns = interval.to_seconds() * 1e9;
    return ns > 0 ? static_cast<double>(bytes()) / ns : 0.0;
}

double Link::utilization(const sc_time& interval) const {
    return interval > SC_ZERO_TIME ? busy_time() / interval : 0.0;
}

void Link::reset_stats() {
    m_timing.reset_stats();
    m_max_occupancy = m_queue.size();
    m_withheld_count = 0;
}

} // namespace syncron
