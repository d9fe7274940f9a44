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

} // namespace syncron
