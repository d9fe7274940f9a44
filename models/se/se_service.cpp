#include "models/se/se_service.h"

#include <algorithm>
#include <utility>

#include "models/se/memory_response.h"
#include "models/se/se_transport.h"
#include "models/tlm/borrowed_extension.h"
#include "models/tlm/payload_fill.h"

namespace syncron {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;

namespace {
constexpr const char* kSeMsgType = "/syncron/se";
}

SeService::SeService(std::string name, unsigned unit, const SeParams& params, const SeTopology& topology,
                     const AddressMap& map, tlm::tlm_initiator_socket<>& to_mem)
    : m_name(std::move(name)), m_unit(unit), m_params(params), m_map(map),
      m_layout(layout_for(topology.units, topology.cores_per_unit)), m_wire_ok(layout_fits_wire(m_layout)),
      m_core(unit, params, topology, this), m_cycle(1.0 / (params.clock_ghz > 0 ? params.clock_ghz : 1.0), SC_NS),
      m_to_mem(to_mem) {}

bool SeService::decode(tlm::tlm_generic_payload& trans, Message& msg, std::string& why, bool check) const {
    if (trans.get_command() != tlm::TLM_WRITE_COMMAND) {
        why = "SE message port accepts writes only";
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return false;
    }
    if (trans.get_byte_enable_ptr()) {
        why = "SE message port does not support byte enables";
        trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return false;
    }
    if (trans.get_streaming_width() < trans.get_data_length()) {
        why = "SE message port does not support streaming";
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return false;
    }
    if (auto* ext = trans.get_extension<SyncronExtension>()) {
        msg = ext->msg;
    } else if (trans.get_data_length() == kWireBytes && trans.get_data_ptr()) {
        // A plain generic payload carrying the 140-bit wire form.
        try {
            msg = unpack(trans.get_data_ptr(), m_layout);
        } catch (const std::exception& e) {
            why = e.what();
            trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return false;
        }
    } else {
        why = "SE message needs a SyncronExtension or " + std::to_string(kWireBytes) + " bytes of wire form, got " +
              std::to_string(trans.get_data_length()) + " bytes";
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return false;
    }
    if (!check) return true;
    why = m_core.validate(msg);
    if (!why.empty()) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return false;
    }
    return true;
}

void SeService::reject(const std::string& why) {
    ++m_stats.rejected;
    // The response already names the failure class; the report names the message.
    SC_REPORT_ERROR(kSeMsgType, (m_name + ": rejected message: " + why).c_str());
}

bool SeService::wire_form(const Message& msg, uint8_t* data) const {
    if (!m_wire_ok) return false;
    const auto bytes = pack(msg, m_layout);
    std::copy(bytes.begin(), bytes.end(), data);
    return true;
}

sc_time SeService::service(const Message& msg, const sc_time& start) {
    m_result.clear();
    m_mem_delay = SC_ZERO_TIME;
    m_msg_start = start;
    m_core.handle_validated(msg, m_result); // decode() validated it on arrival
    ++m_stats.processed;
    if (!m_result.ok()) SC_REPORT_ERROR(kSeMsgType, (m_name + ": " + m_result.error).c_str());
    // Service time: the SPU's per-message cycles (which cover one ST
    // access), further ST accesses, indexing-counter accesses and the
    // syncronVar memory accesses of the overflow path.
    const SeCost& c = m_result.cost;
    const unsigned cycles = m_params.cycles_per_message * c.messages +
                            m_params.st_cycles * (c.st_accesses > 1 ? c.st_accesses - 1 : 0) +
                            m_params.counter_cycles * c.counter_accesses;
    const sc_time busy = m_cycle * cycles + m_mem_delay;
    m_stats.spu_busy += busy;
    return busy;
}

uint64_t SeService::destination_address(const Outgoing& o) const {
    switch (o.dest) {
    case Outgoing::Dest::core: { // flat: the id is the core's flat index, any unit
        const CoreRef c = m_core.organization().core(o.id, m_unit);
        return m_map.mailbox_address(c.unit, c.local);
    }
    case Outgoing::Dest::server: // the fallback server core of unit `id`
        return m_map.mailbox_address(o.id, m_core.topology().server_core(o.id));
    default: return m_map.se_address(o.id);
    }
}

void SeService::fill_message(tlm::tlm_generic_payload& t, const Outgoing& o, uint8_t* data) const {
    std::array<uint8_t, kWireBytes> bytes{};
    if (m_wire_ok && fits(o.msg, m_layout)) bytes = pack(o.msg, m_layout);
    std::copy(bytes.begin(), bytes.end(), data);
    fill_payload(t, tlm::TLM_WRITE_COMMAND, destination_address(o), data, kWireBytes);
}

void SeService::report_delivery_error(const tlm::tlm_generic_payload& t) const {
    const auto* ext = t.get_extension<SyncronExtension>();
    SC_REPORT_ERROR(kSeMsgType, (m_name + ": delivery failed (" + t.get_response_string() + ") for " +
                                 (ext ? to_string(ext->msg) : std::string("a message")))
                                    .c_str());
}

void SeService::read(uint64_t addr, uint8_t* data, unsigned len) { mem_access(tlm::TLM_READ_COMMAND, addr, data, len); }

void SeService::write(uint64_t addr, const uint8_t* data, unsigned len) {
    mem_access(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(data), len);
}

void SeService::mem_access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    // Accesses of one message are sequential: each starts when the previous
    // one has completed (the SPU waits for memory), the first one after the
    // SPU's decode and ST cycles.
    tlm::tlm_generic_payload& trans = m_transport->memory_payload();
    fill_payload(trans, cmd, addr, data, len);
    {
        const BorrowedExtension<SyncTrafficExtension> tag(trans, &m_sync_tag); // member-owned
        const sc_time latency = m_transport->access_memory(trans, m_msg_start + base_service() + m_mem_delay);
        m_mem_delay += latency;
        ++m_stats.mem_accesses;
        if (m_trace) {
            MemoryRecord rec;
            rec.initiator = Endpoint::se(m_unit);
            rec.addr = addr;
            rec.size = len;
            rec.write = cmd == tlm::TLM_WRITE_COMMAND;
            rec.at = m_transport->timing() == Timing::at;
            rec.end = rec.begin_resp = m_msg_start + base_service() + m_mem_delay;
            rec.begin = rec.end_req = rec.end - latency;
            m_trace->on_memory(rec);
        }
    }
    if (const auto why = memory_response_error(trans, addr, m_params.accept_incomplete_response))
        SC_REPORT_ERROR(kSeMsgType, (m_name + ": " + *why).c_str());
    m_transport->memory_done(trans);
}

} // namespace syncron
