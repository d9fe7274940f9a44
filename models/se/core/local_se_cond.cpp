// The local SE's condition variable (docs/protocol.md): its cores' waits
// registered once at the Master SE, signals served locally when it can.
#include "models/se/core/info_fields.h"
#include "models/se/core/local_se.h"
#include "models/se/core/se_context.h"

namespace syncron {

using namespace info_fields;

void LocalSe::cond(StEntry& e, const Message& m, SeResult& r) {
    // The Master SE knows which SEs have waiters (one registration per SE);
    // a signal finds a waiter locally first, otherwise goes to the Master SE,
    // which also takes it as the withdrawal of this SE's registration.
    VarState& s = e.state;
    const unsigned up = m_cx.parent(m.addr); // the Master SE, or the group SE
    // A woken core whose lock release still waits for the confirmation gets
    // it now: the wake-up it was protecting has happened.
    const auto release_deferred = [&](unsigned c) {
        if (c == kNone || !s.deferred_release.test(c)) return;
        s.deferred_release.reset(c);
        m_cx.release_lock_for(s.info, c, r);
    };
    const auto wake_one = [&] { release_deferred(m_cx.grant_next_local(s, Opcode::cond_grant_local, m.addr, r)); };
    const auto wake_all = [&] {
        for (auto c = s.local.find_first(); c != BitList::npos; c = s.local.find_next(c))
            release_deferred(static_cast<unsigned>(c));
        m_cx.grant_all_local(s, Opcode::cond_grant_local, m.addr, r);
    };
    switch (m.op) {
    case Opcode::cond_wait_local: {
        if (s.local.test(m.core)) {
            m_cx.fail(r, m, "core already waits on this condition variable");
            return;
        }
        s.local.set(m.core);
        s.info = m.info;
        // Register before the lock is released: no lost wake-up. With the
        // lock homed at the condvar's Master SE, the FIFO path to it orders
        // the registration before the release; otherwise the release waits
        // for the Master SE's confirmation.
        const bool confirm = needs_confirmation(m.addr, m.info);
        if (!s.pending) {
            s.pending = true;
            if (confirm) ++s.confirmations_due;
            m_cx.to_se(up, Opcode::cond_wait_global, m.addr, m.info, 0, r);
        }
        if (confirm && s.confirmations_due > 0)
            s.deferred_release.set(m.core);
        else
            m_cx.release_lock_for(m.info, m.core, r);
        return;
    }
    case Opcode::cond_registered_global:
        if (!m_cx.take_confirmation(s, m, r)) return;
        break;
    case Opcode::cond_signal_local:
        if (s.local.any()) {
            wake_one();
        } else {
            s.pending = false;
            m_cx.to_se(up, Opcode::cond_signal_global, m.addr, 0, 0, r);
        }
        break;
    case Opcode::cond_broad_local:
        wake_all();
        s.pending = false;
        m_cx.to_se(up, Opcode::cond_broad_global, m.addr, 0, 0, r);
        break;
    case Opcode::cond_grant_global:
        if (s.local.any()) {
            wake_one();
        } else { // nobody left here: withdraw and let the Master SE pick another
            s.pending = false;
            m_cx.to_se(up, Opcode::cond_signal_global, m.addr, 0, 0, r);
        }
        break;
    case Opcode::cond_broad_global:
        wake_all();
        s.pending = false;
        break;
    default: m_cx.fail(r, m, "unexpected condition-variable message at a local SE"); return;
    }
    if (s.local.none() && s.pending) {
        // The last local waiter was woken here: withdraw the registration
        // without signalling anyone else.
        s.pending = false;
        m_cx.to_se(up, Opcode::cond_signal_global, m.addr, kCondWithdraw, 0, r);
    }
    m_cx.free_if(e, s.local.none() && !s.pending && s.confirmations_due == 0, r);
}

bool LocalSe::needs_confirmation(uint64_t cond, uint64_t lock) const {
    return m_cx.topo().confirms_registration(m_cx.unit(), m_cx.home(cond), m_cx.home(lock));
}

} // namespace syncron
