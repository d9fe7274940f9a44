#include "models/frontend/mmio_frontend_core.h"

#include <cstring>

namespace syncron {

namespace {
uint64_t load_le(const uint8_t* data, unsigned len) {
    uint64_t v = 0;
    for (unsigned i = 0; i < len; ++i) v |= uint64_t(data[i]) << (8 * i);
    return v;
}
void store_le(uint8_t* data, unsigned len, uint64_t v) {
    for (unsigned i = 0; i < len; ++i) data[i] = static_cast<uint8_t>(v >> (8 * i));
}
} // namespace

MmioFrontEndCore::MmioFrontEndCore(unsigned unit, const FabricParams& params, std::shared_ptr<KindTable> kinds)
    : m_unit(unit), m_params(params),
      m_base(params.port_offsets ? 0
                                 : params.window_base + uint64_t(unit) * params.harts_per_unit * params.window_bytes),
      m_kinds(kinds ? std::move(kinds) : std::make_shared<KindTable>()),
      m_fairness(std::make_shared<unsigned>(params.se.lock_fairness_threshold)), m_harts(params.harts_per_unit) {
    m_params.vars.units = params.units;
}

std::optional<unsigned> MmioFrontEndCore::hart_of(uint64_t addr) const {
    if (addr < m_base || addr >= end()) return std::nullopt;
    return static_cast<unsigned>((addr - m_base) / m_params.window_bytes);
}

bool MmioFrontEndCore::read_register(const Hart& h, unsigned hart, uint64_t off, unsigned len, uint64_t& value) const {
    // 8-byte accesses only cover VAR and INFO; everything else is 32 bits.
    switch (off) {
    case SYNCRON_MMIO_VAR_LO: value = len == 8 ? h.var : h.var & 0xffffffffu; return true;
    case SYNCRON_MMIO_VAR_HI: value = h.var >> 32; return len == 4;
    case SYNCRON_MMIO_INFO_LO: value = len == 8 ? h.info : h.info & 0xffffffffu; return true;
    case SYNCRON_MMIO_INFO_HI: value = h.info >> 32; return len == 4;
    case SYNCRON_MMIO_STATUS: value = h.status; return len == 4;
    case SYNCRON_MMIO_HART: value = m_unit * m_params.harts_per_unit + hart; return len == 4;
    case SYNCRON_MMIO_EXPECTED_LO: value = len == 8 ? h.expected : h.expected & 0xffffffffu; return true;
    case SYNCRON_MMIO_EXPECTED_HI: value = h.expected >> 32; return len == 4;
    case SYNCRON_MMIO_RESULT_LO: value = len == 8 ? h.result : h.result & 0xffffffffu; return true;
    case SYNCRON_MMIO_RESULT_HI: value = h.result >> 32; return len == 4;
    case SYNCRON_MMIO_FAIRNESS: value = *m_fairness; return len == 4;
    default: return false;
    }
}

MmioFrontEndCore::Outcome MmioFrontEndCore::access(const Access& a) {
    Outcome out;
    const auto hart = hart_of(a.addr);
    if (!hart) { // the bus routed an address outside this unit's windows here
        out.status = SYNCRON_ST_BAD_OFFSET;
        return out;
    }
    out.hart = *hart;
    Hart& h = m_harts[*hart];
    const uint64_t off = (a.addr - m_base) % m_params.window_bytes;
    // 4-byte accesses everywhere; 8 bytes where a register is 64 bits wide
    // (VAR, INFO) and on command slots.
    const bool size_ok = (a.len == 4 || a.len == 8) && off % a.len == 0 && a.data && !a.byte_enables && !a.streaming;
    const auto finish = [&](uint32_t status) {
        h.status = status;
        out.status = status;
        return out;
    };
    if (!size_ok) return finish(SYNCRON_ST_BAD_SIZE);
    if (off >= SYNCRON_MMIO_CMD_BASE &&
        off < SYNCRON_MMIO_CMD_BASE + SYNCRON_MMIO_CMD_SLOTS * SYNCRON_MMIO_CMD_STRIDE) {
        if ((off - SYNCRON_MMIO_CMD_BASE) % SYNCRON_MMIO_CMD_STRIDE != 0) return finish(SYNCRON_ST_BAD_OFFSET);
        return command(h, *hart, static_cast<unsigned>((off - SYNCRON_MMIO_CMD_BASE) / SYNCRON_MMIO_CMD_STRIDE), a);
    }
    uint64_t value = 0;
    if (!read_register(h, *hart, off, a.len, value)) {
        const bool known = off == SYNCRON_MMIO_VAR_HI || off == SYNCRON_MMIO_INFO_HI || off == SYNCRON_MMIO_STATUS ||
                           off == SYNCRON_MMIO_HART || off == SYNCRON_MMIO_EXPECTED_HI ||
                           off == SYNCRON_MMIO_RESULT_HI || off == SYNCRON_MMIO_FAIRNESS;
        return finish(known ? SYNCRON_ST_BAD_SIZE : SYNCRON_ST_BAD_OFFSET);
    }
    if (a.read) {
        store_le(a.data, a.len, value);
        // Reading STATUS or HART leaves STATUS as it was (software reads it
        // to learn the outcome of the previous access).
        if (off == SYNCRON_MMIO_STATUS || off == SYNCRON_MMIO_HART) return out;
        return finish(SYNCRON_ST_OK);
    }
    const uint64_t v = load_le(a.data, a.len);
    switch (off) {
    case SYNCRON_MMIO_VAR_LO: h.var = a.len == 8 ? v : (h.var & ~0xffffffffull) | v; break;
    case SYNCRON_MMIO_VAR_HI: h.var = (h.var & 0xffffffffull) | (v << 32); break;
    case SYNCRON_MMIO_INFO_LO: h.info = a.len == 8 ? v : (h.info & ~0xffffffffull) | v; break;
    case SYNCRON_MMIO_INFO_HI: h.info = (h.info & 0xffffffffull) | (v << 32); break;
    case SYNCRON_MMIO_EXPECTED_LO: h.expected = a.len == 8 ? v : (h.expected & ~0xffffffffull) | v; break;
    case SYNCRON_MMIO_EXPECTED_HI: h.expected = (h.expected & 0xffffffffull) | (v << 32); break;
    // Shared with the SEs: their next grant decision uses the new value.
    case SYNCRON_MMIO_FAIRNESS: *m_fairness = static_cast<unsigned>(v); break;
    default: return finish(SYNCRON_ST_BAD_COMMAND); // STATUS, HART and RESULT are read-only
    }
    return finish(SYNCRON_ST_OK);
}

uint32_t MmioFrontEndCore::check_request(const Hart& h, Opcode op) const {
    const VariableSpace& vars = m_params.vars;
    if (!vars.contains(h.var)) return SYNCRON_ST_BAD_VARIABLE;
    const Primitive kind = primitive_of(op);
    const auto known = m_kinds->find(h.var);
    if (known != m_kinds->end() && known->second != kind) return SYNCRON_ST_KIND_MISMATCH;
    if (is_rmw_request(op)) return h.var % 8 ? SYNCRON_ST_BAD_ARGUMENT : SYNCRON_ST_OK; // an 8-byte word
    switch (op) {
    case Opcode::lock_acquire_local: return h.locks.count(h.var) ? SYNCRON_ST_ALREADY_HELD : SYNCRON_ST_OK;
    case Opcode::lock_release_local: return h.locks.count(h.var) ? SYNCRON_ST_OK : SYNCRON_ST_NOT_HELD;
    case Opcode::barrier_wait_local_within_unit:
        return h.info == 0 || h.info > m_params.harts_per_unit ? SYNCRON_ST_BAD_ARGUMENT : SYNCRON_ST_OK;
    case Opcode::barrier_wait_local_across_units:
        return h.info == 0 || h.info > uint64_t(m_params.harts_per_unit) * m_params.units ? SYNCRON_ST_BAD_ARGUMENT
                                                                                          : SYNCRON_ST_OK;
    case Opcode::sem_wait_local: return h.info > 0x7fffffffu ? SYNCRON_ST_BAD_ARGUMENT : SYNCRON_ST_OK;
    case Opcode::cond_wait_local: {
        if (!vars.contains(h.info)) return SYNCRON_ST_BAD_VARIABLE;
        const auto lock_kind = m_kinds->find(h.info);
        if (lock_kind != m_kinds->end() && lock_kind->second != Primitive::lock) return SYNCRON_ST_KIND_MISMATCH;
        return h.locks.count(h.info) ? SYNCRON_ST_OK : SYNCRON_ST_NOT_HELD;
    }
    default: return SYNCRON_ST_OK;
    }
}

MmioFrontEndCore::Outcome MmioFrontEndCore::command(Hart& h, unsigned hart, unsigned raw, const Access& a) {
    Outcome out;
    out.hart = hart;
    const auto finish = [&](uint32_t status) {
        h.status = status;
        out.status = status;
        return out;
    };
    const auto op = opcode_from_raw(raw);
    if (!op || level_of(*op) != Level::local || !is_core_request(*op)) return finish(SYNCRON_ST_BAD_OPCODE);
    // An rmw is a load too: it returns the word's old value at the grant.
    const bool sync = is_sync_request(*op) || is_rmw_request(*op);
    // A load issues req_sync, a store req_async; the other way round is a
    // mistake. An extended load (an atomic, an exclusive access) never
    // blocks: the ISS may hold the bus across it.
    if (sync != a.read || (sync && a.extended) || h.pending) return finish(SYNCRON_ST_BAD_COMMAND);
    const uint32_t st = check_request(h, *op);
    if (st != SYNCRON_ST_OK) {
        if (a.read) store_le(a.data, a.len, st);
        return finish(st);
    }
    (*m_kinds)[h.var] = primitive_of(*op);
    if (*op == Opcode::cond_wait_local) {
        (*m_kinds)[h.info] = Primitive::lock;
        h.locks.erase(h.info); // the SE releases it on the hart's behalf
    }
    if (*op == Opcode::lock_release_local) h.locks.erase(h.var);
    out.msg.addr = h.var;
    out.msg.op = *op;
    out.msg.core = static_cast<uint16_t>(hart);
    out.msg.se = static_cast<uint16_t>(m_unit);
    out.msg.info = primitive_of(*op) == Primitive::lock ? 0 : h.info;
    if (*op == Opcode::rmw_cas_local) out.msg.expected = h.expected;
    if (sync) {
        h.pending = out.msg;
        out.action = Action::exchange;
        h.status = SYNCRON_ST_OK;
        return out;
    }
    out.action = Action::post;
    return finish(SYNCRON_ST_OK);
}

bool MmioFrontEndCore::grant(const Message& m) {
    if (m.core >= m_harts.size()) return false;
    Hart& h = m_harts[m.core];
    const bool rmw = h.pending && is_rmw_request(h.pending->op);
    const Opcode reply = !h.pending ? m.op : rmw ? Opcode::rmw_reply_local : grant_of(h.pending->op);
    if (!h.pending || reply != m.op || h.pending->addr != m.addr) return false;
    if (h.pending->op == Opcode::lock_acquire_local) h.locks.insert(m.addr);
    if (rmw) h.result = m.info;
    h.load_value = rmw ? m.info : 0; // STATUS OK for the other loads
    h.pending.reset();
    h.status = SYNCRON_ST_OK;
    return true;
}

unsigned MmioFrontEndCore::debug_read(uint64_t addr, uint8_t* data, unsigned len) const {
    const auto hart = hart_of(addr);
    if (!hart || !data || (len != 4 && len != 8)) return 0;
    const uint64_t off = (addr - m_base) % m_params.window_bytes;
    if (off % len != 0) return 0;
    uint64_t value = 0;
    if (off >= SYNCRON_MMIO_CMD_BASE &&
        off < SYNCRON_MMIO_CMD_BASE + SYNCRON_MMIO_CMD_SLOTS * SYNCRON_MMIO_CMD_STRIDE) {
        value = 0; // a command slot: a debug read issues nothing
    } else if (!read_register(m_harts[*hart], *hart, off, len, value)) {
        return 0;
    }
    store_le(data, len, value);
    return len;
}

} // namespace syncron
