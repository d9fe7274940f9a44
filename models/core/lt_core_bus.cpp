#include "models/core/lt_core_bus.h"

#include <algorithm>

#include "models/protocol/tlm/syncron_extension.h"
#include "models/protocol/wire_format.h"
#include "models/tlm/borrowed_extension.h"
#include "models/tlm/kernel_time.h"
#include "models/tlm/payload_fill.h"

namespace syncron {

void LtCoreBus::set_memory_quantum(const sc_core::sc_time& q) {
    m_memory_quantum = q;
    m_memory_sync_point = q; // from time 0, as the quantum keeper's first quantum
}

void LtCoreBus::sync_now() {
    m_qk.sync();
    if (m_memory_quantum == sc_core::SC_ZERO_TIME) return;
    const uint64_t now = kernel_time().value();
    const uint64_t q = m_memory_quantum.value();
    m_memory_sync_point = sc_core::sc_time::from_value(now - now % q + q);
}

void LtCoreBus::timed(const BusAccess& a) {
    // An atomic is a synchronization operation: another core may be waiting
    // on its word. (A coherence request may not yield before its access is
    // performed; a coherent core has no memory quantum, NdpCore::set_coherence.)
    if (a.atomic) sync_point();
    fill_payload(m_trans, a.cmd, a.addr, a.data, a.len);
    sc_core::sc_time delay = m_qk.get_local_time();
    const sc_core::sc_time begin = kernel_time() + delay;
    {
        const BorrowedExtension<AtomicExtension> atomic(m_trans, a.atomic); // caller-owned
        const BorrowedExtension<CoherenceExtension> coherence(m_trans, a.coherence);
        const BorrowedExtension<SyncTrafficExtension> tag(m_trans, m_sync_tag);
        lt_transport(m_direct, m_socket, m_trans, delay);
    }
    m_qk.set(delay);
    if (m_trace) {
        const sc_core::sc_time end = kernel_time() + delay;
        trace_access(a, begin, begin, end, end, false);
    }
    if (m_trans.is_response_error()) report_access_error(a, m_trans);
    // A coherence request's access must be performed before the core can
    // yield (CoherentL1::performed); its caller keeps time afterwards.
    if (!a.coherence) keep_time();
}

bool LtCoreBus::send(uint64_t dest, const Message& m, uint8_t* wire, bool sync) {
    sync_point();
    SyncronExtension ext(m);
    ext.src = m_owner.self;
    ext.sent = local_time();
    fill_payload(m_trans, tlm::TLM_WRITE_COMMAND, dest, wire, kWireBytes);
    const sc_core::sc_time issued = m_qk.get_local_time();
    sc_core::sc_time delay = issued;
    {
        const BorrowedExtension<SyncronExtension> borrowed(m_trans, &ext); // stack-owned
        lt_transport(m_direct, m_socket, m_trans, delay);
    }
    // A req_sync request waits for its reply anyway; a posted message
    // (req_async, a server's reply) costs the core its issue cycle only, as
    // in AT, where the core goes on once the crossbar has taken the request
    // (later when the SE's input was full: ext.held).
    m_qk.set(sync ? delay : issued + m_owner.cycle + ext.held);
    m_held = ext.held;
    m_held_from = kernel_time() + issued + m_owner.cycle;
    if (!m_trans.is_response_error()) return true;
    report_send_error(m, m_trans);
    return false;
}

std::optional<Message> LtCoreBus::await_reply(const sc_core::sc_time& issued) {
    // The SE serves an LT request inside the sender's call: a grant that is
    // already in costs no process switch (the core only moves its local time
    // to the grant's arrival). Otherwise the core waits for the grant without
    // first syncing its quantum (one switch, not two), keeping its own time
    // aside: it goes on from the later of the two.
    if (auto reply = reply_if_arrived(issued)) return reply;
    ReplySlot& slot = m_owner.replies;
    const sc_core::sc_time mine = local_time();
    slot.set_awaiting(true);
    while (!slot.arrived()) sc_core::wait(slot.event());
    slot.set_awaiting(false);
    const sc_core::sc_time now = kernel_time();
    m_qk.set(std::max({mine, slot.arrival(), now}) - now);
    return reply_if_arrived(issued);
}

PipelineCharge LtCoreBus::take_pipeline(CorePipeline& pipeline, unsigned ctx, bool work) {
    const sc_core::sc_time want = local_time();
    if (work) return {want, sc_core::SC_ZERO_TIME, false}; // booked at its release, when its length is known
    // A message leaves once the pipeline has its issue cycle.
    return charge(pipeline.book(ctx, want, m_owner.cycle), want);
}

PipelineCharge LtCoreBus::release_pipeline(CorePipeline& pipeline, unsigned ctx, bool work,
                                           const sc_core::sc_time& begin) {
    if (!work) {
        // A message held back by its SE's full input held the pipeline too,
        // as in AT, where the issue lasts until the crossbar takes it.
        if (m_held == sc_core::SC_ZERO_TIME) return {begin, sc_core::SC_ZERO_TIME, false};
        const sc_core::sc_time from = m_held_from;
        const CorePipeline::Turn turn = pipeline.book(ctx, from, m_held);
        m_held = sc_core::SC_ZERO_TIME;
        return charge(turn, from);
    }
    // The operation took [begin, now) in this context's time; it starts where
    // the calendar has room for it, and everything after moves with it.
    return charge(pipeline.book(ctx, begin, local_time() - begin), begin);
}

PipelineCharge LtCoreBus::charge(const CorePipeline::Turn& turn, const sc_core::sc_time& wanted) {
    if (turn.start <= wanted) return {wanted, sc_core::SC_ZERO_TIME, turn.switched};
    m_qk.inc(turn.start - wanted);
    return {wanted, turn.start - wanted, turn.switched};
}

} // namespace syncron
