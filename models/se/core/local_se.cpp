#include "models/se/core/local_se.h"

#include "models/se/core/info_fields.h"
#include "models/se/core/se_context.h"

namespace syncron {

using namespace info_fields;

void LocalSe::handle(const Message& m, SeResult& r) {
    ++r.cost.st_accesses;
    StEntry* e = m_cx.st().find(m.addr);
    const Level lv = level_of(m.op);

    if (lv == Level::overflow) { // replies of the Master SE to an overflowed request
        if (overflow_reply(m, r)) r.cost.overflow = true;
        return;
    }

    if (lv == Level::global) { // replies of the Master SE to this SE's global requests
        if (m.op == Opcode::abort_global) {
            r.cost.overflow = true;
            // No entry: nothing waits here any more (one-level barriers may
            // get one abort per forwarded arrival, withdrawn registrations).
            if (e) m_cx.overflow().abort_global(m_cx, *e, m, r);
            return;
        }
        if (!e) {
            if (m.op == Opcode::cond_grant_global) { // registration already withdrawn: pass it on
                m_cx.to_se(m_cx.parent(m.addr), Opcode::cond_signal_global, m.addr, 0, 0, r);
                return;
            }
            if (m.op == Opcode::cond_broad_global) return; // nobody waits here any more
            m_cx.fail(r, m, "global reply for a variable with no ST entry");
            return;
        }
        dispatch(*e, m, r);
        return;
    }

    // A request from one of this unit's cores.
    if (!e) {
        if (!is_acquire_type(m.op)) {
            // Release-type requests never allocate an entry at a local SE:
            // with no entry, the variable's state is at the Master SE.
            m_cx.overflow().release_without_entry(m_cx, m, r);
            return;
        }
        ++r.cost.counter_accesses;
        if (m_cx.counters().value(m.addr) > 0 || m_cx.st().full()) {
            redirect(m, r);
            return;
        }
        e = &m_cx.st().allocate(m.addr, primitive_of(m.op));
        ++r.cost.st_accesses;
    }
    dispatch(*e, m, r);
}

bool LocalSe::overflow_reply(const Message& m, SeResult& r) {
    switch (m.op) {
    case Opcode::lock_grant_overflow: m_cx.to_core(m.core, Opcode::lock_grant_local, m.addr, 0, r); break;
    case Opcode::sem_grant_overflow:
        if (!m_cx.overflow().redirected_wait_granted(m_cx, m, r)) return false;
        m_cx.to_core(m.core, Opcode::sem_grant_local, m.addr, 0, r);
        break;
    case Opcode::cond_grant_overflow: m_cx.to_core(m.core, Opcode::cond_grant_local, m.addr, 0, r); break;
    case Opcode::cond_registered_overflow: m_cx.release_lock_for(m.info, m.core, r); break; // deferred in redirect()
    case Opcode::barrier_departure_overflow: m_cx.to_core(m.core, Opcode::barrier_depart_local, m.addr, 0, r); break;
    case Opcode::abort_overflow: m_cx.overflow().abort_overflow(m_cx, m, r); break;
    default: m_cx.fail(r, m, "unexpected overflow message at a non-Master SE");
    }
    return true;
}

void LocalSe::redirect(const Message& m, SeResult& r) {
    // §4.3 case 2: this SE's ST cannot hold the variable; the Master SE keeps
    // the core's request (integrated policy: in syncronVar; the counter stays
    // raised until the Master SE's decrease_indexing_counter). Abort policy
    // (L2): the Master SE serves it in software or aborts it; the counter
    // stays raised until the core's decrease (or a retry undoes it); a
    // cond_wait is never counted and keeps its lock.
    const Opcode op = overflow_opcode_of(m.op);
    if (op == m.op || level_of(op) != Level::overflow) {
        m_cx.fail(r, m, "cannot redirect");
        return;
    }
    OverflowPolicyIF& policy = m_cx.overflow();
    if (policy.redirect_counts(m.op)) m_cx.counters().increment(m.addr);
    ++m_cx.stats().overflow_requests;
    r.cost.overflow = true;
    // Three levels: through the group SE, as everything this SE sends for
    // the variable (one path keeps it in order; a barrier's group aggregate
    // must count the arrival; docs/protocol.md "Three levels").
    m_cx.to_se(m_cx.parent(m.addr), op, m.addr, m.info, m.core, r);
    // The lock is released now, or (lock homed apart from the condvar) once
    // the Master SE confirms the registration (cond_registered_overflow).
    if (m.op == Opcode::cond_wait_local && policy.redirect_releases_lock() && !needs_confirmation(m.addr, m.info))
        m_cx.release_lock_for(m.info, m.core, r);
}

void LocalSe::dispatch(StEntry& e, const Message& m, SeResult& r) {
    if (e.state.kind != primitive_of(m.op)) {
        m_cx.fail(r, m, "ST entry holds a different primitive");
        return;
    }
    switch (e.state.kind) {
    case Primitive::lock: lock(e, m, r); break;
    case Primitive::barrier: barrier(e, m, r); break;
    case Primitive::semaphore: sem(e, m, r); break;
    case Primitive::condvar: cond(e, m, r); break;
    default: break;
    }
}

void LocalSe::lock(StEntry& e, const Message& m, SeResult& r) {
    VarState& s = e.state;
    const unsigned up = m_cx.parent(m.addr); // the Master SE, or the group SE
    const bool held = s.info & kValid;
    switch (m.op) {
    case Opcode::lock_acquire_local:
        if (s.local.test(m.core) || (held && (s.info & 0xffff) == m.core)) {
            m_cx.fail(r, m, "core already holds or waits for this lock");
            return;
        }
        s.local.set(m.core);
        if (!held && !s.pending) { // first local request: one aggregated global request
            s.pending = true;
            m_cx.to_se(up, Opcode::lock_acquire_global, m.addr, 0, 0, r);
        }
        return;
    case Opcode::lock_grant_global: {
        if (!s.pending || held) {
            m_cx.fail(r, m, "lock_grant_global without an outstanding request");
            return;
        }
        s.pending = false;
        const unsigned c = m_cx.grant_next_local(s, Opcode::lock_grant_local, m.addr, r);
        if (c == kNone) { // cannot happen: waiters only leave through grants
            m_cx.to_se(up, Opcode::lock_release_global, m.addr, 0, 0, r);
            m_cx.free_if(e, true, r);
            return;
        }
        s.info = kValid | c;
        s.local_grants = 1;
        m_cx.note_local_run(1);
        return;
    }
    case Opcode::lock_release_local: {
        if (!held || (s.info & 0xffff) != m.core) {
            m_cx.fail(r, m, "release of a lock the core does not hold");
            return;
        }
        // Fairness: after `threshold` grants in a row inside the unit the
        // lock goes back to the Master SE even if local cores still wait.
        // The threshold is read now: a run-time change applies from this decision on.
        const unsigned threshold = m_cx.lock_fairness_threshold();
        const bool yield = threshold && s.local_grants >= threshold && s.local.any();
        if (!yield) {
            const unsigned c = m_cx.grant_next_local(s, Opcode::lock_grant_local, m.addr, r);
            if (c != kNone) { // hand over inside the unit
                s.info = kValid | c;
                ++s.local_grants;
                m_cx.count_handoff(m_cx.unit_of_core(m.core), m_cx.unit_of_core(c));
                m_cx.note_local_run(s.local_grants);
                return;
            }
        }
        s.info = 0; // no local waiter left (or yielding): one aggregated release
        s.local_grants = 0;
        m_cx.to_se(up, Opcode::lock_release_global, m.addr, 0, 0, r);
        if (s.local.any()) { // yielded: queue again behind the other SEs
            s.pending = true;
            m_cx.to_se(up, Opcode::lock_acquire_global, m.addr, 0, 0, r);
            return;
        }
        m_cx.free_if(e, true, r);
        return;
    }
    default: m_cx.fail(r, m, "unexpected lock message at a local SE");
    }
}

void LocalSe::barrier(StEntry& e, const Message& m, SeResult& r) {
    VarState& s = e.state;
    const SeTopology& topo = m_cx.topo();
    const unsigned up = m_cx.parent(m.addr); // the Master SE, or the group SE
    const auto depart_all = [&] {
        m_cx.grant_all_local(s, Opcode::barrier_depart_local, m.addr, r);
        m_cx.free_if(e, true, r);
    };
    switch (m.op) {
    case Opcode::barrier_wait_local_within_unit:
        if (s.local.test(m.core)) {
            m_cx.fail(r, m, "core already waits at this barrier");
            return;
        }
        s.local.set(m.core);
        s.request_info = m.info;
        if (++s.info >= m.info) depart_all(); // every participant is in this unit
        return;
    case Opcode::barrier_wait_local_across_units: {
        if (s.local.test(m.core)) {
            m_cx.fail(r, m, "core already waits at this barrier");
            return;
        }
        s.local.set(m.core);
        s.request_info = m.info;
        ++s.info;
        const bool two_level = m.info == topo.total_client_cores();
        if (!two_level) { // one-level rule: forward every arrival to the Master SE
            m_cx.to_se(up, Opcode::barrier_wait_global, m.addr, m.info, 0, r);
            return;
        }
        const unsigned mine = topo.client_cores[m_cx.unit()];
        if (s.info > mine) {
            m_cx.fail(r, m, "more arrivals than client cores in this unit");
            return;
        }
        if (s.info == mine) m_cx.to_se(up, Opcode::barrier_wait_global, m.addr, m.info, 0, r);
        return;
    }
    case Opcode::barrier_depart_global: depart_all(); return;
    default: m_cx.fail(r, m, "unexpected barrier message at a local SE");
    }
}

void LocalSe::sem(StEntry& e, const Message& m, SeResult& r) {
    // One request per SE outstanding at the Master SE. A post arriving while
    // more local cores wait than that request covers is handed to one of them
    // directly; otherwise it goes to the Master SE, so an outstanding request
    // always has a local waiter to serve.
    VarState& s = e.state;
    const unsigned up = m_cx.parent(m.addr); // the Master SE, or the group SE
    const auto grant_one = [&] { m_cx.grant_next_local(s, Opcode::sem_grant_local, m.addr, r); };
    switch (m.op) {
    case Opcode::sem_wait_local:
        if (s.local.test(m.core)) {
            m_cx.fail(r, m, "core already waits on this semaphore");
            return;
        }
        s.local.set(m.core);
        s.info = m.info; // initial resources, repeated in every global request
        if (!s.pending) {
            s.pending = true;
            m_cx.to_se(up, Opcode::sem_wait_global, m.addr, s.info, 0, r);
        }
        return;
    case Opcode::sem_post_local:
        if (s.local.count() >= 2)
            grant_one();
        else
            m_cx.to_se(up, Opcode::sem_post_global, m.addr, 0, 0, r);
        m_cx.free_if(e, s.local.none() && !s.pending, r);
        return;
    case Opcode::sem_grant_global:
        if (!s.pending) {
            m_cx.fail(r, m, "sem_grant_global without an outstanding request");
            return;
        }
        s.pending = false;
        if (s.local.any()) {
            grant_one();
            if (s.local.any()) {
                s.pending = true;
                m_cx.to_se(up, Opcode::sem_wait_global, m.addr, s.info, 0, r);
            }
        } else {
            m_cx.to_se(up, Opcode::sem_post_global, m.addr, 0, 0, r); // give the resource back
        }
        m_cx.free_if(e, s.local.none() && !s.pending, r);
        return;
    default: m_cx.fail(r, m, "unexpected semaphore message at a local SE");
    }
}

} // namespace syncron
