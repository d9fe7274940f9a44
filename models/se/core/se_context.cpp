#include "models/se/core/se_context.h"

#include <stdexcept>

#include "models/se/core/se_validator.h"

namespace syncron {

namespace {
/// The topology after the checks every SE needs, consistent with its organization.
SeTopology checked(SeTopology t, const SeParams& params, const SeOrganizationIF* org) {
    if (!t.home_unit) throw std::invalid_argument("SeCore: topology has no home_unit function");
    if (params.indexing_counters == 0) throw std::invalid_argument("SeCore: se.indexing_counters must be at least 1");
    if (t.units == 0 || t.cores_per_unit == 0)
        throw std::invalid_argument("SeCore: the topology needs at least one unit and one core per unit");
    if (t.client_cores.size() != t.units)
        throw std::invalid_argument("SeCore: client_cores must list one count per unit");
    if (!org) throw std::invalid_argument("SeCore: no organization");
    t.organization = org->kind();
    if (t.overflow == OverflowPolicy::abort && t.organization == SeOrganization::flat)
        throw std::invalid_argument(
            "SeCore: the abort overflow policy is defined for the hierarchical organization only");
    if (t.three_level() && (t.organization != SeOrganization::hierarchical || t.overflow != OverflowPolicy::integrated))
        throw std::invalid_argument(
            "SeCore: three levels (units_per_group) are defined for the hierarchical organization with the "
            "integrated overflow policy only");
    if (t.units_per_group && (t.units_per_group < 2 || t.units % t.units_per_group))
        throw std::invalid_argument("SeCore: units_per_group must be 0 or a divisor of units of at least 2");
    if (t.overflow == OverflowPolicy::abort && !t.fallback_server)
        throw std::invalid_argument("SeCore: the abort overflow policy needs a fallback_server function");
    return t;
}
} // namespace

SeContext::SeContext(unsigned unit, const SeParams& params, SeTopology topology, SyncVarMemory* memory,
                     std::unique_ptr<SeOrganizationIF> organization)
    : m_unit(unit), m_params(params), m_topo(checked(std::move(topology), params, organization.get())),
      m_memory(memory), m_org(std::move(organization)), m_overflow(make_overflow_policy(m_topo)),
      m_st(params.st_entries, m_org->own_cores(), m_topo.units), m_counters(params.indexing_counters),
      m_layout(m_topo.units, m_topo.cores_per_unit, m_org->kind() == SeOrganization::flat) {
    m_fairness = std::make_shared<unsigned>(params.lock_fairness_threshold);
    m_stats.lock_handoffs_within.assign(m_topo.units, 0);
    m_stats.lock_handoffs_across.assign(m_topo.units, 0);
}

void SeContext::count_handoff(unsigned from, unsigned to) {
    if (from >= m_topo.units) return; // not a unit of this topology (cannot happen for a well-formed owner)
    ++(from == to ? m_stats.lock_handoffs_within : m_stats.lock_handoffs_across)[from];
}

void SeContext::emit(Outgoing::Dest dest, unsigned id, const Message& m, SeResult& r) {
    r.out.push_back({dest, static_cast<uint16_t>(id), m});
    ++m_stats.sent[static_cast<unsigned>(m.op)];
}

void SeContext::to_core(unsigned core, Opcode op, uint64_t addr, uint64_t info, SeResult& r) {
    // The message names the core's unit (flat: `core` is a flat index, any unit).
    const unsigned unit = m_org->core(core, m_unit).unit;
    emit(Outgoing::Dest::core, core, {addr, op, static_cast<uint16_t>(core), static_cast<uint16_t>(unit), info}, r);
}

void SeContext::to_se(unsigned se, Opcode op, uint64_t addr, uint64_t info, unsigned core, SeResult& r) {
    const unsigned master = home(addr);
    const bool upwards = se == master || se == parent(addr);
    unsigned via = se;
    const bool departure = op == Opcode::barrier_depart_global || op == Opcode::barrier_departure_overflow;
    if (departure && master == m_unit && m_topo.three_level() && !m_topo.same_group(se, master) &&
        !m_topo.is_group_se(se, master))
        via = m_topo.group_se(se, master);
    emit(Outgoing::Dest::se, via,
         {addr, op, static_cast<uint16_t>(core), static_cast<uint16_t>(upwards ? m_unit : se), info}, r);
}

void SeContext::fail(SeResult& r, const Message& m, const std::string& why) {
    if (r.error.empty()) r.error = "SE " + std::to_string(m_unit) + ": " + why + " [" + to_string(m) + "]";
    ++m_stats.errors;
}

void SeContext::release_lock_for(uint64_t lock, unsigned core, SeResult& r) {
    // The SPU handles one more message, exactly as if the core had sent
    // lock_release_local.
    const unsigned core_unit = m_org->core(core, m_unit).unit;
    const Message rel{lock, Opcode::lock_release_local, static_cast<uint16_t>(core), static_cast<uint16_t>(core_unit),
                      0};
    ++m_stats.internal_messages;
    const unsigned relay = m_org->release_relay(lock, m_unit);
    if (relay != kNone) { // the lock's Master SE gets the core's release, no SPU slot here
        emit(Outgoing::Dest::se, relay, rel, r);
        return;
    }
    const std::string why = SeValidator(*this).validate(rel);
    ++r.cost.messages;
    if (!why.empty()) {
        fail(r, rel, "cond_wait with an invalid lock: " + why);
        return;
    }
    m_internal.push_back(rel);
}

bool SeContext::next_internal(Message& out) {
    if (m_internal.empty()) return false;
    out = m_internal.front();
    m_internal.pop_front();
    return true;
}

unsigned SeContext::grant_next_local(VarState& s, Opcode op, uint64_t addr, SeResult& r) {
    const unsigned c = next_round_robin(s.local, s.rr_local);
    if (c == kNone) return kNone;
    s.local.reset(c);
    s.rr_local = static_cast<uint16_t>(c + 1);
    to_core(c, op, addr, 0, r);
    return c;
}

void SeContext::grant_all_local(VarState& s, Opcode op, uint64_t addr, SeResult& r) {
    for (auto c = s.local.find_first(); c != BitList::npos; c = s.local.find_next(c))
        to_core(static_cast<unsigned>(c), op, addr, 0, r);
    s.local.reset();
}

bool SeContext::take_confirmation(VarState& s, const Message& m, SeResult& r) {
    if (s.confirmations_due == 0) {
        fail(r, m, "cond_registered_global without an unconfirmed registration");
        return false;
    }
    if (--s.confirmations_due == 0) {
        for (auto c = s.deferred_release.find_first(); c != BitList::npos; c = s.deferred_release.find_next(c))
            release_lock_for(s.info, static_cast<unsigned>(c), r);
        s.deferred_release.reset();
    }
    return true;
}

void SeContext::free_if(StEntry& e, bool idle, SeResult& r) {
    if (!idle) return;
    m_st.release(e);
    ++r.cost.st_accesses;
}

} // namespace syncron
