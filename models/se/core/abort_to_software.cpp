#include "models/se/core/abort_to_software.h"

#include "models/se/core/info_fields.h"
#include "models/se/core/master_se.h"
#include "models/se/core/se_context.h"

namespace syncron {

using namespace info_fields;

namespace {
bool is_sem_post(Opcode op) {
    return op == Opcode::sem_post_local || op == Opcode::sem_post_global || op == Opcode::sem_post_overflow;
}
} // namespace

// ---------------------------------------------------------------- local SE

void AbortToSoftware::release_without_entry(SeContext& cx, const Message& m, SeResult& r) {
    // L3: the Master SE decides (hardware, software or an error); the
    // message names the core so a forward keeps its identity.
    Opcode op;
    switch (m.op) {
    case Opcode::lock_release_local: op = Opcode::lock_release_overflow; break;
    case Opcode::sem_post_local: op = Opcode::sem_post_global; break;
    case Opcode::cond_signal_local: op = Opcode::cond_signal_global; break;
    case Opcode::cond_broad_local: op = Opcode::cond_broad_global; break;
    default: cx.fail(r, m, "unexpected release-type message"); return;
    }
    if (op == Opcode::lock_release_overflow) ++cx.stats().overflow_requests, r.cost.overflow = true;
    cx.to_se(cx.home(m.addr), op, m.addr, 0, m.core, r);
}

bool AbortToSoftware::redirected_wait_granted(SeContext& cx, const Message& m, SeResult& r) {
    // The Master SE granted a redirected wait at once from its ST entry; the
    // request never went to software, so undo the redirect's increment.
    ++r.cost.counter_accesses;
    if (!cx.counters().decrement(m.addr)) {
        cx.fail(r, m, "sem_grant_overflow but the indexing counter is zero");
        return false;
    }
    return true;
}

void AbortToSoftware::abort_global(SeContext& cx, StEntry& e, const Message& m, SeResult& r) {
    // L1: the Master SE did not take this SE's request as a whole. Each core
    // it stood for becomes an individual redirect (counted here like an L2
    // redirect), so the Master SE decides per core: software, or retry.
    VarState& s = e.state;
    const Opcode aborted = abort_info::aborted(m.info);
    if (!is_acquire_type(aborted) || primitive_of(aborted) != s.kind) {
        cx.fail(r, m, "abort_global for a different primitive than the ST entry holds");
        return;
    }
    if (s.kind == Primitive::lock && (s.info & kValid)) {
        cx.fail(r, m, "abort_global while this SE holds the lock for its unit");
        return;
    }
    const unsigned master = cx.home(m.addr);
    const Opcode redirect = overflow_opcode_of(aborted);
    uint64_t info = 0;
    switch (s.kind) {
    case Primitive::barrier: info = s.request_info; break;             // initial cores
    case Primitive::semaphore: info = s.info; break;                   // initial resources
    case Primitive::condvar: info = s.info | kCondLockReleased; break; // lock, released at registration
    default: break;
    }
    if (s.kind == Primitive::condvar && s.confirmations_due > 0) {
        // The abort answers a registration that would have been confirmed
        // (lock homed apart): the converted waiters' locks go now, as their
        // redirects say (kCondLockReleased).
        --s.confirmations_due;
        for (auto c = s.deferred_release.find_first(); c != BitList::npos; c = s.deferred_release.find_next(c))
            cx.release_lock_for(s.info, static_cast<unsigned>(c), r);
        s.deferred_release.reset();
    }
    const auto convert = [&](unsigned c) {
        s.local.reset(c);
        if (counted_in_software(aborted)) {
            cx.counters().increment(m.addr);
            ++r.cost.counter_accesses;
        }
        ++cx.stats().overflow_requests;
        cx.to_se(master, redirect, m.addr, info, c, r);
    };
    // A one-level barrier forwards every arrival: the abort stands for one of
    // them (waiting cores are interchangeable), the others may be counted in
    // hardware. Otherwise the aborted request stood for every local waiter.
    const bool one_arrival = s.kind == Primitive::barrier && s.request_info != cx.topo().total_client_cores() &&
                             !(m.info & abort_info::kAllWaiters);
    if (one_arrival) {
        const auto c = s.local.find_first();
        if (c != BitList::npos) {
            convert(static_cast<unsigned>(c));
            if (s.info > 0) --s.info;
        }
    } else {
        for (auto c = s.local.find_first(); c != BitList::npos; c = s.local.find_next(c))
            convert(static_cast<unsigned>(c));
        if (s.kind == Primitive::barrier) s.info = 0;
    }
    if (s.local.none()) {
        s.pending = false;
        cx.free_if(e, s.confirmations_due == 0, r);
    }
}

void AbortToSoftware::abort_overflow(SeContext& cx, const Message& m, SeResult& r) {
    // L4: the Master SE aborted a redirected request of one of this unit's
    // cores. A retry was not counted into software: undo this SE's increment.
    const Opcode aborted = abort_info::aborted(m.info);
    if (!is_acquire_type(aborted)) {
        cx.fail(r, m, "abort_overflow for a request that is not acquire-type");
        return;
    }
    const uint64_t flags = m.info & (abort_info::kRetry | abort_info::kLockReleased);
    if ((m.info & abort_info::kRetry) && counted_in_software(aborted)) {
        ++r.cost.counter_accesses;
        if (!cx.counters().decrement(m.addr)) {
            cx.fail(r, m, "abort_overflow with kRetry but the indexing counter is zero");
            return;
        }
    }
    cx.to_core(m.core, Opcode::abort_local, m.addr, abort_info::make(local_opcode_of(aborted), flags), r);
}

// ---------------------------------------------------------------- Master SE

void AbortToSoftware::master(SeContext& cx, const Message& m, SeResult& r) {
    bool ok = true;
    StEntry* e = MasterSe(cx).lookup(m, r, ok);
    if (!ok) return;
    const Level lv = level_of(m.op);
    const bool acquire = is_acquire_type(m.op);
    if (e) { // M1: in hardware
        if (lv == Level::overflow && acquire) {
            if (e->state.kind == Primitive::barrier) { // a retried arrival could wait forever
                evict_barrier(cx, *e, m, r);
                return;
            }
            // A wait that a banked resource can satisfy at once needs no
            // per-core list: grant it (retrying it could wait forever, the
            // entry stays busy until this very wait takes the resource).
            if (m.op == Opcode::sem_wait_overflow && sem_available(e->state, m.info)) {
                MasterSe(cx).run_entry(*e, m, r);
                return;
            }
            // Otherwise the entry has no per-core list for another unit's core: retry.
            uint64_t flags = abort_info::kRetry;
            if (m.op == Opcode::cond_wait_overflow && (m.info & kCondLockReleased)) flags |= abort_info::kLockReleased;
            ++cx.stats().retries;
            ++cx.stats().overflow_requests;
            r.cost.overflow = true;
            cx.to_se(m.se, Opcode::abort_overflow, m.addr, abort_info::make(m.op, flags), m.core, r);
            return;
        }
        MasterSe(cx).run_entry(*e, m, r);
        return;
    }
    ++r.cost.counter_accesses;
    const bool software = cx.counters().value(m.addr) > 0;
    if (acquire) {
        if (lv != Level::overflow && !software && !cx.st().full()) { // M3: enters hardware
            MasterSe(cx).run_new_entry(m, r);
            return;
        }
        ++cx.stats().overflow_requests;
        r.cost.overflow = true;
        if (lv == Level::global) { // that SE turns its waiters into redirects (counted then)
            cx.to_se(m.se, Opcode::abort_global, m.addr, abort_info::make(m.op), 0, r);
            return;
        }
        divert(cx, m, r);
        return;
    }
    if (m.op == Opcode::cond_signal_global && (m.info & kCondWithdraw)) return; // withdrawal only
    if (software) {                                                             // M2
        forward_to_server(cx, m, r);
        return;
    }
    // M3, release-type: as in hardware; a post the ST cannot hold starts software.
    if (!is_sem_post(m.op)) {
        if (primitive_of(m.op) == Primitive::lock) cx.fail(r, m, "release of a lock that is not held");
        return; // a signal or broadcast with no waiter has no effect
    }
    if (!cx.st().full())
        MasterSe(cx).run_new_entry(m, r);
    else
        forward_to_server(cx, m, r);
}

void AbortToSoftware::count_into_software(SeContext& cx, uint64_t addr, SeResult& r) {
    if (cx.counters().value(addr) == 0) ++cx.stats().overflow_episodes;
    cx.counters().increment(addr);
    ++r.cost.counter_accesses;
}

void AbortToSoftware::divert(SeContext& cx, const Message& m, SeResult& r) {
    // An acquire-type request of one core that hardware will not serve: the
    // core uses the fallback server (counted until the server reports it),
    // or, for cond_wait, takes a spurious wake-up (not counted).
    if (counted_in_software(m.op)) {
        count_into_software(cx, m.addr, r);
        ++cx.stats().diverted;
    }
    if (level_of(m.op) == Level::local) {
        // An own core keeps its lock on an aborted cond_wait.
        cx.to_core(m.core, Opcode::abort_local, m.addr, abort_info::make(m.op), r);
        return;
    }
    uint64_t flags = 0;
    if (m.op == Opcode::cond_wait_overflow && (m.info & kCondLockReleased)) flags |= abort_info::kLockReleased;
    cx.to_se(m.se, Opcode::abort_overflow, m.addr, abort_info::make(m.op, flags), m.core, r);
}

void AbortToSoftware::evict_barrier(SeContext& cx, StEntry& e, const Message& m, SeResult& r) {
    // A core of another unit arrives at a barrier this SE counts in hardware.
    // Its own SE has no room, and a retry may never find any (its entries can
    // wait on this very core), so the whole epoch moves to software: every
    // arrival counted here is aborted and re-sent per core, then the
    // redirect itself is diverted.
    VarState& s = e.state;
    ++cx.stats().evictions;
    ++cx.stats().overflow_requests;
    r.cost.overflow = true;
    for (auto c = s.local.find_first(); c != BitList::npos; c = s.local.find_next(c)) {
        count_into_software(cx, m.addr, r);
        ++cx.stats().diverted;
        cx.to_core(static_cast<unsigned>(c), Opcode::abort_local, m.addr,
                   abort_info::make(Opcode::barrier_wait_local_across_units), r);
    }
    for (unsigned se = 0; se < cx.topo().units; ++se)
        if (s.global.test(se))
            cx.to_se(se, Opcode::abort_global, m.addr,
                     abort_info::make(Opcode::barrier_wait_global, abort_info::kAllWaiters), 0, r);
    cx.st().release(e);
    ++r.cost.st_accesses;
    divert(cx, m, r);
}

void AbortToSoftware::forward_to_server(SeContext& cx, const Message& m, SeResult& r) {
    // The variable's state is at the fallback server: hand it the release as
    // the originating core's local-level request (flat index, its unit).
    const SeTopology& topo = cx.topo();
    const unsigned server = topo.fallback_server(m.addr);
    if (server >= topo.units) {
        cx.fail(r, m, "fallback_server names unit " + std::to_string(server) + " of " + std::to_string(topo.units));
        return;
    }
    const unsigned unit = level_of(m.op) == Level::local ? cx.unit() : m.se;
    const Message fwd{m.addr, local_opcode_of(m.op), static_cast<uint16_t>(topo.flat_index(unit, m.core)),
                      static_cast<uint16_t>(unit), m.info};
    count_into_software(cx, m.addr, r);
    ++cx.stats().forwarded_to_server;
    ++cx.stats().overflow_requests;
    r.cost.overflow = true;
    cx.emit(Outgoing::Dest::server, server, fwd, r);
}

} // namespace syncron
