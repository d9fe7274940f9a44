#include "models/se/se_module.h"

#include <algorithm>
#include <stdexcept>

namespace syncron {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;

namespace {
constexpr const char* kMsgType = "/syncron/se";
}

SeModule::SeModule(sc_core::sc_module_name name, unsigned unit, const SeParams& params,
                   SeTopology topology, const AddressMap& map)
    : sc_module(name), in("in"), to_cores("to_cores"), to_ses("to_ses"), to_mem("to_mem"),
      m_unit(unit), m_params(params), m_map(map),
      m_layout(layout_for(topology.units, topology.cores_per_unit)),
      m_wire_ok(layout_fits_wire(m_layout)),
      m_core(unit, params, std::move(topology), this),
      m_cycle(1.0 / (params.clock_ghz > 0 ? params.clock_ghz : 1.0), SC_NS) {
    if (!(params.clock_ghz > 0)) throw std::invalid_argument("SeModule: se.clock_ghz must be positive");
    if (params.cycles_per_message == 0) throw std::invalid_argument("SeModule: se.cycles_per_message must be at least 1");
    in.register_b_transport(this, &SeModule::b_transport);
    in.register_transport_dbg(this, &SeModule::transport_dbg);
    SC_THREAD(spu);
}

bool SeModule::decode(tlm::tlm_generic_payload& trans, Message& msg, std::string& why) const {
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
        why = "SE message needs a SyncronExtension or " + std::to_string(kWireBytes) +
              " bytes of wire form, got " + std::to_string(trans.get_data_length()) + " bytes";
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return false;
    }
    why = m_core.validate(msg);
    if (!why.empty()) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return false;
    }
    return true;
}

void SeModule::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    Message msg;
    std::string why;
    if (!decode(trans, msg, why)) {
        ++m_stats.rejected;
        // The response already names the failure class; the report names the message.
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": rejected message: " + why).c_str());
        return;
    }
    // The message enters the SPU buffer at the sender's local time; the
    // target never waits (loosely-timed).
    const Arrival a{sc_core::sc_time_stamp() + delay, m_seq++, msg};
    if (waiting_at(a.time) >= m_params.buffer_messages) ++m_stats.buffer_full_events;
    m_buffer.insert(std::upper_bound(m_buffer.begin(), m_buffer.end(), a), a);
    m_arrival.notify(delay);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned SeModule::transport_dbg(tlm::tlm_generic_payload& trans) {
    // Debug access reads the wire form of the next buffered message; it
    // never advances time or changes state.
    if (trans.get_command() != tlm::TLM_READ_COMMAND || trans.get_data_length() < kWireBytes ||
        m_buffer.empty() || !m_wire_ok)
        return 0;
    const auto bytes = pack(m_buffer.front().msg, m_layout);
    std::copy(bytes.begin(), bytes.end(), trans.get_data_ptr());
    return kWireBytes;
}

unsigned SeModule::waiting_at(const sc_time& t) const {
    const Arrival probe{t, ~0ull, Message{}};
    return static_cast<unsigned>(std::upper_bound(m_buffer.begin(), m_buffer.end(), probe) - m_buffer.begin());
}

void SeModule::note_st_change() {
    const sc_time now = sc_core::sc_time_stamp();
    m_stats.st_occupancy_integral_ns +=
        m_core.table().occupancy() * (now - m_stats.last_change).to_seconds() * 1e9;
    m_stats.last_change = now;
}

double SeModule::st_occupancy_avg(const sc_time& now) const {
    const double total_ns = now.to_seconds() * 1e9;
    if (total_ns <= 0) return 0;
    const double tail = m_core.table().occupancy() * (now - m_stats.last_change).to_seconds() * 1e9;
    return (m_stats.st_occupancy_integral_ns + tail) / total_ns;
}

void SeModule::spu() {
    for (;;) {
        while (m_buffer.empty()) wait(m_arrival);
        const sc_time now = sc_core::sc_time_stamp();
        if (m_buffer.front().time > now) {
            wait(m_buffer.front().time - now, m_arrival); // an earlier message may still come
            continue;
        }
        m_stats.buffer_max = std::max(m_stats.buffer_max, waiting_at(now));
        const Arrival a = m_buffer.front();
        m_buffer.pop_front();
        for (auto* o : m_observers) o->on_processed(m_unit, a.msg, a.time, now);

        note_st_change();
        m_result.clear();
        m_mem_delay = SC_ZERO_TIME;
        m_core.handle(a.msg, m_result);
        note_st_change();
        m_stats.st_max = std::max(m_stats.st_max, m_core.table().occupancy());
        ++m_stats.processed;

        if (!m_result.ok()) SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": " + m_result.error).c_str());

        // Service time: the SPU's per-message cycles (which cover one ST
        // access), further ST accesses, indexing-counter accesses and the
        // syncronVar memory accesses of the overflow path.
        const SeCost& c = m_result.cost;
        const unsigned cycles = m_params.cycles_per_message * c.messages +
                                m_params.st_cycles * (c.st_accesses > 1 ? c.st_accesses - 1 : 0) +
                                m_params.counter_cycles * c.counter_accesses;
        const sc_time service = m_cycle * cycles + m_mem_delay;
        m_stats.spu_busy += service;
        for (const auto& o : m_result.out) emit(o, service);
        wait(service);
    }
}

void SeModule::emit(const Outgoing& o, const sc_time& delay) {
    const bool to_core = o.dest == Outgoing::Dest::core;
    for (auto* obs : m_observers) obs->on_emitted(m_unit, o.msg, to_core, o.id, sc_core::sc_time_stamp() + delay);
    std::array<uint8_t, kWireBytes> data{};
    if (m_wire_ok && fits(o.msg, m_layout)) data = pack(o.msg, m_layout);
    tlm::tlm_generic_payload trans;
    SyncronExtension ext(o.msg);
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(to_core ? m_map.mailbox_address(m_unit, o.id) : m_map.se_address(o.id));
    trans.set_data_ptr(data.data());
    trans.set_data_length(kWireBytes);
    trans.set_streaming_width(kWireBytes);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    trans.set_extension(&ext);
    sc_time d = delay;
    (to_core ? to_cores : to_ses)->b_transport(trans, d);
    trans.clear_extension(&ext);
    if (trans.is_response_error())
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": delivery failed (" + trans.get_response_string() +
                                   ") for " + to_string(o.msg))
                                      .c_str());
}

void SeModule::read(uint64_t addr, uint8_t* data, unsigned len) {
    mem_access(tlm::TLM_READ_COMMAND, addr, data, len);
}

void SeModule::write(uint64_t addr, const uint8_t* data, unsigned len) {
    mem_access(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(data), len);
}

void SeModule::mem_access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    // Accesses of one message are sequential: each starts when the previous
    // one has completed (the SPU waits for memory).
    tlm::tlm_generic_payload trans;
    trans.set_command(cmd);
    trans.set_address(addr);
    trans.set_data_ptr(data);
    trans.set_data_length(len);
    trans.set_streaming_width(len);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time d = m_mem_delay + m_cycle * m_params.cycles_per_message;
    const sc_time before = d;
    to_mem->b_transport(trans, d);
    m_mem_delay += d - before;
    ++m_stats.mem_accesses;
    if (trans.is_response_error())
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": syncronVar access failed at address " +
                                   std::to_string(addr) + " (" + trans.get_response_string() + ")")
                                      .c_str());
}

} // namespace syncron
