#include "models/se/se_at_transport.h"

#include <algorithm>
#include <string>

namespace syncron {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

SeAtTransport::SeAtTransport(const sc_core::sc_object& owner, SeService& service, SeBuffer& buffer,
                             tlm::tlm_initiator_socket<>& to_cores, tlm::tlm_initiator_socket<>& to_ses,
                             tlm::tlm_initiator_socket<>& to_mem)
    : m_service(service), m_buffer(buffer),
      m_port(owner, "out_peq",
             [cores = &to_cores, ses = &to_ses, mem = &to_mem](unsigned i, tlm::tlm_generic_payload& t,
                                                               tlm::tlm_phase& p, sc_time& d) {
                 auto& socket = i == kToCores ? *cores : i == kToSes ? *ses : *mem;
                 return socket->nb_transport_fw(t, p, d);
             },
             {[this](unsigned i, tlm::tlm_generic_payload&) {
                  if (i != kToMem) m_out[i].ready.notify(SC_ZERO_TIME); // the next message may go
              },
              [this](unsigned i, tlm::tlm_generic_payload& t) { response(i, t); }},
             {/*defer=*/true}) {}

void SeAtTransport::spawn_senders() {
    // Named as the module's own threads were: the module is under construction.
    sc_core::sc_spawn_options opts;
    sc_core::sc_spawn([this] { sender(kToCores); }, "send_cores", &opts);
    sc_core::sc_spawn([this] { sender(kToSes); }, "send_ses", &opts);
}

sc_time SeAtTransport::deliver(const SeBuffer::Arrival& a, const sc_time& delay) {
    // The message enters the SPU buffer at the sender's time. waiting_at() <=
    // the buffer's size: count only when the size could reach the limit.
    const unsigned limit = m_service.params().buffer_messages;
    if (m_buffer.size() >= limit && m_buffer.waiting_at(a.time) >= limit) ++m_service.stats().buffer_full_events;
    m_buffer.insert(a, delay);
    return sc_core::SC_ZERO_TIME; // b_transport into an AT SE: its buffer is not bounded on this path
}

void SeAtTransport::serve_front() {
    // Messages are served in arrival order, each once the SPU is free; the
    // SPU waits for every arrival and every service.
    const sc_time now = sc_core::sc_time_stamp();
    const SeBuffer::Arrival& next = m_buffer.front();
    const sc_time start = std::max(next.time, m_spu_free);
    if (start > now) {
        sc_core::wait(start - now, m_buffer.arrival_event()); // an earlier message may still come
        return;
    }
    SeStats& stats = m_service.stats();
    // waiting_at() <= the buffer's size: search only when it could raise the maximum or is traced.
    const unsigned waiting =
        (m_service.trace() || m_buffer.size() > stats.buffer_max) ? m_buffer.waiting_at(start) : stats.buffer_max;
    stats.buffer_max = std::max(stats.buffer_max, waiting);
    const SeBuffer::Arrival a = next;
    m_buffer.pop_front();
    m_buffer.release_withheld(); // a buffer slot is free again

    note_st_change(start);
    m_spu_free = start + m_service.service(a.msg, start);
    stats.st_max = std::max(stats.st_max, m_service.core().table().occupancy());
    if (m_service.trace()) m_service.trace_service(a.msg, a.time, start, m_spu_free, waiting);
    // Memory accesses already took their time.
    if (m_spu_free > sc_core::sc_time_stamp()) sc_core::wait(m_spu_free - sc_core::sc_time_stamp());
    for (const auto& o : m_service.result().out) emit(o);
}

void SeAtTransport::note_st_change(const sc_time& at) {
    // Earlier: cannot happen (the SPU's time never goes back). Equal: nothing
    // to add, and the SPU notes each service twice at the same time.
    SeStats& stats = m_service.stats();
    if (at <= stats.last_change) return;
    stats.st_occupancy_integral_ns +=
        m_service.core().table().occupancy() * (at - stats.last_change).to_seconds() * 1e9;
    stats.last_change = at;
}

double SeAtTransport::st_occupancy_integral_ns(const sc_time& now) const {
    // The SPU may have run ahead of `now`: no tail then.
    const SeStats& stats = m_service.stats();
    const double tail = now > stats.last_change
                            ? m_service.core().table().occupancy() * (now - stats.last_change).to_seconds() * 1e9
                            : 0.0;
    return stats.st_occupancy_integral_ns + tail;
}

void SeAtTransport::emit(const Outgoing& o) {
    // Replies to cores leave on to_cores; messages to SEs and to a fallback
    // server core (reached through the crossbar and links) on to_ses.
    tlm::tlm_generic_payload& t = m_pool.acquire();
    m_service.fill_message(t, o, t.get_data_ptr());
    SyncronExtension& ext = m_pool.message_extension(t);
    ext.msg = o.msg;
    ext.src = Endpoint::se(m_service.unit());
    ext.sent = sc_core::sc_time_stamp();
    OutQueue& q = m_out[o.dest == Outgoing::Dest::core ? kToCores : kToSes];
    q.queue.push_back(&t);
    q.ready.notify(SC_ZERO_TIME);
}

sc_time SeAtTransport::access_memory(tlm::tlm_generic_payload& trans, const sc_time& issue) {
    // The SPU thread waits until the access is issued and until its response.
    if (issue > sc_core::sc_time_stamp()) sc_core::wait(issue - sc_core::sc_time_stamp());
    const sc_time t0 = sc_core::sc_time_stamp();
    m_mem_pending = true;
    m_port.send(kToMem, trans);
    while (m_mem_pending) sc_core::wait(m_mem_done);
    return sc_core::sc_time_stamp() - t0;
}

void SeAtTransport::sender(unsigned index) {
    OutQueue& q = m_out[index];
    for (;;) {
        while (q.queue.empty() || m_port.request_open(index)) sc_core::wait(q.ready);
        tlm::tlm_generic_payload* t = q.queue.front();
        q.queue.pop_front();
        m_port.send(index, *t);
    }
}

void SeAtTransport::response(unsigned index, tlm::tlm_generic_payload& t) {
    if (index == kToMem) { // the SPU's memory access; SeService releases the payload
        m_mem_pending = false;
        m_mem_done.notify(SC_ZERO_TIME);
        return;
    }
    if (t.is_response_error()) m_service.report_delivery_error(t);
    t.release();
}

} // namespace syncron
