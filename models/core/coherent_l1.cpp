#include "models/core/coherent_l1.h"

#include <cstring>
#include <string>

#include "models/common/hex.h"
#include "models/core/core_msg_type.h"

namespace syncron {

CoherentL1::CoherentL1(const sc_core::sc_object& owner, unsigned unit, unsigned local_id, const CoreParams& params,
                       const AddressMap& map, const sc_core::sc_time& cycle, CoreStats& stats)
    : m_owner(owner), m_unit(unit), m_local_id(local_id), m_map(map),
      m_hit_time(sc_core::sc_time::from_value(cycle.value() * params.l1_hit_cycles)), m_stats(stats), m_l1(params),
      m_line_buf(m_l1.line_bytes()) {}

void CoherentL1::count_hit() {
    m_bus->advance(m_hit_time);
    m_stats.l1_hits = m_l1.stats().hits;
    m_stats.l1_misses = m_l1.stats().misses;
    m_stats.l1_writebacks = m_l1.stats().writebacks;
}

void CoherentL1::access(uint64_t addr, bool write) {
    const L1Cache::AccessResult r = m_l1.access(addr, write);
    if (!r.hit) {
        // One outstanding operation: the write-back and the fill are serialised.
        evict(r.victim);
        // The fill's data is dropped: memory keeps the only copy.
        m_bus->timed({tlm::TLM_READ_COMMAND, m_l1.line_address(addr), m_line_buf.data(), m_l1.line_bytes()});
    }
    count_hit();
    m_bus->keep_time();
}

void CoherentL1::evict(const L1Cache::Victim& v) {
    if (!v.valid) return;
    const unsigned lb = m_l1.line_bytes();
    uint8_t* buf = m_line_buf.data();
    if (!v.coherent) {
        if (v.dirty) {
            m_bus->debug(tlm::TLM_READ_COMMAND, v.addr, buf, lb);
            m_bus->timed({tlm::TLM_WRITE_COMMAND, v.addr, buf, lb});
        }
        return;
    }
    changed(v.addr);
    if (v.state != MesiState::E && v.state != MesiState::M) return; // shared copies leave silently
    // Until the directory has the put, a forward for the line is answered
    // from the eviction buffer (the put then arrives stale).
    m_evicting = Evicting{v.addr, v.state};
    CoherenceExtension ext;
    request(v.state == MesiState::M ? CoherenceMsg::put_m : CoherenceMsg::put_e, v.addr, ext);
    m_evicting.reset();
}

void CoherentL1::request(CoherenceMsg msg, uint64_t line, CoherenceExtension& ext) {
    ext = CoherenceExtension{};
    ext.msg = msg;
    ext.line = line;
    ext.unit = static_cast<uint16_t>(m_unit);
    ext.core = static_cast<uint16_t>(m_local_id);
    ext.sync = m_coherent && m_coherent(line) == Coherent::sync;
    const bool get = msg == CoherenceMsg::get_s || msg == CoherenceMsg::get_m;
    const unsigned lb = m_l1.line_bytes();
    uint8_t* buf = m_line_buf.data();
    unsigned len = lb;
    if (msg == CoherenceMsg::put_m) m_bus->debug(tlm::TLM_READ_COMMAND, line, buf, lb); // the line, as memory holds it
    if (msg == CoherenceMsg::put_e) {
        len = kCoherenceHeaderBytes;
        std::memset(buf, 0, len);
    }
    ++m_stats.coherence_sent[static_cast<unsigned>(msg)];
    m_bus->timed({get ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, m_map.directory_address(m_map.home_unit(line)),
                  buf, len, nullptr, &ext});
}

void CoherentL1::acquire(uint64_t addr, bool write) {
    // AT: a coherent line's state may change at any moment, so the core
    // reaches its own time before looking at it, even for a hit (a spin on
    // a shared copy advances with the other cores; it never runs ahead).
    m_bus->align();
    const uint64_t line = m_l1.line_address(addr);
    const MesiState st = m_l1.state(line);
    const bool enough = write ? st == MesiState::E || st == MesiState::M : st != MesiState::I;
    if (enough) {
        if (write && st == MesiState::E) {
            m_l1.set_state(line, MesiState::M); // silent upgrade: no other cache holds it
            changed(line);
        }
        m_l1.touch(line);
    } else {
        if (st == MesiState::I) evict(m_l1.make_room(line));
        m_pending = Pending{line, write ? CoherenceMsg::get_m : CoherenceMsg::get_s, false};
        CoherenceExtension ext;
        request(m_pending->msg, line, ext);
        // An invalidation that overtook a get_s grant leaves the line out:
        // the access uses it once (the grant's data is still the coherent
        // value at the grant).
        if (ext.granted != MesiState::I && !m_pending->invalidated) {
            m_l1.install(line, ext.granted);
            changed(line);
        }
    }
    count_hit();
}

void CoherentL1::performed(uint64_t addr) {
    if (m_perform_hook) m_perform_hook(addr);
    m_pending.reset();
}

bool CoherentL1::probe(tlm::tlm_generic_payload& trans, CoherenceExtension& ext, bool may_defer) {
    const uint64_t line = ext.line;
    const bool fwd = ext.msg == CoherenceMsg::fwd_get_s || ext.msg == CoherenceMsg::fwd_get_m;
    if (!fwd && ext.msg != CoherenceMsg::inv) {
        SC_REPORT_ERROR(kCoreMsgType, (std::string(m_owner.name()) + ": " + to_string(ext.msg) +
                                       " reached a core's mailbox (only probes may)")
                                          .c_str());
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return true;
    }
    const tlm::tlm_command cmd = fwd ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND;
    const unsigned len = fwd ? m_l1.line_bytes() : kCoherenceHeaderBytes;
    if (trans.get_command() != cmd || trans.get_data_length() != len || m_map.home_unit(line) >= m_map.units()) {
        SC_REPORT_ERROR(
            kCoreMsgType,
            (std::string(m_owner.name()) + ": malformed " + to_string(ext.msg) + " for " + hex(line)).c_str());
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return true;
    }
    // A forward means the directory made this core the owner: if the grant
    // has not been used yet, the forward waits for that access.
    if (fwd && may_defer && m_pending && m_pending->line == line) {
        ++m_stats.coherence_deferred;
        return false;
    }
    ++m_stats.coherence_probes[static_cast<unsigned>(ext.msg)];
    ext.present = ext.dirty = false;
    if (m_evicting && m_evicting->line == line) {
        if (fwd) {
            ext.present = true;
            ext.dirty = m_evicting->state == MesiState::M;
        }
    } else {
        const MesiState st = m_l1.state(line);
        switch (ext.msg) {
        case CoherenceMsg::inv:
            // To a pending get_s, an inv means its grant was already sent.
            if (m_pending && m_pending->line == line && m_pending->msg == CoherenceMsg::get_s)
                m_pending->invalidated = true;
            ext.present = st != MesiState::I;
            m_l1.set_state(line, MesiState::I);
            break;
        case CoherenceMsg::fwd_get_s:
            ext.present = st == MesiState::E || st == MesiState::M;
            ext.dirty = st == MesiState::M;
            if (ext.present) m_l1.set_state(line, MesiState::S);
            break;
        default: // fwd_get_m
            ext.present = st == MesiState::E || st == MesiState::M;
            ext.dirty = st == MesiState::M;
            m_l1.set_state(line, MesiState::I);
            break;
        }
        changed(line);
    }
    if (fwd) m_bus->debug(tlm::TLM_READ_COMMAND, line, trans.get_data_ptr(), len); // the line, as memory holds it
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
}

} // namespace syncron
