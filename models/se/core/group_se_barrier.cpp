// The group SE's barrier (docs/protocol.md "Three levels"): a two-level
// barrier's arrivals of the whole group counted into one message to the
// Master SE, and the group's departure.
#include "models/se/core/group_se.h"
#include "models/se/core/se_context.h"

namespace syncron {

void GroupSe::barrier(StEntry& e, const Message& m, const Requester& w, SeResult& r) {
    VarState& s = e.state;
    const SeTopology& topo = m_cx.topo();
    switch (m.op) {
    case Opcode::barrier_depart_global: depart(e, m, r); return;
    case Opcode::barrier_wait_local_within_unit: // every participant is in this unit
        if (s.local.test(m.core)) {
            m_cx.fail(r, m, "core already waits at this barrier");
            return;
        }
        s.local.set(m.core);
        if (++s.info >= m.info) {
            m_cx.grant_all_local(s, Opcode::barrier_depart_local, m.addr, r);
            m_cx.free_if(e, true, r);
        }
        return;
    case Opcode::barrier_wait_local_across_units:
    case Opcode::barrier_wait_global:
    case Opcode::barrier_wait_overflow: {
        // An own core, a member SE's aggregate, or a core of a member whose
        // ST could not buffer the barrier (absorbed here: its departure and
        // the member's counter are this SE's to settle).
        if (w.kind != Requester::se && MasterSe::waiting(s, w)) {
            m_cx.fail(r, m, w.describe() + " already waits at this barrier");
            return;
        }
        if (w.kind == Requester::remote) {
            if (s.remote.size() < topo.units) s.remote.assign(topo.units, BitList(topo.cores_per_unit));
            if (s.overflow_acquires.size() < topo.units) s.overflow_acquires.assign(topo.units, 0);
            ++s.overflow_acquires[w.se_id];
            r.cost.overflow = true;
        }
        MasterSe::enqueue(s, w);
        const unsigned up = m_cx.parent(m.addr);
        if (!two_level(m)) { // one-level rule (own cores only: members' arrivals pass on)
            m_cx.to_se(up, Opcode::barrier_wait_global, m.addr, m.info, 0, r);
            return;
        }
        s.info += w.kind == Requester::se ? topo.client_cores.at(w.se_id) : 1;
        const unsigned group = topo.group_clients(m_cx.unit());
        if (s.info > group) {
            m_cx.fail(r, m, "more arrivals than client cores in this group");
            return;
        }
        if (s.info == group) m_cx.to_se(up, Opcode::barrier_wait_global, m.addr, m.info, 0, r);
        return;
    }
    default: m_cx.fail(r, m, "unexpected barrier message at a group SE");
    }
}

void GroupSe::depart(StEntry& e, const Message& m, SeResult& r) {
    VarState& s = e.state;
    m_lists.release_all(s, Opcode::barrier_depart_local, Opcode::barrier_depart_global,
                        Opcode::barrier_departure_overflow, m.addr, r);
    for (unsigned se = 0; se < s.overflow_acquires.size(); ++se) {
        if (s.overflow_acquires[se])
            m_cx.to_se(se, Opcode::decrease_indexing_counter, m.addr, s.overflow_acquires[se], 0, r);
        s.overflow_acquires[se] = 0;
    }
    s.info = 0;
    m_cx.free_if(e, true, r);
}

} // namespace syncron
