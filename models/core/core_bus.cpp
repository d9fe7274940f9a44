#include "models/core/core_bus.h"

#include <algorithm>
#include <string>

#include "models/common/hex.h"
#include "models/core/core_msg_type.h"
#include "models/tlm/kernel_time.h"
#include "models/tlm/payload_fill.h"

namespace syncron {
namespace {

const char* command_name(tlm::tlm_command cmd) {
    switch (cmd) {
    case tlm::TLM_READ_COMMAND: return "READ";
    case tlm::TLM_WRITE_COMMAND: return "WRITE";
    default: return "IGNORE";
    }
}
} // namespace

tlm::tlm_sync_enum CoreBus::nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase&, sc_core::sc_time&) {
    SC_REPORT_ERROR(kCoreMsgType, (std::string(m_owner.core.name()) +
                                   ": a phase on the bus's backward path, but the core runs loosely timed")
                                      .c_str());
    t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
}

std::optional<Message> CoreBus::reply_if_arrived(const sc_core::sc_time& issued) {
    ReplySlot& slot = m_owner.replies;
    if (!slot.arrived()) return std::nullopt;
    const sc_core::sc_time arrival = std::max(slot.arrival(), local_time());
    m_qk.set(arrival - kernel_time());
    return slot.take(arrival, issued);
}

void CoreBus::debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    fill_payload(m_dbg_trans, cmd, addr, data, len);
    const unsigned n = m_socket->transport_dbg(m_dbg_trans);
    if (n < len)
        SC_REPORT_ERROR(kCoreMsgType,
                        (std::string(m_owner.core.name()) + ": debug " + command_name(cmd) + " of " +
                         std::to_string(len) + " B at " + hex(addr) + " transferred " + std::to_string(n) + " B")
                            .c_str());
}

void CoreBus::report_access_error(const BusAccess& a, const tlm::tlm_generic_payload& t) const {
    SC_REPORT_ERROR(kCoreMsgType,
                    (std::string(m_owner.core.name()) + ": " + command_name(a.cmd) + " of " + std::to_string(a.len) +
                     " B at " + hex(a.addr) + " failed: " + t.get_response_string())
                        .c_str());
}

void CoreBus::report_send_error(const Message& m, const tlm::tlm_generic_payload& t) const {
    SC_REPORT_ERROR(kCoreMsgType,
                    (std::string(m_owner.core.name()) + ": sending " + std::string(to_string(m.op)) + " for " +
                     hex(m.addr) + " to " + hex(t.get_address()) + " failed: " + t.get_response_string())
                        .c_str());
}

void CoreBus::trace_access(const BusAccess& a, const sc_core::sc_time& begin, const sc_core::sc_time& end_req,
                           const sc_core::sc_time& begin_resp, const sc_core::sc_time& end, bool at) const {
    if (!m_trace) return;
    MemoryRecord r;
    r.initiator = m_owner.self;
    r.addr = a.addr;
    r.size = a.len;
    r.write = a.cmd == tlm::TLM_WRITE_COMMAND;
    r.at = at;
    r.begin = begin;
    r.end_req = end_req;
    r.begin_resp = begin_resp;
    r.end = end;
    m_trace->on_memory(r);
}

} // namespace syncron
