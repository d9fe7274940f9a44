#include "models/interconnect/link.h"

#include "models/protocol/tlm/atomic_extension.h"

#include <algorithm>
#include <sstream>

namespace syncron {

using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

namespace {
constexpr double kLineBytes = 64.0; // the line latency_ns is quoted for

void hold(tlm::tlm_generic_payload& t) {
    if (t.has_mm()) t.acquire();
}
void drop(tlm::tlm_generic_payload& t) {
    if (t.has_mm()) t.release();
}
} // namespace

Link::Link(const sc_core::sc_module_name& name, unsigned src_unit, unsigned dst_unit,
           const LinkParams& params)
    : sc_module(name),
      in("in"),
      out("out"),
      m_src(src_unit),
      m_dst(dst_unit),
      m_params(params),
      m_fw_peq("fw_peq", this, &Link::fw_peq_cb),
      m_bw_peq("bw_peq", this, &Link::bw_peq_cb),
      m_resp_peq("resp_peq", this, &Link::resp_peq_cb) {
    if (params.bandwidth_gbps <= 0 || params.latency_ns < 0)
        SC_REPORT_ERROR(this->name(), "link: bandwidth_gbps must be positive and latency_ns not negative");
    if (params.queue_depth == 0) SC_REPORT_ERROR(this->name(), "link: queue_depth must be at least 1");
    // latency_ns is quoted per 64 B line with its serialization included; a
    // latency shorter than that serialization leaves no fixed part.
    if (params.bandwidth_gbps > 0)
        m_latency = sc_time(std::max(0.0, params.latency_ns - kLineBytes / params.bandwidth_gbps), SC_NS);
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
    if (reverse && (reverse->src_unit() != m_dst || reverse->dst_unit() != m_src)) {
        std::ostringstream os;
        os << "link " << m_src << "->" << m_dst << ": reverse link " << reverse->name() << " goes "
           << reverse->src_unit() << "->" << reverse->dst_unit() << ", not " << m_dst << "->" << m_src;
        SC_REPORT_ERROR(name(), os.str().c_str());
        return;
    }
    m_reverse = reverse;
}

sc_time Link::serialization(unsigned bytes) const {
    return sc_time(bytes / m_params.bandwidth_gbps, SC_NS); // GB/s == bytes per ns
}

unsigned Link::request_bytes(const tlm::tlm_generic_payload& trans) const {
    return (m_reverse != nullptr && trans.is_read()) ? 0u : trans.get_data_length();
}

Link::Schedule Link::schedule(unsigned bytes, const sc_time& arrival, bool response) {
    // Nothing can arrive before the current time: older bookings are dead.
    m_serializer.prune(sc_core::sc_time_stamp());
    Schedule s;
    const sc_time ser = serialization(bytes);
    s.start = m_serializer.book(arrival, ser);
    s.link_free = s.start + ser;
    s.arrive = s.link_free + m_latency;
    ++m_transfers;
    if (response) ++m_response_transfers;
    m_bytes += bytes;
    m_busy += ser;
    m_queueing += s.start - arrival;
    if (m_trace && bytes)
        m_trace->on_link({m_src, m_dst, bytes, response, s.start, s.link_free, s.arrive});
    return s;
}

sc_time Link::response_arrival(tlm::tlm_generic_payload& trans, const sc_time& leave) {
    if (m_reverse == nullptr) return leave; // no reverse link: the response is free
    // Data comes back for a read, and for an atomic (its old value).
    const bool data_back = trans.is_read() || trans.get_extension<AtomicExtension>() != nullptr;
    if (data_back && trans.is_response_ok())
        return m_reverse->schedule(trans.get_data_length(), leave, true).arrive;
    return leave + m_reverse->latency(); // no data: the fixed latency only
}

void Link::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    const sc_time arrival = sc_core::sc_time_stamp() + delay;
    const Schedule s = schedule(request_bytes(trans), arrival);
    delay += s.arrive - arrival; // queueing + serialization + fixed pipeline latency
    out->b_transport(trans, delay);
    if (m_reverse != nullptr) {
        const sc_time leave = sc_core::sc_time_stamp() + delay;
        delay += response_arrival(trans, leave) - leave;
    }
}

unsigned Link::transport_dbg(tlm::tlm_generic_payload& trans) {
    return out->transport_dbg(trans);
}

// ---------------------------------------------------------------- AT: upstream side

tlm::tlm_sync_enum Link::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                         sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) {
        if (m_request_open)
            SC_REPORT_ERROR(name(), "nb_transport_fw: BEGIN_REQ before END_REQ of the previous request "
                                    "(request exclusion)");
        hold(trans); // until its response has completed upstream
        m_request_open = true;
        if (delay != SC_ZERO_TIME) {
            m_fw_peq.notify(trans, phase, delay);
            return tlm::TLM_ACCEPTED;
        }
        if (!begin_request(trans)) return tlm::TLM_ACCEPTED; // END_REQ withheld
        m_request_open = false;
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    if (phase == tlm::END_RESP) {
        if (m_responding != &trans) {
            SC_REPORT_ERROR(name(), "nb_transport_fw: END_RESP for a payload not in its response phase");
            return tlm::TLM_COMPLETED;
        }
        if (delay != SC_ZERO_TIME)
            m_fw_peq.notify(trans, phase, delay);
        else
            response_completed(trans);
        return tlm::TLM_COMPLETED;
    }
    SC_REPORT_ERROR(name(), "nb_transport_fw: unexpected phase (only BEGIN_REQ and END_RESP come forward)");
    return tlm::TLM_COMPLETED;
}

void Link::fw_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase) {
    if (phase == tlm::END_RESP) {
        response_completed(trans);
        return;
    }
    if (!begin_request(trans)) return; // withheld; downstream_accepted() answers later
    m_request_open = false;
    tlm::tlm_phase end = tlm::END_REQ;
    sc_time d = SC_ZERO_TIME;
    in->nb_transport_bw(trans, end, d);
}

bool Link::begin_request(tlm::tlm_generic_payload& trans) {
    if (m_queue.size() < m_params.queue_depth) {
        enqueue(trans);
        return true;
    }
    // Back-pressure: no credit left. Request exclusion on `in` leaves at most
    // one such request.
    m_withheld = &trans;
    ++m_withheld_count;
    return false;
}

void Link::enqueue(tlm::tlm_generic_payload& trans) {
    const sc_time now = sc_core::sc_time_stamp();
    const Schedule s = schedule(request_bytes(trans), now);
    m_queue.push_back(Transfer{&trans, s.arrive});
    m_max_occupancy = std::max(m_max_occupancy, m_queue.size());
    m_kick.notify();
}

// ---------------------------------------------------------------- AT: downstream side

void Link::delivery_thread() {
    for (;;) {
        while (m_queue.empty() || m_offered) wait(m_kick);
        // The front cannot change until it is offered (only this thread
        // offers, only an offered transfer leaves the queue).
        const Transfer t = m_queue.front();
        const sc_time now = sc_core::sc_time_stamp();
        if (t.arrive > now)
            wait(t.arrive - now);
        else
            m_queueing += now - t.arrive; // waited at the far end for the previous END_REQ

        m_offered = true;
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_time d = SC_ZERO_TIME;
        const tlm::tlm_sync_enum st = out->nb_transport_fw(*t.trans, ph, d);
        if (st == tlm::TLM_UPDATED) {
            downstream_phase(*t.trans, ph, d);
            if (ph == tlm::BEGIN_RESP) {
                // A response on the return path is ended with END_RESP.
                tlm::tlm_phase end = tlm::END_RESP;
                sc_time de = d;
                out->nb_transport_fw(*t.trans, end, de);
            }
        } else if (st == tlm::TLM_COMPLETED) {
            downstream_phase(*t.trans, tlm::BEGIN_RESP, d); // early completion
        }
        // TLM_ACCEPTED: END_REQ or BEGIN_RESP will come on nb_transport_bw.
    }
}

tlm::tlm_sync_enum Link::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                         sc_time& delay) {
    if (phase != tlm::END_REQ && phase != tlm::BEGIN_RESP) {
        SC_REPORT_ERROR(name(), "nb_transport_bw: unexpected phase (only END_REQ and BEGIN_RESP come back)");
        return tlm::TLM_COMPLETED;
    }
    downstream_phase(trans, phase, delay);
    // The link takes the response over at once and carries it back itself.
    return phase == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
}

void Link::downstream_phase(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase, const sc_time& delay) {
    if (phase != tlm::END_REQ && phase != tlm::BEGIN_RESP) {
        SC_REPORT_ERROR(name(), "nb_transport_fw: unexpected phase returned downstream");
        return;
    }
    if (delay != SC_ZERO_TIME) {
        m_bw_peq.notify(trans, phase, delay);
        return;
    }
    if (phase == tlm::END_REQ)
        downstream_accepted(trans);
    else
        downstream_response(trans);
}

void Link::bw_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase) {
    if (phase == tlm::END_REQ)
        downstream_accepted(trans);
    else
        downstream_response(trans);
}

void Link::downstream_accepted(tlm::tlm_generic_payload& trans) {
    if (!m_offered || m_queue.empty() || m_queue.front().trans != &trans) {
        SC_REPORT_ERROR(name(), "END_REQ from downstream for a transfer not offered");
        return;
    }
    m_queue.pop_front();
    m_offered = false;
    m_kick.notify();
    if (m_withheld != nullptr && m_queue.size() < m_params.queue_depth) {
        tlm::tlm_generic_payload* t = m_withheld;
        m_withheld = nullptr;
        m_request_open = false;
        enqueue(*t);
        tlm::tlm_phase end = tlm::END_REQ;
        sc_time d = SC_ZERO_TIME;
        in->nb_transport_bw(*t, end, d);
    }
}

void Link::downstream_response(tlm::tlm_generic_payload& trans) {
    // BEGIN_RESP without END_REQ implies the END_REQ.
    if (m_offered && !m_queue.empty() && m_queue.front().trans == &trans) downstream_accepted(trans);
    const sc_time now = sc_core::sc_time_stamp();
    m_resp_peq.notify(trans, tlm::BEGIN_RESP, response_arrival(trans, now) - now);
}

// ---------------------------------------------------------------- AT: responses

void Link::resp_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase&) {
    m_responses.push_back(&trans);
    send_responses();
}

void Link::send_responses() {
    while (m_responding == nullptr && !m_responses.empty()) {
        tlm::tlm_generic_payload* t = m_responses.front();
        m_responses.pop_front();
        m_responding = t;
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_time d = SC_ZERO_TIME;
        const tlm::tlm_sync_enum st = in->nb_transport_bw(*t, ph, d);
        if (st == tlm::TLM_COMPLETED || (st == tlm::TLM_UPDATED && ph == tlm::END_RESP)) {
            if (d != SC_ZERO_TIME) {
                m_fw_peq.notify(*t, tlm::END_RESP, d); // the response phase ends at now + d
                return;
            }
            finish_response(*t);
            continue;
        }
        return; // TLM_ACCEPTED: END_RESP comes on the forward path
    }
}

void Link::finish_response(tlm::tlm_generic_payload& trans) {
    m_responding = nullptr;
    drop(trans);
}

void Link::response_completed(tlm::tlm_generic_payload& trans) {
    if (m_responding != &trans) return;
    finish_response(trans);
    send_responses();
}

// ---------------------------------------------------------------- statistics

double Link::achieved_gbps(const sc_time& interval) const {
    const double ns = interval.to_seconds() * 1e9;
    return ns > 0 ? static_cast<double>(m_bytes) / ns : 0.0;
}

double Link::utilization(const sc_time& interval) const {
    return interval > SC_ZERO_TIME ? m_busy / interval : 0.0;
}

void Link::reset_stats() {
    m_transfers = m_bytes = m_response_transfers = 0;
    m_busy = m_queueing = SC_ZERO_TIME;
    m_max_occupancy = m_queue.size();
    m_withheld_count = 0;
}

} // namespace syncron
