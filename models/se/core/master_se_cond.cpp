// The Master SE's condition variable (docs/protocol.md): waiters and SEs
// registered per variable, a signal or broadcast passed to them.
#include "models/se/core/info_fields.h"
#include "models/se/core/master_se.h"
#include "models/se/core/se_context.h"

namespace syncron {

using namespace info_fields;

void MasterSe::cond(VarState& s, const Message& m, const Requester& w, SeResult& r) {
    switch (m.op) {
    case Opcode::cond_wait_local:
    case Opcode::cond_wait_global:
    case Opcode::cond_wait_overflow:
        if (w.kind != Requester::se && waiting(s, w)) {
            m_cx.fail(r, m, w.describe() + " already waits on this condition variable");
            return;
        }
        enqueue(s, w);
        s.info = m.info;
        if (w.kind == Requester::own) {
            m_cx.release_lock_for(m.info, w.core, r);
        } else if (m_cx.topo().confirms_registration(w.se_id, m_cx.unit(), m_cx.home(m.info))) {
            // The lock is homed elsewhere (or, three levels, the registration
            // came through a group SE): a signal that follows its release
            // could reach this SE before a registration still in flight, so
            // the registering SE releases only on this confirmation (FIFO
            // back to it: after anything sent to it before).
            if (w.kind == Requester::se)
                m_cx.to_se(w.se_id, Opcode::cond_registered_global, m.addr, m.info, 0, r);
            else if (m_cx.overflow().redirect_releases_lock())
                m_cx.to_se(w.se_id, Opcode::cond_registered_overflow, m.addr, m.info, w.core, r);
        }
        return;
    case Opcode::cond_signal_local:
    case Opcode::cond_signal_global:
    case Opcode::cond_signal_overflow: {
        if (w.kind == Requester::se) {
            s.global.reset(w.se_id); // that SE has no waiter left
            if (m.info & kCondWithdraw) return;
        }
        Requester next;
        if (!pick_next(s, next)) return;                  // no waiter: the signal has no effect
        if (next.kind != Requester::se) dequeue(s, next); // an SE stays registered until it withdraws
        reply(next, Opcode::cond_grant_local, Opcode::cond_grant_global, Opcode::cond_grant_overflow, m.addr, r);
        return;
    }
    default: {                                                // broadcast
        if (w.kind == Requester::se) s.global.reset(w.se_id); // it woke its own waiters
        release_all(s, Opcode::cond_grant_local, Opcode::cond_broad_global, Opcode::cond_grant_overflow, m.addr, r);
    }
    }
}

} // namespace syncron
