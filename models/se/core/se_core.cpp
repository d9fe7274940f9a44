#include "models/se/core/se_core.h"
#include "models/common/hex.h"

#include <cstdio>
#include <stdexcept>

namespace syncron {

// TableInfo / VarInfo encodings, per primitive.
//   lock:      owner; bit 63 valid, bit 62 "an SE as a whole", bits 16..31 SE, 0..15 core
//   barrier:   current number of arrived cores
//   semaphore: bits 0..31 signed (posts - grants), 32..62 initial resources, 63 initial known
//   condvar:   address of the associated lock
namespace {
constexpr uint64_t kValid = 1ull << 63;
constexpr uint64_t kWholeSe = 1ull << 62;
/// MessageInfo of a cond_signal_global that only withdraws an SE's
/// registration (the field is otherwise unused by signals).
constexpr uint64_t kCondWithdraw = 1;
/// Abort policy: MessageInfo bit 63 of a cond_wait_overflow a local SE re-sends
/// for a registered waiter (abort_global): the lock was already released.
constexpr uint64_t kCondLockReleased = 1ull << 63;

int32_t sem_delta(uint64_t info) { return static_cast<int32_t>(info & 0xffffffffu); }
uint32_t sem_init(uint64_t info) { return static_cast<uint32_t>((info >> 32) & 0x7fffffffu); }
bool sem_known(uint64_t info) { return (info >> 63) & 1u; }
/// A wait with MessageInfo `initial` would be granted at once.
bool sem_available(const VarState& s, uint64_t initial) {
    const int64_t init = sem_known(s.info) ? sem_init(s.info) : static_cast<int64_t>(initial);
    return init + sem_delta(s.info) > 0;
}
uint64_t sem_pack(int32_t delta, uint32_t init, bool known) {
    return (uint64_t(static_cast<uint32_t>(delta))) | (uint64_t(init & 0x7fffffffu) << 32) |
           (known ? kValid : 0);
}

/// Abort policy: a diverted cond_wait never reaches the software server (the
/// core treats the abort as a spurious wake-up), so it is never counted.
bool counted_in_software(Opcode acquire) { return primitive_of(acquire) != Primitive::condvar; }

bool is_sem_post(Opcode op) {
    return op == Opcode::sem_post_local || op == Opcode::sem_post_global || op == Opcode::sem_post_overflow;
}

} // namespace

struct SeCore::Who {
    enum Kind : uint8_t { own, se, remote } kind = own;
    uint16_t se_id = 0;
    uint16_t core = 0;

    static Who of(const Message& m) {
        switch (level_of(m.op)) {
        case Level::local: return {own, 0, m.core};
        case Level::global: return {se, m.se, 0};
        default: return {remote, m.se, m.core};
        }
    }
    /// Lock owner as TableInfo: GlobalID | LocalID (the Master SE's own
    /// cores carry its ID, so they never collide with a remote core).
    uint64_t owner_code(unsigned master) const {
        switch (kind) {
        case own: return kValid | (uint64_t(master) << 16) | core;
        case se: return kValid | kWholeSe | (uint64_t(se_id) << 16);
        default: return kValid | (uint64_t(se_id) << 16) | core;
        }
    }
    std::string describe() const {
        switch (kind) {
        case own: return "core " + std::to_string(core);
        case se: return "SE " + std::to_string(se_id);
        default: return "core " + std::to_string(core) + " of SE " + std::to_string(se_id);
        }
    }
};

SeCore::SeCore(unsigned unit, const SeParams& params, SeTopology topology, SyncVarMemory* memory)
    : m_unit(unit), m_params(params), m_topo(std::move(topology)), m_memory(memory),
      m_st(params.st_entries, m_topo.own_cores(), m_topo.units),
      m_counters(params.indexing_counters),
      m_layout(m_topo.units, m_topo.cores_per_unit, m_topo.organization == SeOrganization::flat),
      m_flat(m_topo.organization == SeOrganization::flat), m_abort(m_topo.overflow == OverflowPolicy::abort) {
    if (!m_topo.home_unit) throw std::invalid_argument("SeCore: topology has no home_unit function");
    if (params.indexing_counters == 0) throw std::invalid_argument("SeCore: se.indexing_counters must be at least 1");
    if (m_topo.units == 0 || m_topo.cores_per_unit == 0)
        throw std::invalid_argument("SeCore: the topology needs at least one unit and one core per unit");
    if (m_topo.client_cores.size() != m_topo.units)
        throw std::invalid_argument("SeCore: client_cores must list one count per unit");
    if (m_abort && m_flat)
        throw std::invalid_argument("SeCore: the abort overflow policy is defined for the hierarchical organization only");
    if (m_abort && !m_topo.fallback_server)
        throw std::invalid_argument("SeCore: the abort overflow policy needs a fallback_server function");
}

// ---------------------------------------------------------------- validation

std::string SeCore::validate(const Message& m) const {
    const unsigned raw = static_cast<unsigned>(m.op);
    if (raw >= kOpcodeCount) return "unknown opcode " + std::to_string(raw);
    const unsigned home = m_topo.home_unit(m.addr);
    if (home >= m_topo.units)
        return "variable address " + hex(m.addr) + " is not in the memory of any unit";
    if (m_flat) return validate_flat(m, home);
    const Level lv = level_of(m.op);
    const bool master = home == m_unit;
    const bool decrease = m.op == Opcode::decrease_indexing_counter;
    // Abort policy: the fallback server reports to the Master SE (any `se`),
    // a core to its own non-Master SE (docs/protocol.md).
    const bool server_report = m_abort && decrease && master;
    const bool core_report = m_abort && decrease && !master;
    if ((lv == Level::local || lv == Level::overflow || core_report) && m.core >= m_topo.cores_per_unit)
        return "core ID " + std::to_string(m.core) + " out of range (unit has " +
               std::to_string(m_topo.cores_per_unit) + " cores)";
    if ((lv == Level::global || lv == Level::overflow || (decrease && !server_report)) && m.se >= m_topo.units)
        return "SE ID " + std::to_string(m.se) + " out of range (" + std::to_string(m_topo.units) + " SEs)";
    if (lv == Level::local && !is_core_request(m.op))
        return std::string(to_string(m.op)) + " is sent by an SE to a core, not to an SE";
    if (!m_abort && (m.op == Opcode::abort_global || m.op == Opcode::abort_overflow))
        return std::string(to_string(m.op)) + " is only used by the abort overflow policy";
    const auto where = [&] {
        return " (variable " + hex(m.addr) + ", Master SE " + std::to_string(home) + ", this SE " +
               std::to_string(m_unit) + ")";
    };
    if (server_report) return {};
    switch (m.op) {
    // requests that only the Master SE serves
    case Opcode::lock_acquire_global: case Opcode::lock_release_global:
    case Opcode::barrier_wait_global: case Opcode::sem_wait_global: case Opcode::sem_post_global:
    case Opcode::cond_wait_global: case Opcode::cond_signal_global:
    case Opcode::lock_acquire_overflow: case Opcode::lock_release_overflow:
    case Opcode::barrier_wait_overflow: case Opcode::sem_wait_overflow: case Opcode::sem_post_overflow:
    case Opcode::cond_wait_overflow: case Opcode::cond_signal_overflow: case Opcode::cond_broad_overflow:
        if (!master) return std::string(to_string(m.op)) + " must be sent to the Master SE" + where();
        if (m.se == m_unit) return std::string(to_string(m.op)) + " from the Master SE to itself" + where();
        break;
    // replies that only a non-Master SE receives
    case Opcode::lock_grant_global: case Opcode::barrier_depart_global: case Opcode::sem_grant_global:
    case Opcode::cond_grant_global:
    case Opcode::lock_grant_overflow: case Opcode::barrier_departure_overflow:
    case Opcode::sem_grant_overflow: case Opcode::cond_grant_overflow:
    case Opcode::decrease_indexing_counter:
    case Opcode::abort_global: case Opcode::abort_overflow:
        if (master) return std::string(to_string(m.op)) + " is sent by the Master SE, not to it" + where();
        if (m.se != m_unit)
            return std::string(to_string(m.op)) + " addressed to SE " + std::to_string(m.se) + where();
        break;
    case Opcode::cond_broad_global: // request towards the Master SE, wake-all away from it
        if (master && m.se == m_unit) return "cond_broad_global from the Master SE to itself" + where();
        if (!master && m.se != m_unit) return "cond_broad_global addressed to SE " + std::to_string(m.se) + where();
        break;
    default: break;
    }
    return {};
}

std::string SeCore::validate_flat(const Message& m, unsigned home) const {
    // Flat organization: cores talk to the Master SE of the variable directly,
    // with local-level requests naming the core by its flat index.
    const std::string op(to_string(m.op));
    if (level_of(m.op) != Level::local)
        return "flat: " + op + " has no place in the flat organization (cores send local-level requests "
               "straight to the Master SE; there are no global or overflow messages)";
    if (!is_core_request(m.op)) return op + " is sent by an SE to a core, not to an SE";
    if (m.core >= m_topo.own_cores())
        return "core ID " + std::to_string(m.core) + " out of range (flat: " + std::to_string(m_topo.own_cores()) +
               " cores, flat index = unit * " + std::to_string(m_topo.cores_per_unit) + " + local ID)";
    if (home != m_unit)
        return "flat: requests go to the Master SE of the variable (variable " + hex(m.addr) + ", Master SE " +
               std::to_string(home) + ", this SE " + std::to_string(m_unit) + ")";
    return {};
}

void SeCore::fail(SeResult& r, const Message& m, const std::string& why) {
    if (r.error.empty()) r.error = "SE " + std::to_string(m_unit) + ": " + why + " [" + to_string(m) + "]";
    ++m_stats.errors;
}

// ---------------------------------------------------------------- dispatch

void SeCore::handle(const Message& m, SeResult& r) {
    const std::string why = validate(m);
    ++r.cost.messages;
    if (!why.empty()) {
        fail(r, m, why);
        return;
    }
    ++m_stats.received[static_cast<unsigned>(m.op)];
    process(m, r);
    // Messages the SE generated for itself run after the one that caused
    // them (the state machines share one syncronVar scratch buffer).
    while (!m_internal.empty() && r.ok()) {
        const Message next = m_internal.front();
        m_internal.pop_front();
        process(next, r);
    }
    m_internal.clear();
}

void SeCore::process(const Message& m, SeResult& r) {
    if (m.op == Opcode::decrease_indexing_counter) {
        ++r.cost.counter_accesses;
        if (!m_counters.decrement(m.addr, static_cast<uint32_t>(m.info)))
            fail(r, m, "decrease_indexing_counter below zero");
        return;
    }
    if (!is_master_of(m.addr))
        local_side(m, r);
    else if (m_abort)
        master_abort_side(m, r);
    else
        master_side(m, r);
}

void SeCore::to_core(unsigned core, Opcode op, uint64_t addr, uint64_t info, SeResult& r) {
    // Flat: `core` is the flat index and the message names the core's unit.
    const unsigned unit = m_flat ? core / m_topo.cores_per_unit : m_unit;
    Message msg{addr, op, static_cast<uint16_t>(core), static_cast<uint16_t>(unit), info};
    r.out.push_back({Outgoing::Dest::core, static_cast<uint16_t>(core), msg});
    ++m_stats.sent[static_cast<unsigned>(op)];
}

void SeCore::to_se(unsigned se, Opcode op, uint64_t addr, uint64_t info, unsigned core, SeResult& r) {
    // Requests towards the Master SE carry the sender's ID, replies the target's.
    const bool towards_master = m_topo.home_unit(addr) == se;
    Message msg{addr, op, static_cast<uint16_t>(core),
                static_cast<uint16_t>(towards_master ? m_unit : se), info};
    r.out.push_back({Outgoing::Dest::se, static_cast<uint16_t>(se), msg});
    ++m_stats.sent[static_cast<unsigned>(op)];
}

void SeCore::release_lock_for(uint64_t lock, unsigned core, SeResult& r) {
    // cond_wait releases the core's lock inside the SE: the SPU handles one
    // more message, exactly as if the core had sent lock_release_local.
    const unsigned core_unit = m_flat ? core / m_topo.cores_per_unit : m_unit;
    Message rel{lock, Opcode::lock_release_local, static_cast<uint16_t>(core), static_cast<uint16_t>(core_unit), 0};
    ++m_stats.internal_messages;
    if (m_flat) {
        const unsigned home = m_topo.home_unit(lock);
        if (home < m_topo.units && home != m_unit) {
            // Flat, lock homed elsewhere: its Master SE gets the core's
            // release (same message as the core's own), no SPU slot here.
            r.out.push_back({Outgoing::Dest::se, static_cast<uint16_t>(home), rel});
            ++m_stats.sent[static_cast<unsigned>(rel.op)];
            return;
        }
    }
    const std::string why = validate(rel);
    ++r.cost.messages;
    if (!why.empty()) {
        fail(r, rel, "cond_wait with an invalid lock: " + why);
        return;
    }
    m_internal.push_back(rel);
}

// ---------------------------------------------------------------- local SE

void SeCore::local_side(const Message& m, SeResult& r) {
    ++r.cost.st_accesses;
    StEntry* e = m_st.find(m.addr);
    const Level lv = level_of(m.op);

    if (lv == Level::overflow) { // replies of the Master SE to an overflowed request
        switch (m.op) {
        case Opcode::lock_grant_overflow: to_core(m.core, Opcode::lock_grant_local, m.addr, 0, r); break;
        case Opcode::sem_grant_overflow:
            // Abort policy: the Master SE granted a redirected wait at once
            // from its ST entry; the request never went to software, so undo
            // the redirect's increment.
            if (abort_policy()) {
                ++r.cost.counter_accesses;
                if (!m_counters.decrement(m.addr)) {
                    fail(r, m, "sem_grant_overflow but the indexing counter is zero");
                    return;
                }
            }
            to_core(m.core, Opcode::sem_grant_local, m.addr, 0, r);
            break;
        case Opcode::cond_grant_overflow: to_core(m.core, Opcode::cond_grant_local, m.addr, 0, r); break;
        case Opcode::barrier_departure_overflow: to_core(m.core, Opcode::barrier_depart_local, m.addr, 0, r); break;
        case Opcode::abort_overflow: local_abort_overflow(m, r); break;
        default: fail(r, m, "unexpected overflow message at a non-Master SE");
        }
        r.cost.overflow = true;
        return;
    }

    if (lv == Level::global) { // replies of the Master SE to this SE's global requests
        if (m.op == Opcode::abort_global) {
            r.cost.overflow = true;
            // No entry: nothing waits here any more (one-level barriers may
            // get one abort per forwarded arrival, withdrawn registrations).
            if (e) local_abort_global(*e, m, r);
            return;
        }
        if (!e) {
            if (m.op == Opcode::cond_grant_global) { // registration already withdrawn: pass it on
                to_se(m_topo.home_unit(m.addr), Opcode::cond_signal_global, m.addr, 0, 0, r);
                return;
            }
            if (m.op == Opcode::cond_broad_global) return; // nobody waits here any more
            fail(r, m, "global reply for a variable with no ST entry");
            return;
        }
        local_dispatch(*e, m, r);
        return;
    }

    // A request from one of this unit's cores.
    if (!e) {
        if (!is_acquire_type(m.op)) {
            release_type_without_entry(m, r);
            return;
        }
        ++r.cost.counter_accesses;
        if (m_counters.value(m.addr) > 0 || m_st.full()) {
            redirect_overflow(m, r);
            return;
        }
        e = &m_st.allocate(m.addr, primitive_of(m.op));
        ++r.cost.st_accesses;
    }
    local_dispatch(*e, m, r);
}

void SeCore::local_dispatch(StEntry& e, const Message& m, SeResult& r) {
    if (e.state.kind != primitive_of(m.op)) {
        fail(r, m, "ST entry holds a different primitive");
        return;
    }
    switch (e.state.kind) {
    case Primitive::lock: local_lock(e, m, r); break;
    case Primitive::barrier: local_barrier(e, m, r); break;
    case Primitive::semaphore: local_sem(e, m, r); break;
    case Primitive::condvar: local_cond(e, m, r); break;
    default: break;
    }
}

void SeCore::redirect_overflow(const Message& m, SeResult& r) {
    // §4.3 case 2: this SE's ST cannot hold the variable; the Master SE keeps
    // the core's request in syncronVar. The counter stays raised until the
    // Master SE's decrease_indexing_counter.
    // Abort policy (L2): the Master SE serves the request in software or
    // aborts it; the counter stays raised until the core's decrease (or a
    // retry undoes it); a cond_wait is never counted and keeps its lock.
    const Opcode op = overflow_opcode_of(m.op);
    if (op == m.op || level_of(op) != Level::overflow) {
        fail(r, m, "cannot redirect");
        return;
    }
    if (!m_abort || counted_in_software(m.op)) m_counters.increment(m.addr);
    ++m_stats.overflow_requests;
    r.cost.overflow = true;
    to_se(m_topo.home_unit(m.addr), op, m.addr, m.info, m.core, r);
    if (m.op == Opcode::cond_wait_local && !m_abort) release_lock_for(m.info, m.core, r);
}

void SeCore::release_type_without_entry(const Message& m, SeResult& r) {
    // Release-type requests never allocate an entry at a local SE: with no
    // entry, the variable's state is at the Master SE.
    const unsigned master = m_topo.home_unit(m.addr);
    if (m_abort) {
        // Abort policy (L3): the Master SE decides (hardware, software or an
        // error); the message names the core so a forward keeps its identity.
        Opcode op;
        switch (m.op) {
        case Opcode::lock_release_local: op = Opcode::lock_release_overflow; break;
        case Opcode::sem_post_local: op = Opcode::sem_post_global; break;
        case Opcode::cond_signal_local: op = Opcode::cond_signal_global; break;
        case Opcode::cond_broad_local: op = Opcode::cond_broad_global; break;
        default: fail(r, m, "unexpected release-type message"); return;
        }
        if (op == Opcode::lock_release_overflow) ++m_stats.overflow_requests, r.cost.overflow = true;
        to_se(master, op, m.addr, 0, m.core, r);
        return;
    }
    ++r.cost.counter_accesses;
    const bool overflowed = m_counters.value(m.addr) > 0;
    switch (m.op) {
    case Opcode::lock_release_local:
        // Without an entry the lock can only have been granted through
        // overflow, and then this SE's counter is still raised.
        if (!overflowed) {
            fail(r, m, "release of a lock not held by core " + std::to_string(m.core));
            return;
        }
        ++m_stats.overflow_requests;
        r.cost.overflow = true;
        to_se(master, Opcode::lock_release_overflow, m.addr, 0, m.core, r);
        break;
    case Opcode::sem_post_local:
        if (overflowed) ++m_stats.overflow_requests, r.cost.overflow = true;
        to_se(master, overflowed ? Opcode::sem_post_overflow : Opcode::sem_post_global, m.addr, 0, m.core, r);
        break;
    case Opcode::cond_signal_local:
        if (overflowed) ++m_stats.overflow_requests, r.cost.overflow = true;
        to_se(master, overflowed ? Opcode::cond_signal_overflow : Opcode::cond_signal_global, m.addr, 0, m.core, r);
        break;
    case Opcode::cond_broad_local:
        if (overflowed) ++m_stats.overflow_requests, r.cost.overflow = true;
        to_se(master, overflowed ? Opcode::cond_broad_overflow : Opcode::cond_broad_global, m.addr, 0, m.core, r);
        break;
    default: fail(r, m, "unexpected release-type message");
    }
}

unsigned SeCore::grant_next_local(VarState& s, Opcode op, uint64_t addr, SeResult& r) {
    const unsigned c = next_round_robin(s.local, s.rr_local);
    if (c == kNone) return kNone;
    s.local.reset(c);
    s.rr_local = static_cast<uint16_t>(c + 1);
    to_core(c, op, addr, 0, r);
    return c;
}

void SeCore::grant_all_local(VarState& s, Opcode op, uint64_t addr, SeResult& r) {
    for (auto c = s.local.find_first(); c != BitList::npos; c = s.local.find_next(c))
        to_core(static_cast<unsigned>(c), op, addr, 0, r);
    s.local.reset();
}

void SeCore::free_if(StEntry& e, bool idle, SeResult& r) {
    if (!idle) return;
    m_st.release(e);
    ++r.cost.st_accesses;
}

void SeCore::local_lock(StEntry& e, const Message& m, SeResult& r) {
    VarState& s = e.state;
    const unsigned master = m_topo.home_unit(m.addr);
    const bool held = s.info & kValid;
    switch (m.op) {
    case Opcode::lock_acquire_local:
        if (s.local.test(m.core) || (held && (s.info & 0xffff) == m.core)) {
            fail(r, m, "core already holds or waits for this lock");
            return;
        }
        s.local.set(m.core);
        if (!held && !s.pending) { // first local request: one aggregated global request
            s.pending = true;
            to_se(master, Opcode::lock_acquire_global, m.addr, 0, 0, r);
        }
        return;
    case Opcode::lock_grant_global: {
        if (!s.pending || held) {
            fail(r, m, "lock_grant_global without an outstanding request");
            return;
        }
        s.pending = false;
        const unsigned c = grant_next_local(s, Opcode::lock_grant_local, m.addr, r);
        if (c == kNone) { // cannot happen: waiters only leave through grants
            to_se(master, Opcode::lock_release_global, m.addr, 0, 0, r);
            free_if(e, true, r);
            return;
        }
        s.info = kValid | c;
        s.local_grants = 1;
        return;
    }
    case Opcode::lock_release_local: {
        if (!held || (s.info & 0xffff) != m.core) {
            fail(r, m, "release of a lock the core does not hold");
            return;
        }
        // Fairness: after `threshold` grants in a row inside the unit the
        // lock goes back to the Master SE even if local cores still wait.
        const unsigned threshold = m_params.lock_fairness_threshold;
        const bool yield = threshold && s.local_grants >= threshold && s.local.any();
        if (!yield) {
            const unsigned c = grant_next_local(s, Opcode::lock_grant_local, m.addr, r);
            if (c != kNone) { // hand over inside the unit
                s.info = kValid | c;
                ++s.local_grants;
                return;
            }
        }
        s.info = 0; // no local waiter left (or yielding): one aggregated release
        s.local_grants = 0;
        to_se(master, Opcode::lock_release_global, m.addr, 0, 0, r);
        if (s.local.any()) { // yielded: queue again behind the other SEs
            s.pending = true;
            to_se(master, Opcode::lock_acquire_global, m.addr, 0, 0, r);
            return;
        }
        free_if(e, true, r);
        return;
    }
    default: fail(r, m, "unexpected lock message at a local SE");
    }
}

void SeCore::local_barrier(StEntry& e, const Message& m, SeResult& r) {
    VarState& s = e.state;
    const unsigned master = m_topo.home_unit(m.addr);
    const auto depart_all = [&] {
        grant_all_local(s, Opcode::barrier_depart_local, m.addr, r);
        free_if(e, true, r);
    };
    switch (m.op) {
    case Opcode::barrier_wait_local_within_unit:
        if (s.local.test(m.core)) { fail(r, m, "core already waits at this barrier"); return; }
        s.local.set(m.core);
        s.request_info = m.info;
        if (++s.info >= m.info) depart_all(); // every participant is in this unit
        return;
    case Opcode::barrier_wait_local_across_units: {
        if (s.local.test(m.core)) { fail(r, m, "core already waits at this barrier"); return; }
        s.local.set(m.core);
        s.request_info = m.info;
        ++s.info;
        const bool two_level = m.info == m_topo.total_client_cores();
        if (!two_level) { // one-level rule: forward every arrival to the Master SE
            to_se(master, Opcode::barrier_wait_global, m.addr, m.info, 0, r);
            return;
        }
        const unsigned mine = m_topo.client_cores[m_unit];
        if (s.info > mine) { fail(r, m, "more arrivals than client cores in this unit"); return; }
        if (s.info == mine) to_se(master, Opcode::barrier_wait_global, m.addr, m.info, 0, r);
        return;
    }
    case Opcode::barrier_depart_global: depart_all(); return;
    default: fail(r, m, "unexpected barrier message at a local SE");
    }
}

void SeCore::local_sem(StEntry& e, const Message& m, SeResult& r) {
    // One request per SE outstanding at the Master SE. A post arriving while
    // more local cores wait than that request covers is handed to one of them
    // directly; otherwise it goes to the Master SE, so an outstanding request
    // always has a local waiter to serve.
    VarState& s = e.state;
    const unsigned master = m_topo.home_unit(m.addr);
    const auto grant_one = [&] { grant_next_local(s, Opcode::sem_grant_local, m.addr, r); };
    switch (m.op) {
    case Opcode::sem_wait_local:
        if (s.local.test(m.core)) { fail(r, m, "core already waits on this semaphore"); return; }
        s.local.set(m.core);
        s.info = m.info; // initial resources, repeated in every global request
        if (!s.pending) {
            s.pending = true;
            to_se(master, Opcode::sem_wait_global, m.addr, s.info, 0, r);
        }
        return;
    case Opcode::sem_post_local:
        if (s.local.count() >= 2)
            grant_one();
        else
            to_se(master, Opcode::sem_post_global, m.addr, 0, 0, r);
        free_if(e, s.local.none() && !s.pending, r);
        return;
    case Opcode::sem_grant_global:
        if (!s.pending) { fail(r, m, "sem_grant_global without an outstanding request"); return; }
        s.pending = false;
        if (s.local.any()) {
            grant_one();
            if (s.local.any()) {
                s.pending = true;
                to_se(master, Opcode::sem_wait_global, m.addr, s.info, 0, r);
            }
        } else {
            to_se(master, Opcode::sem_post_global, m.addr, 0, 0, r); // give the resource back
        }
        free_if(e, s.local.none() && !s.pending, r);
        return;
    default: fail(r, m, "unexpected semaphore message at a local SE");
    }
}

void SeCore::local_cond(StEntry& e, const Message& m, SeResult& r) {
    // The Master SE knows which SEs have waiters (one registration per SE);
    // a signal finds a waiter locally first, otherwise goes to the Master SE,
    // which also takes it as the withdrawal of this SE's registration.
    VarState& s = e.state;
    const unsigned master = m_topo.home_unit(m.addr);
    const auto wake_one = [&] { grant_next_local(s, Opcode::cond_grant_local, m.addr, r); };
    const auto wake_all = [&] { grant_all_local(s, Opcode::cond_grant_local, m.addr, r); };
    switch (m.op) {
    case Opcode::cond_wait_local:
        if (s.local.test(m.core)) { fail(r, m, "core already waits on this condition variable"); return; }
        s.local.set(m.core);
        s.info = m.info;
        if (!s.pending) { // register before the lock is released: no lost wake-up
            s.pending = true;
            to_se(master, Opcode::cond_wait_global, m.addr, m.info, 0, r);
        }
        release_lock_for(m.info, m.core, r);
        return;
    case Opcode::cond_signal_local:
        if (s.local.any()) {
            wake_one();
        } else {
            s.pending = false;
            to_se(master, Opcode::cond_signal_global, m.addr, 0, 0, r);
        }
        break;
    case Opcode::cond_broad_local:
        wake_all();
        s.pending = false;
        to_se(master, Opcode::cond_broad_global, m.addr, 0, 0, r);
        break;
    case Opcode::cond_grant_global:
        if (s.local.any()) {
            wake_one();
        } else { // nobody left here: withdraw and let the Master SE pick another
            s.pending = false;
            to_se(master, Opcode::cond_signal_global, m.addr, 0, 0, r);
        }
        break;
    case Opcode::cond_broad_global:
        wake_all();
        s.pending = false;
        break;
    default: fail(r, m, "unexpected condition-variable message at a local SE"); return;
    }
    if (s.local.none() && s.pending) {
        // The last local waiter was woken here: withdraw the registration
        // without signalling anyone else.
        s.pending = false;
        to_se(master, Opcode::cond_signal_global, m.addr, kCondWithdraw, 0, r);
    }
    free_if(e, s.local.none() && !s.pending, r);
}

// ---------------------------------------------------------------- abort policy, local SE

void SeCore::local_abort_global(StEntry& e, const Message& m, SeResult& r) {
    // L1: the Master SE did not take this SE's request as a whole. Each core
    // it stood for becomes an individual redirect (counted here like an L2
    // redirect), so the Master SE decides per core: software, or retry.
    VarState& s = e.state;
    const Opcode aborted = abort_info::aborted(m.info);
    if (!is_acquire_type(aborted) || primitive_of(aborted) != s.kind) {
        fail(r, m, "abort_global for a different primitive than the ST entry holds");
        return;
    }
    if (s.kind == Primitive::lock && (s.info & kValid)) {
        fail(r, m, "abort_global while this SE holds the lock for its unit");
        return;
    }
    const unsigned master = m_topo.home_unit(m.addr);
    const Opcode redirect = overflow_opcode_of(aborted);
    uint64_t info = 0;
    switch (s.kind) {
    case Primitive::barrier: info = s.request_info; break;                   // initial cores
    case Primitive::semaphore: info = s.info; break;                         // initial resources
    case Primitive::condvar: info = s.info | kCondLockReleased; break;       // lock, released at registration
    default: break;
    }
    const auto convert = [&](unsigned c) {
        s.local.reset(c);
        if (counted_in_software(aborted)) {
            m_counters.increment(m.addr);
            ++r.cost.counter_accesses;
        }
        ++m_stats.overflow_requests;
        to_se(master, redirect, m.addr, info, c, r);
    };
    // A one-level barrier forwards every arrival: the abort stands for one of
    // them (waiting cores are interchangeable), the others may be counted in
    // hardware. Otherwise the aborted request stood for every local waiter.
    const bool one_arrival = s.kind == Primitive::barrier && s.request_info != m_topo.total_client_cores() &&
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
        free_if(e, true, r);
    }
}

void SeCore::local_abort_overflow(const Message& m, SeResult& r) {
    // L4: the Master SE aborted a redirected request of one of this unit's
    // cores. A retry was not counted into software: undo this SE's increment.
    const Opcode aborted = abort_info::aborted(m.info);
    if (!is_acquire_type(aborted)) {
        fail(r, m, "abort_overflow for a request that is not acquire-type");
        return;
    }
    const uint64_t flags = m.info & (abort_info::kRetry | abort_info::kLockReleased);
    if ((m.info & abort_info::kRetry) && counted_in_software(aborted)) {
        ++r.cost.counter_accesses;
        if (!m_counters.decrement(m.addr)) {
            fail(r, m, "abort_overflow with kRetry but the indexing counter is zero");
            return;
        }
    }
    to_core(m.core, Opcode::abort_local, m.addr, abort_info::make(local_opcode_of(aborted), flags), r);
}

// ---------------------------------------------------------------- abort policy, Master SE

void SeCore::master_abort_side(const Message& m, SeResult& r) {
    // Rules M1..M3 of docs/protocol.md ("MiSAR-style abort overflow"): a
    // variable is in hardware while it has an ST entry, in software while it
    // has none and its indexing counter is above zero, never both.
    ++r.cost.st_accesses;
    StEntry* e = m_st.find(m.addr);
    const Level lv = level_of(m.op);
    const bool acquire = is_acquire_type(m.op);
    const auto serve_new_entry = [&] {
        StEntry& ne = m_st.allocate(m.addr, primitive_of(m.op));
        ++r.cost.st_accesses;
        master_logic(ne.state, m, r);
        free_if(ne, master_idle(ne.state) || !r.ok(), r);
    };

    if (e && e->state.kind != primitive_of(m.op)) {
        fail(r, m, "ST entry holds a different primitive");
        return;
    }
    if (e) { // M1: in hardware
        if (lv == Level::overflow && acquire) {
            if (e->state.kind == Primitive::barrier) { // a retried arrival could wait forever
                evict_barrier(*e, m, r);
                return;
            }
            // A wait that a banked resource can satisfy at once needs no
            // per-core list: grant it (retrying it could wait forever, the
            // entry stays busy until this very wait takes the resource).
            if (m.op == Opcode::sem_wait_overflow && sem_available(e->state, m.info)) {
                master_logic(e->state, m, r);
                if (r.ok()) free_if(*e, master_idle(e->state), r);
                return;
            }
            // Otherwise the entry has no per-core list for another unit's core: retry.
            uint64_t flags = abort_info::kRetry;
            if (m.op == Opcode::cond_wait_overflow && (m.info & kCondLockReleased)) flags |= abort_info::kLockReleased;
            ++m_stats.retries;
            ++m_stats.overflow_requests;
            r.cost.overflow = true;
            to_se(m.se, Opcode::abort_overflow, m.addr, abort_info::make(m.op, flags), m.core, r);
            return;
        }
        master_logic(e->state, m, r);
        if (r.ok()) free_if(*e, master_idle(e->state), r);
        return;
    }
    ++r.cost.counter_accesses;
    const bool software = m_counters.value(m.addr) > 0;
    if (acquire) {
        if (lv != Level::overflow && !software && !m_st.full()) { // M3: enters hardware
            serve_new_entry();
            return;
        }
        ++m_stats.overflow_requests;
        r.cost.overflow = true;
        if (lv == Level::global) { // that SE turns its waiters into redirects (counted then)
            to_se(m.se, Opcode::abort_global, m.addr, abort_info::make(m.op), 0, r);
            return;
        }
        divert(m, r);
        return;
    }
    if (m.op == Opcode::cond_signal_global && (m.info & kCondWithdraw)) return; // withdrawal only
    if (software) { // M2
        forward_to_server(m, r);
        return;
    }
    // M3, release-type: as in hardware; a post the ST cannot hold starts software.
    if (!is_sem_post(m.op)) {
        if (primitive_of(m.op) == Primitive::lock) fail(r, m, "release of a lock that is not held");
        return; // a signal or broadcast with no waiter has no effect
    }
    if (!m_st.full())
        serve_new_entry();
    else
        forward_to_server(m, r);
}

void SeCore::count_into_software(uint64_t addr, SeResult& r) {
    if (m_counters.value(addr) == 0) ++m_stats.overflow_episodes;
    m_counters.increment(addr);
    ++r.cost.counter_accesses;
}

void SeCore::divert(const Message& m, SeResult& r) {
    // An acquire-type request of one core that hardware will not serve: the
    // core uses the fallback server (counted until the server reports it),
    // or, for cond_wait, takes a spurious wake-up (not counted).
    if (counted_in_software(m.op)) {
        count_into_software(m.addr, r);
        ++m_stats.diverted;
    }
    if (level_of(m.op) == Level::local) {
        // An own core keeps its lock on an aborted cond_wait.
        to_core(m.core, Opcode::abort_local, m.addr, abort_info::make(m.op), r);
        return;
    }
    uint64_t flags = 0;
    if (m.op == Opcode::cond_wait_overflow && (m.info & kCondLockReleased)) flags |= abort_info::kLockReleased;
    to_se(m.se, Opcode::abort_overflow, m.addr, abort_info::make(m.op, flags), m.core, r);
}

void SeCore::evict_barrier(StEntry& e, const Message& m, SeResult& r) {
    // A core of another unit arrives at a barrier this SE counts in hardware.
    // Its own SE has no room, and a retry may never find any (its entries can
    // wait on this very core), so the whole epoch moves to software: every
    // arrival counted here is aborted and re-sent per core, then the
    // redirect itself is diverted.
    VarState& s = e.state;
    ++m_stats.evictions;
    ++m_stats.overflow_requests;
    r.cost.overflow = true;
    for (auto c = s.local.find_first(); c != BitList::npos; c = s.local.find_next(c)) {
        count_into_software(m.addr, r);
        ++m_stats.diverted;
        to_core(static_cast<unsigned>(c), Opcode::abort_local, m.addr,
                abort_info::make(Opcode::barrier_wait_local_across_units), r);
    }
    for (unsigned se = 0; se < m_topo.units; ++se)
        if (s.global.test(se))
            to_se(se, Opcode::abort_global, m.addr,
                  abort_info::make(Opcode::barrier_wait_global, abort_info::kAllWaiters), 0, r);
    m_st.release(e);
    ++r.cost.st_accesses;
    divert(m, r);
}

void SeCore::forward_to_server(const Message& m, SeResult& r) {
    // The variable's state is at the fallback server: hand it the release as
    // the originating core's local-level request (flat index, its unit).
    const unsigned server = m_topo.fallback_server(m.addr);
    if (server >= m_topo.units) {
        fail(r, m, "fallback_server names unit " + std::to_string(server) + " of " + std::to_string(m_topo.units));
        return;
    }
    const unsigned unit = level_of(m.op) == Level::local ? m_unit : m.se;
    const Message fwd{m.addr, local_opcode_of(m.op), static_cast<uint16_t>(m_topo.flat_index(unit, m.core)),
                      static_cast<uint16_t>(unit), m.info};
    count_into_software(m.addr, r);
    ++m_stats.forwarded_to_server;
    ++m_stats.overflow_requests;
    r.cost.overflow = true;
    r.out.push_back({Outgoing::Dest::server, static_cast<uint16_t>(server), fwd});
    ++m_stats.sent[static_cast<unsigned>(fwd.op)];
}

// ---------------------------------------------------------------- Master SE

void SeCore::master_side(const Message& m, SeResult& r) {
    ++r.cost.st_accesses;
    StEntry* e = m_st.find(m.addr);
    const Level lv = level_of(m.op);
    const bool acquire = is_acquire_type(m.op);

    if (e && e->state.kind != primitive_of(m.op)) {
        fail(r, m, "ST entry holds a different primitive");
        return;
    }
    if (e && lv == Level::overflow && acquire) {
        // A core of an overflowed SE needs a per-core waiting list the ST
        // entry does not have: move the variable to its syncronVar.
        spill(*e, r);
        memory_side(m, r, true);
        return;
    }
    if (e) {
        master_logic(e->state, m, r);
        if (r.ok()) free_if(*e, master_idle(e->state), r);
        return;
    }
    ++r.cost.counter_accesses;
    if (m_counters.value(m.addr) == 0 && lv != Level::overflow) {
        const bool is_post = m.op == Opcode::sem_post_local || m.op == Opcode::sem_post_global;
        if (!acquire && !is_post) {
            // Nothing buffered and nothing in memory: no holder, no waiter.
            if (primitive_of(m.op) == Primitive::lock)
                fail(r, m, "release of a lock that is not held");
            return; // a signal or broadcast with no waiter has no effect
        }
        if (!m_st.full()) {
            StEntry& ne = m_st.allocate(m.addr, primitive_of(m.op));
            ++r.cost.st_accesses;
            master_logic(ne.state, m, r);
            free_if(ne, master_idle(ne.state) || !r.ok(), r);
            return;
        }
    }
    memory_side(m, r, false);
}

void SeCore::spill(StEntry& e, SeResult& r) {
    m_scratch = e.state;
    m_scratch.remote.assign(m_topo.units, BitList(m_topo.cores_per_unit));
    m_scratch.overflow_acquires.assign(m_topo.units, 0);
    m_scratch.overflowed.resize(m_topo.units);
    m_counters.increment(e.addr);
    m_st.release(e);
    ++r.cost.st_accesses;
    ++r.cost.counter_accesses;
    ++m_stats.spills;
    ++m_stats.overflow_episodes;
}

void SeCore::memory_side(const Message& m, SeResult& r, bool preloaded) {
    if (!m_memory) {
        fail(r, m, "overflow needs memory but this SE has no memory port");
        return;
    }
    r.cost.overflow = true;
    ++m_stats.overflow_requests;
    const Primitive kind = primitive_of(m.op);
    if (!preloaded) {
        m_image.resize(m_layout.bytes());
        m_memory->read(m.addr, m_image.data(), m_layout.bytes());
        ++r.cost.mem_reads;
        const bool active = m_layout.decode(m_image, m_unit, kind, m_scratch);
        if (!active) { // the variable starts being served from memory
            m_scratch.reset(kind, m_topo.own_cores(), m_topo.units);
            m_scratch.remote.assign(m_topo.units, BitList(m_topo.cores_per_unit));
            m_scratch.overflow_acquires.assign(m_topo.units, 0);
            m_counters.increment(m.addr);
            ++r.cost.counter_accesses;
            ++m_stats.overflow_episodes;
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
    master_logic(s, m, r);
    bool active = true;
    if (master_idle(s)) {
        // Every waiting list is empty: leave memory, and tell each overflowed
        // SE how many increments to undo.
        active = false;
        m_counters.decrement(m.addr);
        ++r.cost.counter_accesses;
        for (unsigned se = 0; se < m_topo.units; ++se) {
            if (s.overflow_acquires[se] > 0)
                to_se(se, Opcode::decrease_indexing_counter, m.addr, s.overflow_acquires[se], 0, r);
            s.overflow_acquires[se] = 0;
        }
        s.overflowed.reset();
    }
    m_layout.encode(s, m_unit, active, m_image);
    m_memory->write(m.addr, m_image.data(), m_layout.bytes());
    ++r.cost.mem_writes;
}

bool SeCore::any_waiter(const VarState& s) const {
    if (s.local.any() || s.global.any()) return true;
    for (const auto& b : s.remote)
        if (b.any()) return true;
    return false;
}

bool SeCore::master_idle(const VarState& s) const {
    if (any_waiter(s)) return false;
    switch (s.kind) {
    case Primitive::lock: return !(s.info & kValid);
    case Primitive::barrier: return s.info == 0;
    case Primitive::semaphore: return sem_delta(s.info) == 0;
    default: return true;
    }
}

bool SeCore::waiting(const VarState& s, const Who& w) const {
    switch (w.kind) {
    case Who::own: return s.local.test(w.core);
    case Who::se: return s.global.test(w.se_id);
    default: return w.se_id < s.remote.size() && s.remote[w.se_id].test(w.core);
    }
}

void SeCore::enqueue(VarState& s, const Who& w) const {
    switch (w.kind) {
    case Who::own: s.local.set(w.core); break;
    case Who::se: s.global.set(w.se_id); break;
    default: s.remote[w.se_id].set(w.core); break;
    }
}

void SeCore::dequeue(VarState& s, const Who& w) const {
    switch (w.kind) {
    case Who::own: s.local.reset(w.core); break;
    case Who::se: s.global.reset(w.se_id); break;
    default: s.remote[w.se_id].reset(w.core); break;
    }
}

bool SeCore::pick_next(VarState& s, Who& out, bool others_first) const {
    // The Master SE serves its own unit first (paper Figure 4), then the
    // other SEs in rotation; with others_first (fairness) the other way round.
    const auto own = [&] {
        const unsigned c = next_round_robin(s.local, s.rr_local);
        if (c == kNone) return false;
        out = {Who::own, 0, static_cast<uint16_t>(c)};
        s.rr_local = static_cast<uint16_t>(c + 1);
        return true;
    };
    if (!others_first && own()) return true;
    if (pick_other_se(s, out)) return true;
    return others_first && own();
}

bool SeCore::pick_other_se(VarState& s, Who& out) const {
    for (unsigned i = 0; i < m_topo.units; ++i) {
        const unsigned se = (s.rr_global + i) % m_topo.units;
        if (s.global.test(se)) {
            out = {Who::se, static_cast<uint16_t>(se), 0};
            s.rr_global = static_cast<uint16_t>(se + 1);
            return true;
        }
        if (se < s.remote.size() && s.remote[se].any()) {
            out = {Who::remote, static_cast<uint16_t>(se),
                   static_cast<uint16_t>(s.remote[se].find_first())};
            s.rr_global = static_cast<uint16_t>(se + 1);
            return true;
        }
    }
    return false;
}

void SeCore::reply(const Who& w, Opcode local_op, Opcode global_op, Opcode overflow_op, uint64_t addr,
                   SeResult& r) {
    switch (w.kind) {
    case Who::own: to_core(w.core, local_op, addr, 0, r); break;
    case Who::se: to_se(w.se_id, global_op, addr, 0, 0, r); break;
    default: to_se(w.se_id, overflow_op, addr, 0, w.core, r); break;
    }
}

void SeCore::master_logic(VarState& s, const Message& m, SeResult& r) {
    const Who w = Who::of(m);
    if (w.kind == Who::remote && s.remote.size() < m_topo.units)
        s.remote.assign(m_topo.units, BitList(m_topo.cores_per_unit));
    switch (primitive_of(m.op)) {
    case Primitive::lock: master_lock(s, m, w, r); break;
    case Primitive::barrier: master_barrier(s, m, w, r); break;
    case Primitive::semaphore: master_sem(s, m, w, r); break;
    case Primitive::condvar: master_cond(s, m, w, r); break;
    default: fail(r, m, "unexpected message at the Master SE");
    }
}

void SeCore::master_lock(VarState& s, const Message& m, const Who& w, SeResult& r) {
    const auto grant = [&](const Who& to) {
        s.info = to.owner_code(m_unit);
        // Consecutive grants to the Master SE's own cores (fairness).
        s.local_grants = to.kind == Who::own ? s.local_grants + 1 : 0;
        reply(to, Opcode::lock_grant_local, Opcode::lock_grant_global, Opcode::lock_grant_overflow, m.addr, r);
    };
    if (is_acquire_type(m.op)) {
        // Flat: a holder's release sent by another SE's cond_wait may arrive
        // after the holder's next acquire; the acquire queues behind it
        // (unless the topology says one path carries everything).
        if (waiting(s, w) || (s.info == w.owner_code(m_unit) && (!m_flat || m_topo.single_path))) {
            fail(r, m, w.describe() + " already holds or waits for this lock");
            return;
        }
        if (!(s.info & kValid))
            grant(w);
        else
            enqueue(s, w);
        return;
    }
    if (s.info != w.owner_code(m_unit)) {
        fail(r, m, "release of a lock not held by " + w.describe());
        return;
    }
    Who next;
    const unsigned threshold = m_params.lock_fairness_threshold;
    const bool others_first = threshold && s.local_grants >= threshold;
    if (pick_next(s, next, others_first)) {
        dequeue(s, next);
        grant(next);
    } else {
        s.info = 0;
        s.local_grants = 0;
    }
}

void SeCore::master_barrier(VarState& s, const Message& m, const Who& w, SeResult& r) {
    if (w.kind != Who::se && waiting(s, w)) {
        fail(r, m, w.describe() + " already waits at this barrier");
        return;
    }
    uint64_t weight = 1;
    if (w.kind == Who::se && m.info == m_topo.total_client_cores())
        weight = m_topo.client_cores[w.se_id]; // two-level: one message stands for the whole unit
    enqueue(s, w);
    s.info += weight;
    if (s.info < m.info) return;
    grant_all_local(s, Opcode::barrier_depart_local, m.addr, r);
    for (unsigned se = 0; se < m_topo.units; ++se) {
        if (s.global.test(se)) to_se(se, Opcode::barrier_depart_global, m.addr, 0, 0, r);
        if (se < s.remote.size())
            for (auto c = s.remote[se].find_first(); c != BitList::npos; c = s.remote[se].find_next(c))
                to_se(se, Opcode::barrier_departure_overflow, m.addr, 0, static_cast<unsigned>(c), r);
    }
    s.global.reset();
    for (auto& b : s.remote) b.reset();
    s.info = 0;
}

void SeCore::master_sem(VarState& s, const Message& m, const Who& w, SeResult& r) {
    int32_t delta = sem_delta(s.info);
    uint32_t init = sem_init(s.info);
    bool known = sem_known(s.info);
    const auto grant = [&](const Who& to) {
        reply(to, Opcode::sem_grant_local, Opcode::sem_grant_global, Opcode::sem_grant_overflow, m.addr, r);
    };
    if (is_acquire_type(m.op)) {
        if (waiting(s, w)) {
            fail(r, m, w.describe() + " already waits on this semaphore");
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
        Who next;
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

void SeCore::master_cond(VarState& s, const Message& m, const Who& w, SeResult& r) {
    switch (m.op) {
    case Opcode::cond_wait_local:
    case Opcode::cond_wait_global:
    case Opcode::cond_wait_overflow:
        if (w.kind != Who::se && waiting(s, w)) {
            fail(r, m, w.describe() + " already waits on this condition variable");
            return;
        }
        enqueue(s, w);
        s.info = m.info;
        if (w.kind == Who::own) release_lock_for(m.info, w.core, r);
        return;
    case Opcode::cond_signal_local:
    case Opcode::cond_signal_global:
    case Opcode::cond_signal_overflow: {
        if (w.kind == Who::se) {
            s.global.reset(w.se_id); // that SE has no waiter left
            if (m.info & kCondWithdraw) return;
        }
        Who next;
        if (!pick_next(s, next)) return; // no waiter: the signal has no effect
        if (next.kind != Who::se) dequeue(s, next); // an SE stays registered until it withdraws
        reply(next, Opcode::cond_grant_local, Opcode::cond_grant_global, Opcode::cond_grant_overflow, m.addr, r);
        return;
    }
    default: { // broadcast
        if (w.kind == Who::se) s.global.reset(w.se_id); // it woke its own waiters
        grant_all_local(s, Opcode::cond_grant_local, m.addr, r);
        for (unsigned se = 0; se < m_topo.units; ++se) {
            if (s.global.test(se)) to_se(se, Opcode::cond_broad_global, m.addr, 0, 0, r);
            if (se < s.remote.size())
                for (auto c = s.remote[se].find_first(); c != BitList::npos; c = s.remote[se].find_next(c))
                    to_se(se, Opcode::cond_grant_overflow, m.addr, 0, static_cast<unsigned>(c), r);
        }
        s.global.reset();
        for (auto& b : s.remote) b.reset();
    }
    }
}

// ---------------------------------------------------------------- traces

namespace {
std::string bits_text(const BitList& b) {
    std::string t(b.size(), '0');
    for (size_t i = 0; i < b.size(); ++i)
        if (b.test(i)) t[b.size() - 1 - i] = '1';
    return t;
}
} // namespace

bool SeCore::snapshot(uint64_t addr, Primitive kind, const std::vector<uint8_t>* image, VarSnapshot& out) const {
    VarState decoded;
    const VarState* s = nullptr;
    out = VarSnapshot{};
    out.addr = addr;
    if (const StEntry* e = m_st.find(addr)) {
        s = &e->state;
        out.buffered = true;
    } else if (image && is_master_of(addr) && m_layout.decode(*image, m_unit, kind, decoded)) {
        s = &decoded;
        out.in_memory = true;
    }
    if (!s) return false;
    out.kind = s->kind;
    out.local = bits_text(s->local);
    out.global = bits_text(s->global);
    out.info = s->info;
    switch (s->kind) {
    case Primitive::lock:
        out.lock_held = s->info & kValid;
        if (out.lock_held) {
            // A local SE stores its own core; the Master SE the global owner.
            out.owner_se = is_master_of(addr) ? unsigned((s->info >> 16) & 0xffff) : m_unit;
            out.owner_core = unsigned(s->info & 0xffff);
            if (m_flat) { // the owner is a flat index
                out.owner_se = out.owner_core / m_topo.cores_per_unit;
                out.owner_core %= m_topo.cores_per_unit;
            }
        }
        break;
    case Primitive::barrier: out.count = s->info; break;
    case Primitive::semaphore: // the resources live at the Master SE
        if (is_master_of(addr)) out.resources = int64_t(sem_init(s->info)) + sem_delta(s->info);
        break;
    default: break;
    }
    return true;
}

} // namespace syncron
