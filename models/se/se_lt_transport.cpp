#include "models/se/se_lt_transport.h"

#include <algorithm>
#include <array>

#include "models/tlm/borrowed_extension.h"
#include "models/tlm/kernel_time.h"

namespace syncron {

using sc_core::sc_time;

SeLtTransport::SeLtTransport(SeService& service, SeBuffer& buffer, tlm::tlm_initiator_socket<>& to_cores,
                             tlm::tlm_initiator_socket<>& to_ses, tlm::tlm_initiator_socket<>& to_mem)
    : m_service(service), m_buffer(buffer), m_to_cores(to_cores), m_to_ses(to_ses), m_to_mem(to_mem) {}

sc_time SeLtTransport::deliver(const SeBuffer::Arrival& a, const sc_time& delay) {
    const Level level = level_of(a.msg.op);
    if (level != Level::global && level != Level::overflow)
        return serve_now(a); // a core's message: served in the caller's context
    // A message between SEs enters the buffer at the sender's time and the
    // SPU thread serves it then. (Its buffer statistics are counted in
    // serve(), like every LT message's.)
    m_buffer.insert(a, delay);
    return sc_core::SC_ZERO_TIME;
}

void SeLtTransport::serve_front() {
    // The front's arrival time has come: serve() books the SPU.
    const SeBuffer::Arrival a = m_buffer.front();
    m_buffer.pop_front();
    serve_now(a);
}

sc_time SeLtTransport::serve_now(const SeBuffer::Arrival& a) {
    // A message that reaches this SE while it is still emitting (a reply to
    // its own message) waits its turn, in call order.
    if (m_serving) {
        m_pending.push_back(a);
        return sc_core::SC_ZERO_TIME;
    }
    m_serving = true;
    sc_time held;
    try {
        held = serve(a);
        while (!m_pending.empty()) {
            const SeBuffer::Arrival next = m_pending.front();
            m_pending.pop_front();
            serve(next);
        }
    } catch (...) { // an error report: the run stops, the SE stays usable for its statistics
        m_pending.clear();
        m_serving = false;
        throw;
    }
    m_serving = false;
    return held;
}

sc_time SeLtTransport::serve(const SeBuffer::Arrival& a) {
    const sc_time now = kernel_time();
    const sc_time base = m_service.base_service();
    const sc_time ready = std::max(a.time, m_var_clock.ready(a.msg));
    // The start is chosen for one message's base service; a longer one (ST
    // accesses, the overflow path's memory) is booked from the first gap
    // that holds it, and its replies leave from that gap's end (its memory
    // accesses keep the times taken from the first start).
    sc_time start = m_spu_timeline.earliest_start(ready, base);
    // The input: the services booked ahead of this message are its buffer.
    // With the buffer and the interconnect's queue full, AT would hold the
    // sender back until one of them begins.
    m_input.prune(now);
    const unsigned buffer = m_service.params().buffer_messages;
    const LtInputQueue::Arrival in = m_input.arrive(a.time, start, std::size_t{buffer} + m_upstream_queue);
    const std::size_t ahead = in.ahead;
    SeStats& stats = m_service.stats();
    if (ahead >= buffer) ++stats.buffer_full_events;
    stats.buffer_max = std::max(stats.buffer_max, static_cast<unsigned>(std::min<std::size_t>(ahead + 1, buffer)));

    const unsigned occupied = m_service.core().table().occupancy();
    const sc_time busy = m_service.service(a.msg, start);
    start = m_spu_timeline.book(start, busy);
    m_input.book(start, a.time);
    // The ST's occupancy in simulated time, not in the order of the calls.
    m_occupancy.change(start, static_cast<int>(m_service.core().table().occupancy()) - static_cast<int>(occupied));
    m_occupancy.settle(now);
    m_spu_timeline.prune(now);
    const sc_time end = start + busy;
    const sc_time leave = m_var_clock.served(a.msg, m_service.result().out, end);
    m_var_clock.prune(now);
    if (m_service.trace())
        m_service.trace_service(a.msg, a.time, start, end,
                                static_cast<unsigned>(std::min<std::size_t>(ahead + 1, buffer)));
    for (const auto& o : m_service.result().out) emit(o, leave - now);
    return in.accepted - a.time;
}

void SeLtTransport::emit(const Outgoing& o, const sc_time& delay) {
    // Replies to cores leave on to_cores; messages to SEs and to a fallback
    // server core (reached through the crossbar and links) on to_ses.
    std::array<uint8_t, kWireBytes> data{};
    SyncronExtension ext(o.msg);
    ext.src = Endpoint::se(m_service.unit());
    ext.sent = kernel_time() + delay;
    m_service.fill_message(m_trans, o, data.data());
    sc_time d = delay;
    {
        const BorrowedExtension<SyncronExtension> borrowed(m_trans, &ext); // stack-owned
        lt_transport(m_direct, o.dest == Outgoing::Dest::core ? m_to_cores : m_to_ses, m_trans, d);
    }
    if (m_trans.is_response_error()) m_service.report_delivery_error(m_trans);
}

sc_time SeLtTransport::access_memory(tlm::tlm_generic_payload& trans, const sc_time& issue) {
    // Annotated from the caller's time: the access is issued at `issue`.
    sc_time d = issue - kernel_time();
    const sc_time before = d;
    lt_transport(m_direct, m_to_mem, trans, d);
    return d - before;
}

} // namespace syncron
