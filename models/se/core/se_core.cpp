#include "models/se/core/se_core.h"

#include "models/se/core/group_se.h"
#include "models/se/core/info_fields.h"
#include "models/se/core/local_se.h"
#include "models/se/core/rmw_alu.h"
#include "models/se/core/se_validator.h"

namespace syncron {

SeCore::SeCore(unsigned unit, const SeParams& params, const SeTopology& topology, SyncVarMemory* memory)
    : SeCore(unit, params, topology, memory, make_se_organization(topology)) {}

SeCore::SeCore(unsigned unit, const SeParams& params, SeTopology topology, SyncVarMemory* memory,
               std::unique_ptr<SeOrganizationIF> organization)
    : m_cx(unit, params, std::move(topology), memory, std::move(organization)) {}

std::string SeCore::validate(const Message& m) const { return SeValidator(m_cx).validate(m); }

void SeCore::handle(const Message& m, SeResult& r) {
    const std::string why = validate(m);
    if (!why.empty()) {
        ++r.cost.messages;
        m_cx.fail(r, m, why);
        return;
    }
    handle_validated(m, r);
}

void SeCore::handle_validated(const Message& m, SeResult& r) {
    ++r.cost.messages;
    ++m_cx.stats().received[static_cast<unsigned>(m.op)];
    const bool overflow_before = r.cost.overflow;
    process(m, r);
    // Messages the SE generated for itself run after the one that caused
    // them (the state machines share one syncronVar scratch buffer).
    Message next;
    while (r.ok() && m_cx.next_internal(next)) process(next, r);
    m_cx.drop_internal();
    if (r.cost.overflow && !overflow_before) ++m_cx.stats().messages_overflowed;
}

void SeCore::process(const Message& m, SeResult& r) {
    if (m.op == Opcode::decrease_indexing_counter) {
        ++r.cost.counter_accesses;
        if (!m_cx.counters().decrement(m.addr, static_cast<uint32_t>(m.info)))
            m_cx.fail(r, m, "decrease_indexing_counter below zero");
        return;
    }
    if (is_rmw(m.op)) { // no ST entry: the Master SE works on the word itself
        RmwAlu(m_cx).handle(m, r);
        return;
    }
    if (m_cx.is_master_of(m.addr))
        m_cx.overflow().master(m_cx, m, r);
    else if (m_cx.is_group_se_for(m.addr))
        GroupSe(m_cx).handle(m, r);
    else
        LocalSe(m_cx).handle(m, r);
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
    using namespace info_fields;
    VarState decoded;
    const VarState* s = nullptr;
    out = VarSnapshot{};
    out.addr = addr;
    const bool master = is_master_of(addr);
    if (const StEntry* e = table().find(addr)) {
        s = &e->state;
        out.buffered = true;
    } else if (image && master && layout().decode(*image, unit(), kind, decoded)) {
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
            // A local SE stores its own core; the Master SE and a group SE
            // the owner (the organization says which core an own-core ID names).
            const bool owner_coded = master || m_cx.is_group_se_for(addr);
            const unsigned se = owner_coded ? unsigned((s->info >> 16) & 0xffff) : unit();
            const CoreRef owner = organization().core(unsigned(s->info & 0xffff), se);
            out.owner_se = owner.unit;
            out.owner_core = owner.local;
        }
        break;
    case Primitive::barrier: out.count = s->info; break;
    case Primitive::semaphore: // the resources live at the Master SE
        if (master) out.resources = int64_t(sem_init(s->info)) + sem_delta(s->info);
        break;
    default: break;
    }
    return true;
}

} // namespace syncron
