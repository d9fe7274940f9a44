// The group SE's condition variable (docs/protocol.md "Three levels"): one
// registration of the group at the Master SE, members registered until they
// withdraw, confirmations passed down once the group SE's own is confirmed.
#include "models/se/core/group_se.h"
#include "models/se/core/info_fields.h"
#include "models/se/core/se_context.h"

namespace syncron {

using namespace info_fields;

void GroupSe::cond(StEntry& e, const Message& m, const Requester& w, SeResult& r) {
    // As a local SE whose waiters are own cores and registered member SEs
    // (a member stays registered until it withdraws, as at the Master SE).
    VarState& s = e.state;
    const unsigned unit = m_cx.unit();
    const unsigned up = m_cx.parent(m.addr);
    const auto any = [&] { return s.local.any() || s.global.any(); };
    const auto release_deferred = [&](unsigned c) {
        if (!s.deferred_release.test(c)) return;
        s.deferred_release.reset(c);
        m_cx.release_lock_for(s.info, c, r);
    };
    const auto wake_one = [&] {
        Requester next;
        if (!m_lists.pick_next(s, next)) return;
        if (next.kind == Requester::own) {
            MasterSe::dequeue(s, next);
            m_cx.to_core(next.core, Opcode::cond_grant_local, m.addr, 0, r);
            release_deferred(next.core);
        } else {
            m_cx.to_se(next.se_id, Opcode::cond_grant_global, m.addr, 0, 0, r);
        }
    };
    const auto wake_all = [&] {
        for (auto c = s.local.find_first(); c != BitList::npos; c = s.local.find_next(c))
            release_deferred(static_cast<unsigned>(c));
        m_lists.release_all(s, Opcode::cond_grant_local, Opcode::cond_broad_global, Opcode::cond_grant_overflow, m.addr,
                            r);
    };
    const auto pass_signal_on = [&] {
        if (any()) {
            wake_one();
            return;
        }
        s.pending = false; // nobody left here: withdraw, and let the Master SE pick another
        m_cx.to_se(up, Opcode::cond_signal_global, m.addr, 0, 0, r);
    };
    // Register before the lock is released: no lost wake-up. The Master SE
    // confirms a group SE's registration (SeTopology::confirms_registration),
    // and this SE confirms its members' once it holds that confirmation: a
    // member's lock release may reach the Master SE on another path. Its own
    // cores' releases follow its registration on the same path unless the
    // lock is homed elsewhere.
    const auto register_up = [&] {
        if (s.pending) return;
        s.pending = true;
        ++s.confirmations_due;
        m_cx.to_se(up, Opcode::cond_wait_global, m.addr, s.info, 0, r);
    };
    switch (m.op) {
    case Opcode::cond_wait_local: {
        if (s.local.test(m.core)) {
            m_cx.fail(r, m, "core already waits on this condition variable");
            return;
        }
        s.local.set(m.core);
        s.info = m.info;
        register_up();
        if (m_cx.home(m.info) != m_cx.home(m.addr) && s.confirmations_due > 0)
            s.deferred_release.set(m.core);
        else
            m_cx.release_lock_for(m.info, m.core, r);
        return;
    }
    case Opcode::cond_wait_global: {
        s.global.set(w.se_id);
        s.info = m.info;
        register_up();
        if (s.confirmations_due > 0) {
            if (s.confirmations_owed.size() < m_cx.topo().units) s.confirmations_owed.assign(m_cx.topo().units, 0);
            ++s.confirmations_owed[w.se_id];
        } else {
            m_cx.to_se(w.se_id, Opcode::cond_registered_global, m.addr, m.info, 0, r);
        }
        return;
    }
    case Opcode::cond_registered_global:
        if (!m_cx.take_confirmation(s, m, r)) return;
        if (s.confirmations_due == 0) // the members' too, now that this SE's counts at the Master SE
            for (unsigned se = 0; se < s.confirmations_owed.size(); ++se)
                for (; s.confirmations_owed[se] > 0; --s.confirmations_owed[se])
                    m_cx.to_se(se, Opcode::cond_registered_global, m.addr, s.info, 0, r);
        break;
    case Opcode::cond_signal_local: pass_signal_on(); break;
    case Opcode::cond_signal_global: // a member withdraws, and unless only that, passes the signal on
        s.global.reset(w.se_id);
        if (!(m.info & kCondWithdraw)) pass_signal_on();
        break;
    case Opcode::cond_broad_local:
    case Opcode::cond_broad_global: {
        const bool from_master = m.op == Opcode::cond_broad_global && m.se == unit;
        if (m.op == Opcode::cond_broad_global && !from_master) s.global.reset(w.se_id); // it woke its own
        wake_all();
        s.pending = false;
        if (!from_master) m_cx.to_se(up, Opcode::cond_broad_global, m.addr, 0, 0, r);
        break;
    }
    case Opcode::cond_grant_global: pass_signal_on(); break;
    default: m_cx.fail(r, m, "unexpected condition-variable message at a group SE"); return;
    }
    if (!any() && s.pending) { // the group's last waiter was woken: withdraw without signalling
        s.pending = false;
        m_cx.to_se(up, Opcode::cond_signal_global, m.addr, kCondWithdraw, 0, r);
    }
    m_cx.free_if(e, !any() && !s.pending && s.confirmations_due == 0, r);
}

} // namespace syncron
