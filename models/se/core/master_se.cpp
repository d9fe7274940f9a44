#include "models/se/core/master_se.h"

#include "models/se/core/info_fields.h"
#include "models/se/core/se_context.h"

namespace syncron {

using namespace info_fields;

void MasterSe::run_entry(StEntry& e, const Message& m, SeResult& r) {
    run(e.state, m, r);
    if (r.ok()) m_cx.free_if(e, idle(e.state), r);
}

void MasterSe::run_new_entry(const Message& m, SeResult& r) {
    StEntry& e = m_cx.st().allocate(m.addr, primitive_of(m.op));
    ++r.cost.st_accesses;
    run(e.state, m, r);
    m_cx.free_if(e, idle(e.state) || !r.ok(), r);
}

bool MasterSe::any_waiter(const VarState& s) {
    if (s.local.any() || s.global.any()) return true;
    for (const auto& b : s.remote)
        if (b.any()) return true;
    return false;
}

bool MasterSe::idle(const VarState& s) {
    if (any_waiter(s)) return false;
    switch (s.kind) {
    case Primitive::lock: return !(s.info & kValid);
    case Primitive::barrier: return s.info == 0;
    case Primitive::semaphore: return sem_delta(s.info) == 0;
    default: return true;
    }
}

bool MasterSe::waiting(const VarState& s, const Requester& w) {
    switch (w.kind) {
    case Requester::own: return s.local.test(w.core);
    case Requester::se: return s.global.test(w.se_id);
    default: return w.se_id < s.remote.size() && s.remote[w.se_id].test(w.core);
    }
}

void MasterSe::enqueue(VarState& s, const Requester& w) {
    switch (w.kind) {
    case Requester::own: s.local.set(w.core); break;
    case Requester::se: s.global.set(w.se_id); break;
    default: s.remote[w.se_id].set(w.core); break;
    }
}

bool MasterSe::others_wait(const VarState& s) {
    if (s.global.any()) return true;
    for (const auto& b : s.remote)
        if (b.any()) return true;
    return false;
}

unsigned MasterSe::unit_of(const Requester& w) const {
    return w.kind == Requester::own ? m_cx.unit_of_core(w.core) : w.se_id;
}

void MasterSe::dequeue(VarState& s, const Requester& w) {
    switch (w.kind) {
    case Requester::own: s.local.reset(w.core); break;
    case Requester::se: s.global.reset(w.se_id); break;
    default: s.remote[w.se_id].reset(w.core); break;
    }
}

bool MasterSe::pick_next(VarState& s, Requester& out, bool others_first) const {
    // The Master SE serves its own unit first (paper Figure 4), then the
    // other SEs in rotation; with others_first (fairness) the other way round.
    const auto own = [&] {
        const unsigned c = next_round_robin(s.local, s.rr_local);
        if (c == kNone) return false;
        out = {Requester::own, 0, static_cast<uint16_t>(c)};
        s.rr_local = static_cast<uint16_t>(c + 1);
        return true;
    };
    if (!others_first && own()) return true;
    if (pick_other_se(s, out)) return true;
    return others_first && own();
}

bool MasterSe::pick_other_se(VarState& s, Requester& out) const {
    const unsigned units = m_cx.topo().units;
    for (unsigned i = 0; i < units; ++i) {
        const unsigned se = (s.rr_global + i) % units;
        if (s.global.test(se)) {
            out = {Requester::se, static_cast<uint16_t>(se), 0};
            s.rr_global = static_cast<uint16_t>(se + 1);
            return true;
        }
        if (se < s.remote.size() && s.remote[se].any()) {
            out = {Requester::remote, static_cast<uint16_t>(se), static_cast<uint16_t>(s.remote[se].find_first())};
            s.rr_global = static_cast<uint16_t>(se + 1);
            return true;
        }
    }
    return false;
}

void MasterSe::reply(const Requester& w, Opcode local_op, Opcode global_op, Opcode overflow_op, uint64_t addr,
                     SeResult& r) {
    switch (w.kind) {
    case Requester::own: m_cx.to_core(w.core, local_op, addr, 0, r); break;
    case Requester::se: m_cx.to_se(w.se_id, global_op, addr, 0, 0, r); break;
    default: m_cx.to_se(w.se_id, overflow_op, addr, 0, w.core, r); break;
    }
}

void MasterSe::release_all(VarState& s, Opcode local_op, Opcode global_op, Opcode overflow_op, uint64_t addr,
                           SeResult& r, uint64_t info) {
    m_cx.grant_all_local(s, local_op, addr, r);
    for (unsigned se = 0; se < m_cx.topo().units; ++se) {
        if (s.global.test(se)) m_cx.to_se(se, global_op, addr, info, 0, r);
        if (se < s.remote.size())
            for (auto c = s.remote[se].find_first(); c != BitList::npos; c = s.remote[se].find_next(c))
                m_cx.to_se(se, overflow_op, addr, info, static_cast<unsigned>(c), r);
    }
    s.global.reset();
    for (auto& b : s.remote) b.reset();
}

StEntry* MasterSe::lookup(const Message& m, SeResult& r, bool& ok) {
    ++r.cost.st_accesses;
    StEntry* e = m_cx.st().find(m.addr);
    ok = !e || e->state.kind == primitive_of(m.op);
    if (!ok) m_cx.fail(r, m, "ST entry holds a different primitive");
    return e;
}

void MasterSe::run(VarState& s, const Message& m, SeResult& r) {
    const Requester w = Requester::of(m);
    const SeTopology& topo = m_cx.topo();
    if (w.kind == Requester::remote && s.remote.size() < topo.units)
        s.remote.assign(topo.units, BitList(topo.cores_per_unit));
    switch (primitive_of(m.op)) {
    case Primitive::lock: lock(s, m, w, r); break;
    case Primitive::barrier: barrier(s, m, w, r); break;
    case Primitive::semaphore: sem(s, m, w, r); break;
    case Primitive::condvar: cond(s, m, w, r); break;
    default: m_cx.fail(r, m, "unexpected message at the Master SE");
    }
}

void MasterSe::lock(VarState& s, const Message& m, const Requester& w, SeResult& r) {
    const unsigned unit = m_cx.unit();
    const auto grant = [&](const Requester& to) {
        s.info = to.owner_code(unit);
        // Consecutive grants to the Master SE's own cores (fairness).
        s.local_grants = to.kind == Requester::own ? s.local_grants + 1 : 0;
        if (to.kind == Requester::own && others_wait(s)) m_cx.note_local_run(s.local_grants);
        reply(to, Opcode::lock_grant_local, Opcode::lock_grant_global, Opcode::lock_grant_overflow, m.addr, r);
    };
    if (is_acquire_type(m.op)) {
        // A holder's acquire is an error, unless the organization lets its
        // release trail it on another path: then it queues behind it.
        const bool holder = s.info == w.owner_code(unit) && !m_cx.organization().release_may_trail();
        if (waiting(s, w) || holder) {
            m_cx.fail(r, m, w.describe() + " already holds or waits for this lock");
            return;
        }
        if (!(s.info & kValid))
            grant(w);
        else
            enqueue(s, w);
        return;
    }
    if (s.info != w.owner_code(unit)) {
        m_cx.fail(r, m, "release of a lock not held by " + w.describe());
        return;
    }
    Requester next;
    // The threshold is read now: a run-time change applies from this decision on.
    const unsigned threshold = m_cx.lock_fairness_threshold();
    const bool others_first = threshold && s.local_grants >= threshold;
    if (pick_next(s, next, others_first)) {
        dequeue(s, next);
        m_cx.count_handoff(unit_of(w), unit_of(next));
        grant(next);
    } else {
        s.info = 0;
        s.local_grants = 0;
    }
}

void MasterSe::barrier(VarState& s, const Message& m, const Requester& w, SeResult& r) {
    const SeTopology& topo = m_cx.topo();
    if (w.kind != Requester::se && waiting(s, w)) {
        m_cx.fail(r, m, w.describe() + " already waits at this barrier");
        return;
    }
    uint64_t weight = 1;
    // Two-level: one message stands for the whole unit (three levels: from a
    // group SE, for the whole group).
    if (w.kind == Requester::se && m.info == topo.total_client_cores())
        weight = topo.aggregate_weight(w.se_id, m_cx.unit());
    enqueue(s, w);
    s.info += weight;
    if (s.info < m.info) return;
    // Three levels: a departure names the barrier's count, so a group SE that
    // relays it knows whether it relayed a two-level arrival.
    release_all(s, Opcode::barrier_depart_local, Opcode::barrier_depart_global, Opcode::barrier_departure_overflow,
                m.addr, r, topo.three_level() ? m.info : 0);
    s.info = 0;
}

void MasterSe::sem(VarState& s, const Message& m, const Requester& w, SeResult& r) {
    int32_t delta = sem_delta(s.info);
    uint32_t init = sem_init(s.info);
    bool known = sem_known(s.info);
    const auto grant = [&](const Requester& to) {
        reply(to, Opcode::sem_grant_local, Opcode::sem_grant_global, Opcode::sem_grant_overflow, m.addr, r);
    };
    if (is_acquire_type(m.op)) {
        if (waiting(s, w)) {
            m_cx.fail(r, m, w.describe() + " already waits on this semaphore");
            return;
        }
        if (!known) {
            init = static_cast<uint32_t>(m.info);
            known = true;
        }
        if (static_cast<int64_t>(init) + delta > 0) {
            --delta;
            grant(w);
        } else {
            enqueue(s, w);
        }
    } else {
        Requester next;
        if (pick_next(s, next)) {
            dequeue(s, next);
            grant(next);
        } else {
            ++delta;
        }
    }
    // Once nothing is owed either way, forget the initial value: the next
    // wait brings it again.
    if (delta == 0 && !any_waiter(s)) known = false, init = 0;
    s.info = sem_pack(delta, init, known);
}

} // namespace syncron
