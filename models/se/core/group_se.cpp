#include "models/se/core/group_se.h"

#include "models/se/core/info_fields.h"
#include "models/se/core/local_se.h"
#include "models/se/core/se_context.h"

namespace syncron {

using namespace info_fields;

void GroupSe::handle(const Message& m, SeResult& r) {
    const Level lv = level_of(m.op);
    const unsigned unit = m_cx.unit();
    if ((m.op == Opcode::barrier_depart_global || m.op == Opcode::barrier_departure_overflow) && m.se != unit) {
        pass_down(m, r); // the departure of an arrival this SE passed on
        return;
    }
    if (lv == Level::overflow && m.se == unit) { // replies to own cores' redirected requests
        LocalSe(m_cx).handle(m, r);
        return;
    }
    const bool arrival = m.op == Opcode::barrier_wait_global || m.op == Opcode::barrier_wait_overflow;
    if ((lv == Level::overflow && m.op != Opcode::barrier_wait_overflow) || (arrival && !two_level(m))) {
        // A member's core's request: the Master SE keeps it. A one-level
        // barrier arrival: nothing to aggregate, and passed on as it is, its
        // member gets exactly one departure however the arrivals went.
        pass_up(m, r, false);
        return;
    }
    ++r.cost.st_accesses;
    StEntry* e = m_cx.st().find(m.addr);
    const bool member = from_member(m);
    if (lv == Level::global && !member) { // a reply of the Master SE to this SE's request
        if (e) {
            dispatch(*e, m, r);
        } else if (m.op == Opcode::cond_grant_global) { // registration already withdrawn: pass it on
            m_cx.to_se(m_cx.parent(m.addr), Opcode::cond_signal_global, m.addr, 0, 0, r);
        } else if (m.op != Opcode::cond_broad_global) { // a broadcast finds nobody here any more
            m_cx.fail(r, m, "global reply for a variable with no ST entry");
        }
        return;
    }
    if (e && e->state.kind != primitive_of(m.op)) {
        m_cx.fail(r, m, "ST entry holds a different primitive");
        return;
    }
    const bool acquire = is_acquire_type(m.op);
    if (member && !acquire && (!e || !knows(e->state, m, Requester::of(m), unit))) {
        pass_up(m, r, false); // belongs to a request the Master SE holds
        return;
    }
    if (!e) {
        if (!acquire) { // an own core's release-type request with no entry
            m_cx.overflow().release_without_entry(m_cx, m, r);
            return;
        }
        ++r.cost.counter_accesses;
        if (m_cx.counters().value(m.addr) > 0 || m_cx.st().full()) {
            if (member)
                pass_up(m, r, true);
            else
                LocalSe(m_cx).redirect(m, r);
            return;
        }
        e = &m_cx.st().allocate(m.addr, primitive_of(m.op));
        ++r.cost.st_accesses;
    }
    dispatch(*e, m, r);
}

bool GroupSe::from_member(const Message& m) const {
    // Requests from the group's SEs carry their sender; the Master SE's
    // replies carry this SE (docs/message_format.md).
    return level_of(m.op) != Level::local && m.se != m_cx.unit();
}

bool GroupSe::knows(const VarState& s, const Message& m, const Requester& w, unsigned unit) {
    switch (m.op) {
    case Opcode::lock_release_global: return s.info == w.owner_code(unit);
    case Opcode::sem_post_global: return true; // a post is anyone's: the group may use it
    case Opcode::cond_signal_global:
    case Opcode::cond_broad_global: return s.global.test(w.se_id);
    default: return false;
    }
}

bool GroupSe::two_level(const Message& m) const { return m.info == m_cx.topo().total_client_cores(); }

void GroupSe::pass_up(const Message& m, SeResult& r, bool acquire) {
    ++m_cx.stats().group_relays;
    if (acquire) { // the ST cannot buffer it: the Master SE serves the member itself
        ++m_cx.stats().overflow_requests;
        r.cost.overflow = true;
        if (primitive_of(m.op) == Primitive::barrier && two_level(m)) {
            // Until its departure passes back, every arrival of the group
            // for the variable is passed on too: no aggregate here can wait
            // for one the Master SE counts.
            m_cx.counters().increment(m.addr);
            ++r.cost.counter_accesses;
        }
    }
    m_cx.emit(Outgoing::Dest::se, m_cx.parent(m.addr), m, r);
}

void GroupSe::pass_down(const Message& m, SeResult& r) {
    ++m_cx.stats().group_relays;
    if (two_level(m)) { // the departure names the barrier's count (MasterSe::barrier)
        ++r.cost.counter_accesses;
        if (!m_cx.counters().decrement(m.addr)) {
            m_cx.fail(r, m, "barrier departure for an arrival this group SE did not pass on");
            return;
        }
    }
    m_cx.emit(Outgoing::Dest::se, m.se, m, r);
}

void GroupSe::dispatch(StEntry& e, const Message& m, SeResult& r) {
    const Requester w = Requester::of(m);
    switch (e.state.kind) {
    case Primitive::lock: lock(e, m, w, r); break;
    case Primitive::barrier: barrier(e, m, w, r); break;
    case Primitive::semaphore: sem(e, m, w, r); break;
    case Primitive::condvar: cond(e, m, w, r); break;
    default: m_cx.fail(r, m, "unexpected message at a group SE");
    }
}

void GroupSe::grant_one(VarState& s, Opcode local_op, Opcode global_op, uint64_t addr, SeResult& r) {
    Requester next;
    if (!m_lists.pick_next(s, next)) return;
    MasterSe::dequeue(s, next);
    m_lists.reply(next, local_op, global_op, global_op, addr, r);
}

void GroupSe::lock(StEntry& e, const Message& m, const Requester& w, SeResult& r) {
    VarState& s = e.state;
    const unsigned unit = m_cx.unit();
    const unsigned up = m_cx.parent(m.addr);
    const bool held = s.info & kValid;
    const auto grant = [&](const Requester& to) {
        s.info = to.owner_code(unit);
        m_lists.reply(to, Opcode::lock_grant_local, Opcode::lock_grant_global, Opcode::lock_grant_overflow, m.addr, r);
    };
    Requester next;
    switch (m.op) {
    case Opcode::lock_acquire_local:
    case Opcode::lock_acquire_global:
        if (MasterSe::waiting(s, w) || s.info == w.owner_code(unit)) {
            m_cx.fail(r, m, w.describe() + " already holds or waits for this lock");
            return;
        }
        MasterSe::enqueue(s, w);
        if (!held && !s.pending) { // the group's first request: one aggregated global request
            s.pending = true;
            m_cx.to_se(up, Opcode::lock_acquire_global, m.addr, 0, 0, r);
        }
        return;
    case Opcode::lock_grant_global:
        if (!s.pending || held) {
            m_cx.fail(r, m, "lock_grant_global without an outstanding request");
            return;
        }
        s.pending = false;
        if (!m_lists.pick_next(s, next)) { // cannot happen: waiters only leave through grants
            m_cx.to_se(up, Opcode::lock_release_global, m.addr, 0, 0, r);
            m_cx.free_if(e, true, r);
            return;
        }
        MasterSe::dequeue(s, next);
        grant(next);
        s.local_grants = 1;
        m_cx.note_local_run(1);
        return;
    case Opcode::lock_release_local:
    case Opcode::lock_release_global: {
        if (s.info != w.owner_code(unit)) {
            m_cx.fail(r, m, "release of a lock not held by " + w.describe());
            return;
        }
        // Fairness: after `threshold` grants in a row inside the group the
        // lock goes back to the Master SE even if the group still waits.
        const unsigned threshold = m_cx.lock_fairness_threshold();
        const bool yield = threshold && s.local_grants >= threshold && MasterSe::any_waiter(s);
        if (!yield && m_lists.pick_next(s, next)) { // hand over inside the group
            MasterSe::dequeue(s, next);
            m_cx.count_handoff(m_lists.unit_of(w), m_lists.unit_of(next));
            grant(next);
            m_cx.note_local_run(++s.local_grants);
            return;
        }
        s.info = 0; // nobody left in the group (or yielding): one aggregated release
        s.local_grants = 0;
        m_cx.to_se(up, Opcode::lock_release_global, m.addr, 0, 0, r);
        if (MasterSe::any_waiter(s)) { // yielded: queue again behind the other groups
            s.pending = true;
            m_cx.to_se(up, Opcode::lock_acquire_global, m.addr, 0, 0, r);
            return;
        }
        m_cx.free_if(e, true, r);
        return;
    }
    default: m_cx.fail(r, m, "unexpected lock message at a group SE");
    }
}

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

void GroupSe::sem(StEntry& e, const Message& m, const Requester& w, SeResult& r) {
    // As a local SE: one request of the group outstanding at the Master SE;
    // a post finds a waiter here first when more wait than that request covers.
    VarState& s = e.state;
    const unsigned up = m_cx.parent(m.addr);
    const auto waiters = [&] { return s.local.count() + s.global.count(); };
    const auto grant = [&] { grant_one(s, Opcode::sem_grant_local, Opcode::sem_grant_global, m.addr, r); };
    switch (m.op) {
    case Opcode::sem_wait_local:
    case Opcode::sem_wait_global:
        if (MasterSe::waiting(s, w)) {
            m_cx.fail(r, m, w.describe() + " already waits on this semaphore");
            return;
        }
        MasterSe::enqueue(s, w);
        s.info = m.info; // initial resources, repeated in every global request
        if (!s.pending) {
            s.pending = true;
            m_cx.to_se(up, Opcode::sem_wait_global, m.addr, s.info, 0, r);
        }
        return;
    case Opcode::sem_post_local:
    case Opcode::sem_post_global:
        if (waiters() >= 2)
            grant();
        else
            m_cx.to_se(up, Opcode::sem_post_global, m.addr, 0, 0, r);
        break;
    case Opcode::sem_grant_global:
        if (!s.pending) {
            m_cx.fail(r, m, "sem_grant_global without an outstanding request");
            return;
        }
        s.pending = false;
        if (waiters() == 0) {
            m_cx.to_se(up, Opcode::sem_post_global, m.addr, 0, 0, r); // give the resource back
            break;
        }
        grant();
        if (waiters()) {
            s.pending = true;
            m_cx.to_se(up, Opcode::sem_wait_global, m.addr, s.info, 0, r);
        }
        break;
    default: m_cx.fail(r, m, "unexpected semaphore message at a group SE"); return;
    }
    m_cx.free_if(e, waiters() == 0 && !s.pending, r);
}

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
        if (s.confirmations_due == 0) {
            m_cx.fail(r, m, "cond_registered_global without an unconfirmed registration");
            return;
        }
        if (--s.confirmations_due == 0) {
            for (auto c = s.deferred_release.find_first(); c != BitList::npos; c = s.deferred_release.find_next(c))
                m_cx.release_lock_for(s.info, static_cast<unsigned>(c), r);
            s.deferred_release.reset();
            for (unsigned se = 0; se < s.confirmations_owed.size(); ++se)
                for (; s.confirmations_owed[se] > 0; --s.confirmations_owed[se])
                    m_cx.to_se(se, Opcode::cond_registered_global, m.addr, s.info, 0, r);
        }
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
