#include "models/core/at_core_bus.h"

#include <algorithm>
#include <cstring>

#include "models/protocol/tlm/syncron_extension.h"
#include "models/protocol/wire_format.h"
#include "models/tlm/payload_fill.h"

namespace syncron {

AtCoreBus::AtCoreBus(tlm::tlm_initiator_socket<>& socket, const BusOwner& owner)
    : CoreBus(socket, owner), m_port(owner.core, "bus_peq",
                                     [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p,
                                            sc_core::sc_time& d) { return m_socket->nb_transport_fw(t, p, d); },
                                     {[this](unsigned, tlm::tlm_generic_payload& t) { end_request(t); },
                                      [this](unsigned, tlm::tlm_generic_payload& t) { response(t); }},
                                     {/*defer=*/true}) {}

void AtCoreBus::catch_up() {
    const sc_core::sc_time pending = m_qk.get_local_time();
    if (pending == sc_core::SC_ZERO_TIME) return;
    const CoreState state = m_owner.state;
    m_owner.state = CoreState::computing; // the pending time is compute / L1 time
    sc_core::wait(pending);
    m_qk.set(sc_core::SC_ZERO_TIME);
    m_owner.state = state;
}

void AtCoreBus::begin_request(tlm::tlm_generic_payload& t) {
    // Every request waits for its own END_REQ before begin_request returns,
    // so request exclusion holds.
    m_port.send(0, t);
    while (m_port.request_open(0)) sc_core::wait(m_event);
}

void AtCoreBus::timed(const BusAccess& a) {
    catch_up();
    tlm::tlm_generic_payload& t = m_pool.acquire();
    if (a.atomic) t.set_extension(a.atomic);       // detached before the payload returns to the pool
    if (a.coherence) t.set_extension(a.coherence); // likewise
    if (m_sync_tag) t.set_extension(m_sync_tag);   // likewise
    // The payload's own buffer carries the data; a line longer than it (an L1
    // with lines > PayloadPool::kMaxBytes) uses the core's buffer, which stays
    // untouched until the response because the core waits for it.
    uint8_t* buf = a.len <= PayloadPool::kMaxBytes ? t.get_data_ptr() : a.data;
    fill_payload(t, a.cmd, a.addr, buf, a.len);
    if (a.cmd == tlm::TLM_WRITE_COMMAND && buf != a.data) std::memcpy(buf, a.data, a.len);
    m_mem_trans = &t;
    m_mem_done = false;
    const sc_core::sc_time begin = sc_core::sc_time_stamp();
    m_mem_end_req = m_mem_begin_resp = begin;
    begin_request(t);
    while (!m_mem_done) sc_core::wait(m_event); // one outstanding memory operation
    m_mem_trans = nullptr;
    if (m_trace) {
        const sc_core::sc_time end_req = std::max(begin, m_mem_end_req);
        trace_access(a, begin, end_req, std::max(end_req, m_mem_begin_resp), sc_core::sc_time_stamp(), true);
    }
    if (t.is_response_error())
        report_access_error(a, t);
    else if ((a.cmd == tlm::TLM_READ_COMMAND || a.atomic) && buf != a.data)
        std::memcpy(a.data, buf, a.len); // an atomic returns the old value in its data
    if (a.atomic) t.clear_extension(a.atomic);
    if (a.coherence) t.clear_extension(a.coherence);
    if (m_sync_tag) t.clear_extension(m_sync_tag);
    t.release();
}

bool AtCoreBus::send(uint64_t dest, const Message& m, uint8_t* wire, bool sync) {
    catch_up();
    tlm::tlm_generic_payload& t = m_pool.acquire();
    SyncronExtension& ext = m_pool.message_extension(t);
    ext.msg = m;
    ext.src = m_owner.self;
    ext.sent = sc_core::sc_time_stamp();
    std::memcpy(t.get_data_ptr(), wire, kWireBytes);
    fill_payload(t, tlm::TLM_WRITE_COMMAND, dest, t.get_data_ptr(), kWireBytes);
    if (sync) {
        m_sync_trans = &t;
        m_sync_failed = false;
    }
    // Issued into the network once END_REQ is in; the response is absorbed
    // later by response() (which releases the payload).
    begin_request(t);
    if (!sync) m_qk.inc(m_owner.cycle); // the issue cycle of a posted message, as in LT
    return !(sync && m_sync_failed);
}

void AtCoreBus::end_request(tlm::tlm_generic_payload& t) {
    if (&t == m_mem_trans) m_mem_end_req = sc_core::sc_time_stamp(); // for traces
    m_event.notify();
}

void AtCoreBus::response(tlm::tlm_generic_payload& t) {
    if (&t == m_mem_trans) {
        m_mem_begin_resp = sc_core::sc_time_stamp(); // for traces
        m_mem_done = true;                           // timed() checks the status and releases the payload
        m_event.notify();
        return;
    }
    // A SynCron message: the core went on at END_REQ (req_async) or waits
    // for the mailbox (req_sync); the response only reports errors.
    if (t.is_response_error()) {
        const SyncronExtension* ext = t.get_extension<SyncronExtension>();
        report_send_error(ext ? ext->msg : Message{}, t);
        if (&t == m_sync_trans) {
            m_sync_failed = true; // no reply will come: end the wait
            m_owner.replies.wake();
        }
    }
    if (&t == m_sync_trans) m_sync_trans = nullptr;
    t.release();
}

void AtCoreBus::abandon_sync() {
    CoreBus::abandon_sync();
    m_sync_trans = nullptr;
    m_sync_failed = false;
}

std::optional<Message> AtCoreBus::await_reply(const sc_core::sc_time& issued) {
    // req_sync commits only on the reply: catch up with simulated time, then
    // wait; an error response to the request ends the wait too (the pending
    // compute time is waited off first, for schemes that sent no transaction).
    catch_up();
    ReplySlot& slot = m_owner.replies;
    slot.set_awaiting(true);
    while (!slot.arrived() && !m_sync_failed) sc_core::wait(slot.event());
    slot.set_awaiting(false);
    if (!slot.arrived()) {
        // The request was rejected after its END_REQ (reported by response()).
        abandon_sync();
        return std::nullopt;
    }
    if (slot.arrival() > sc_core::sc_time_stamp()) sc_core::wait(slot.arrival() - sc_core::sc_time_stamp());
    m_qk.reset();
    m_sync_trans = nullptr; // its BEGIN_RESP may still come: then it is an ordinary message response
    m_sync_failed = false;
    return slot.take(sc_core::sc_time_stamp(), issued);
}

PipelineCharge AtCoreBus::take_pipeline(CorePipeline& pipeline, unsigned ctx, bool /*work*/) {
    const sc_core::sc_time want = local_time();
    auto turn = pipeline.take(ctx, want);
    if (!turn) {
        // Held by a context waiting inside its operation: handed on at its
        // release, in the order the contexts asked.
        wait_keeping_time(pipeline.handed(ctx));
        turn = pipeline.handed_turn(ctx);
    }
    const sc_core::sc_time now = local_time();
    if (turn->start > now) m_qk.inc(turn->start - now);
    return {want, turn->start > want ? turn->start - want : sc_core::SC_ZERO_TIME, turn->switched};
}

PipelineCharge AtCoreBus::release_pipeline(CorePipeline& pipeline, unsigned ctx, bool /*work*/,
                                           const sc_core::sc_time& begin) {
    pipeline.release(ctx, local_time());
    return {begin, sc_core::SC_ZERO_TIME, false};
}

} // namespace syncron
