#include "models/se/core/rmw_alu.h"

#include "models/protocol/rmw.h"
#include "models/se/core/se_context.h"

namespace syncron {

void RmwAlu::handle(const Message& m, SeResult& r) {
    const bool master = m_cx.is_master_of(m.addr);
    if (m.op == Opcode::rmw_reply_global) { // the Master SE's answer for one of this SE's cores
        m_cx.to_core(m.core, Opcode::rmw_reply_local, m.addr, m.info, r);
        return;
    }
    const auto op = rmw_op_of(m.op);
    if (!op) {
        m_cx.fail(r, m, "not an rmw request");
        return;
    }
    if (!master) { // an own core's request for a word homed elsewhere: relay it
        Message fwd = m;
        fwd.op = rmw_global_opcode(*op);
        fwd.se = static_cast<uint16_t>(m_cx.unit());
        m_cx.emit(Outgoing::Dest::se, m_cx.home(m.addr), fwd, r);
        return;
    }
    if (!m_cx.memory()) {
        m_cx.fail(r, m, "rmw: this SE has no memory port");
        return;
    }
    const uint64_t old = execute(m, r);
    if (!r.ok()) return;
    if (level_of(m.op) == Level::local) {
        m_cx.to_core(m.core, Opcode::rmw_reply_local, m.addr, old, r);
        return;
    }
    // Back to the requester's SE, naming its core (CoreID split as overflow).
    m_cx.emit(Outgoing::Dest::se, m.se, {m.addr, Opcode::rmw_reply_global, m.core, m.se, old}, r);
}

uint64_t RmwAlu::execute(const Message& m, SeResult& r) {
    uint8_t bytes[8];
    m_cx.memory()->read(m.addr, bytes, sizeof bytes);
    ++r.cost.mem_reads;
    uint64_t old = 0;
    for (unsigned b = 0; b < 8; ++b) old |= uint64_t(bytes[b]) << (8 * b);
    const uint64_t now = rmw_apply(*rmw_op_of(m.op), old, m.info, m.expected);
    // A failed compare-and-swap, a min/max that keeps the word or a swap of
    // the same value writes nothing: the ALU compares before the write-back.
    if (now != old) {
        for (unsigned b = 0; b < 8; ++b) bytes[b] = uint8_t(now >> (8 * b));
        m_cx.memory()->write(m.addr, bytes, sizeof bytes);
        ++r.cost.mem_writes;
    }
    ++r.cost.alu_ops;
    ++m_cx.stats().rmw_executed;
    return old;
}

} // namespace syncron
