#include "models/se/core/se_validator.h"

#include "models/common/hex.h"
#include "models/protocol/rmw.h"
#include "models/se/core/se_context.h"

namespace syncron {

std::string SeValidator::validate(const Message& m) const {
    const unsigned raw = static_cast<unsigned>(m.op);
    if (raw >= kOpcodeCount) return "unknown opcode " + std::to_string(raw);
    const unsigned home = m_cx.home(m.addr);
    if (home >= m_cx.topo().units) return "variable address " + hex(m.addr) + " is not in the memory of any unit";
    if (m.expected && !rmw_has_expected(m.op))
        return std::string(to_string(m.op)) + " carries an expected value (only rmw_cas_* have one)";
    if (is_rmw(m.op) && m.addr % 8)
        return std::string(to_string(m.op)) + " on " + hex(m.addr) + ": an rmw works on an 8-byte aligned word";
    return m_cx.organization().validate(*this, m, home);
}

std::string SeValidator::hierarchical(const Message& m, unsigned home) const {
    const SeTopology& topo = m_cx.topo();
    const unsigned unit = m_cx.unit();
    const bool aborts = m_cx.overflow().aborts();
    const Level lv = level_of(m.op);
    const bool master = home == unit;
    const bool decrease = m.op == Opcode::decrease_indexing_counter;
    // Abort policy: the fallback server reports to the Master SE (any `se`),
    // a core to its own non-Master SE (docs/protocol.md).
    const bool server_report = aborts && decrease && master;
    const bool core_report = aborts && decrease && !master;
    if ((lv == Level::local || lv == Level::overflow || core_report) && m.core >= topo.cores_per_unit)
        return "core ID " + std::to_string(m.core) + " out of range (unit has " + std::to_string(topo.cores_per_unit) +
               " cores)";
    if ((lv == Level::global || lv == Level::overflow || (decrease && !server_report)) && m.se >= topo.units)
        return "SE ID " + std::to_string(m.se) + " out of range (" + std::to_string(topo.units) + " SEs)";
    if (lv == Level::local && !is_core_request(m.op))
        return std::string(to_string(m.op)) + " is sent by an SE to a core, not to an SE";
    if (!aborts && (m.op == Opcode::abort_global || m.op == Opcode::abort_overflow))
        return std::string(to_string(m.op)) + " is only used by the abort overflow policy";
    const auto where = [&] {
        return " (variable " + hex(m.addr) + ", Master SE " + std::to_string(home) + ", this SE " +
               std::to_string(unit) + ")";
    };
    if (server_report) return {};
    switch (m.op) {
    // requests that only the Master SE serves
    case Opcode::lock_acquire_global:
    case Opcode::lock_release_global:
    case Opcode::barrier_wait_global:
    case Opcode::sem_wait_global:
    case Opcode::sem_post_global:
    case Opcode::cond_wait_global:
    case Opcode::cond_signal_global:
    case Opcode::lock_acquire_overflow:
    case Opcode::lock_release_overflow:
    case Opcode::barrier_wait_overflow:
    case Opcode::sem_wait_overflow:
    case Opcode::sem_post_overflow:
    case Opcode::cond_wait_overflow:
    case Opcode::cond_signal_overflow:
    case Opcode::cond_broad_overflow:
    case Opcode::rmw_fetch_add_global:
    case Opcode::rmw_swap_global:
    case Opcode::rmw_cas_global:
    case Opcode::rmw_min_global:
    case Opcode::rmw_max_global:
        if (!master && !from_member(m, home))
            return std::string(to_string(m.op)) + " must be sent to the Master SE" +
                   (topo.three_level() ? std::string(" or its group SE") : std::string()) + where();
        if (m.se == unit) return std::string(to_string(m.op)) + " from the Master SE to itself" + where();
        break;
    // replies that only a non-Master SE receives
    case Opcode::lock_grant_global:
    case Opcode::barrier_depart_global:
    case Opcode::sem_grant_global:
    case Opcode::cond_grant_global:
    case Opcode::lock_grant_overflow:
    case Opcode::barrier_departure_overflow:
    case Opcode::sem_grant_overflow:
    case Opcode::cond_grant_overflow:
    case Opcode::decrease_indexing_counter:
    case Opcode::abort_global:
    case Opcode::abort_overflow:
    case Opcode::cond_registered_global:
    case Opcode::cond_registered_overflow:
    case Opcode::rmw_reply_global:
        if (master) return std::string(to_string(m.op)) + " is sent by the Master SE, not to it" + where();
        if (m.se != unit && !departure_for_member(m, home))
            return std::string(to_string(m.op)) + " addressed to SE " + std::to_string(m.se) + where();
        break;
    case Opcode::cond_broad_global: // request towards the Master SE (or group SE), wake-all away from it
        if (master && m.se == unit) return "cond_broad_global from the Master SE to itself" + where();
        if (!master && m.se != unit && !from_member(m, home))
            return "cond_broad_global addressed to SE " + std::to_string(m.se) + where();
        break;
    default: break;
    }
    return {};
}

bool SeValidator::from_member(const Message& m, unsigned home) const {
    // Three levels: a group SE serves its group's SEs' global requests and
    // passes on (or, barrier arrivals, counts) their cores' overflow
    // requests (docs/protocol.md "Three levels").
    const SeTopology& topo = m_cx.topo();
    const unsigned unit = m_cx.unit();
    const Level lv = level_of(m.op);
    const bool request = (lv == Level::global && !is_rmw(m.op)) || lv == Level::overflow;
    return request && topo.is_group_se(unit, home) && m.se != unit && topo.same_group(m.se, unit);
}

bool SeValidator::departure_for_member(const Message& m, unsigned home) const {
    const SeTopology& topo = m_cx.topo();
    const unsigned unit = m_cx.unit();
    const bool departure = m.op == Opcode::barrier_depart_global || m.op == Opcode::barrier_departure_overflow;
    return departure && topo.is_group_se(unit, home) && m.se != unit && topo.same_group(m.se, unit);
}

std::string SeValidator::flat(const Message& m, unsigned home) const {
    const SeTopology& topo = m_cx.topo();
    const unsigned own = m_cx.organization().own_cores();
    const std::string op(to_string(m.op));
    if (level_of(m.op) != Level::local)
        return "flat: " + op +
               " has no place in the flat organization (cores send local-level requests "
               "straight to the Master SE; there are no global or overflow messages)";
    if (!is_core_request(m.op)) return op + " is sent by an SE to a core, not to an SE";
    if (m.core >= own)
        return "core ID " + std::to_string(m.core) + " out of range (flat: " + std::to_string(own) +
               " cores, flat index = unit * " + std::to_string(topo.cores_per_unit) + " + local ID)";
    if (home != m_cx.unit())
        return "flat: requests go to the Master SE of the variable (variable " + hex(m.addr) + ", Master SE " +
               std::to_string(home) + ", this SE " + std::to_string(m_cx.unit()) + ")";
    return {};
}

} // namespace syncron
