#include "models/se/core/integrated_overflow.h"

#include "models/se/core/master_se.h"
#include "models/se/core/se_context.h"

namespace syncron {

void IntegratedOverflow::master(SeContext& cx, const Message& m, SeResult& r) {
    bool ok = true;
    StEntry* e = MasterSe(cx).lookup(m, r, ok);
    if (!ok) return;
    const Level lv = level_of(m.op);
    const bool acquire = is_acquire_type(m.op);
    if (e && lv == Level::overflow && acquire) {
        // A core of an overflowed SE needs a per-core waiting list the ST
        // entry does not have: move the variable to its syncronVar.
        spill(cx, *e, r);
        serve_from_memory(cx, m, r, true);
        return;
    }
    if (e) {
        MasterSe(cx).run_entry(*e, m, r);
        return;
    }
    ++r.cost.counter_accesses;
    if (cx.counters().value(m.addr) == 0 && lv != Level::overflow) {
        const bool is_post = m.op == Opcode::sem_post_local || m.op == Opcode::sem_post_global;
        if (!acquire && !is_post) {
            // Nothing buffered and nothing in memory: no holder, no waiter.
            if (primitive_of(m.op) == Primitive::lock) cx.fail(r, m, "release of a lock that is not held");
            return; // a signal or broadcast with no waiter has no effect
        }
        if (!cx.st().full()) {
            MasterSe(cx).run_new_entry(m, r);
            return;
        }
    }
    serve_from_memory(cx, m, r, false);
}

void IntegratedOverflow::spill(SeContext& cx, StEntry& e, SeResult& r) {
    const SeTopology& topo = cx.topo();
    m_scratch = e.state;
    m_scratch.remote.assign(topo.units, BitList(topo.cores_per_unit));
    m_scratch.overflow_acquires.assign(topo.units, 0);
    m_scratch.overflowed.resize(topo.units);
    cx.counters().increment(e.addr);
    cx.st().release(e);
    ++r.cost.st_accesses;
    ++r.cost.counter_accesses;
    ++cx.stats().spills;
    ++cx.stats().overflow_episodes;
}

void IntegratedOverflow::serve_from_memory(SeContext& cx, const Message& m, SeResult& r, bool preloaded) {
    SyncVarMemory* memory = cx.memory();
    if (!memory) {
        cx.fail(r, m, "overflow needs memory but this SE has no memory port");
        return;
    }
    const SeTopology& topo = cx.topo();
    const SyncronVarLayout& layout = cx.layout();
    r.cost.overflow = true;
    ++cx.stats().overflow_requests;
    const Primitive kind = primitive_of(m.op);
    if (!preloaded) {
        m_image.resize(layout.bytes());
        memory->read(m.addr, m_image.data(), layout.bytes());
        ++r.cost.mem_reads;
        const bool active = layout.decode(m_image, cx.unit(), kind, m_scratch);
        if (!active) { // the variable starts being served from memory
            m_scratch.reset(kind, cx.organization().own_cores(), topo.units);
            m_scratch.remote.assign(topo.units, BitList(topo.cores_per_unit));
            m_scratch.overflow_acquires.assign(topo.units, 0);
            cx.counters().increment(m.addr);
            ++r.cost.counter_accesses;
            ++cx.stats().overflow_episodes;
        }
    }
    VarState& s = m_scratch;
    s.kind = kind;
    if (level_of(m.op) == Level::overflow && is_acquire_type(m.op)) {
        // Only acquire-type requests raise the sender's counter, so only they
        // mark it overflowed (an SE with a raised counter sends no SE-level
        // request for the variable, keeping Waitlist[se] unambiguous).
        s.overflowed.set(m.se);
        ++s.overflow_acquires[m.se];
    }
    MasterSe(cx).run(s, m, r);
    bool active = true;
    if (MasterSe::idle(s)) {
        // Every waiting list is empty: leave memory, and tell each overflowed
        // SE how many increments to undo.
        active = false;
        cx.counters().decrement(m.addr);
        ++r.cost.counter_accesses;
        for (unsigned se = 0; se < topo.units; ++se) {
            if (s.overflow_acquires[se] > 0)
                cx.to_se(se, Opcode::decrease_indexing_counter, m.addr, s.overflow_acquires[se], 0, r);
            s.overflow_acquires[se] = 0;
        }
        s.overflowed.reset();
    }
    layout.encode(s, cx.unit(), active, m_image);
    memory->write(m.addr, m_image.data(), layout.bytes());
    ++r.cost.mem_writes;
}

void IntegratedOverflow::release_without_entry(SeContext& cx, const Message& m, SeResult& r) {
    // The Master SE, or (three levels) the group SE: one path for everything
    // this SE sends for the variable keeps it in order.
    const unsigned up = cx.parent(m.addr);
    ++r.cost.counter_accesses;
    const bool overflowed = cx.counters().value(m.addr) > 0;
    const auto count = [&] {
        if (overflowed) ++cx.stats().overflow_requests, r.cost.overflow = true;
    };
    switch (m.op) {
    case Opcode::lock_release_local:
        // Without an entry the lock can only have been granted through
        // overflow, and then this SE's counter is still raised.
        if (!overflowed) {
            cx.fail(r, m, "release of a lock not held by core " + std::to_string(m.core));
            return;
        }
        count();
        cx.to_se(up, Opcode::lock_release_overflow, m.addr, 0, m.core, r);
        break;
    case Opcode::sem_post_local:
        count();
        cx.to_se(up, overflowed ? Opcode::sem_post_overflow : Opcode::sem_post_global, m.addr, 0, m.core, r);
        break;
    case Opcode::cond_signal_local:
        count();
        cx.to_se(up, overflowed ? Opcode::cond_signal_overflow : Opcode::cond_signal_global, m.addr, 0, m.core, r);
        break;
    case Opcode::cond_broad_local:
        count();
        cx.to_se(up, overflowed ? Opcode::cond_broad_overflow : Opcode::cond_broad_global, m.addr, 0, m.core, r);
        break;
    default: cx.fail(r, m, "unexpected release-type message");
    }
}

// The validator rejects the abort policy's messages under this policy.
void IntegratedOverflow::abort_global(SeContext& cx, StEntry&, const Message& m, SeResult& r) {
    cx.fail(r, m, "abort_global is only used by the abort overflow policy");
}

void IntegratedOverflow::abort_overflow(SeContext& cx, const Message& m, SeResult& r) {
    cx.fail(r, m, "unexpected overflow message at a non-Master SE");
}

} // namespace syncron
