#include "models/frontend/mmio_frontend.h"

#include <algorithm>
#include <array>
#include <string>

#include "models/protocol/tlm/syncron_extension.h"
#include "models/tlm/borrowed_extension.h"
#include "models/tlm/payload_fill.h"

namespace syncron {

using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

MmioFrontEndBase::MmioFrontEndBase(sc_core::sc_module_name name, unsigned unit, const FabricParams& params,
                                   const AddressMap& map, std::shared_ptr<KindTable> kinds)
    : sc_module(name), to_se("to_se"), replies("replies"), m_core(unit, params, std::move(kinds)), m_map(map),
      m_layout(layout_for(params.units, params.harts_per_unit)), m_wire_ok(layout_fits_wire(m_layout)),
      m_access(params.access_ns, sc_core::SC_NS), m_monotonic_delay(params.monotonic_delay),
      m_error_responses(params.error_responses), m_waiters(params.harts_per_unit),
      m_bus_port(
          *this, "bus_peq",
          [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) { return bus_bw(t, p, d); },
          {[this](unsigned, tlm::tlm_generic_payload& t) { at_request(t); }, nullptr}, {}),
      m_reply_port(*this, "reply_peq",
                   [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                       return replies->nb_transport_bw(t, p, d);
                   },
                   {[this](unsigned, tlm::tlm_generic_payload& t) {
                        on_reply(t, SC_ZERO_TIME);
                        m_reply_port.respond(0, t);
                    },
                    nullptr},
                   {/*defer=*/false, /*accept_at_once=*/true}),
      m_resp_peq("resp_peq") {
    replies.register_b_transport(this, &MmioFrontEndBase::reply_b_transport);
    replies.register_nb_transport_fw(this, &MmioFrontEndBase::reply_nb_transport_fw);
    SC_THREAD(responder);
}

MmioFrontEndCore::Outcome MmioFrontEndBase::decode(tlm::tlm_generic_payload& t) {
    MmioFrontEndCore::Access a;
    a.addr = t.get_address();
    a.len = t.get_data_length();
    a.read = t.is_read();
    a.byte_enables = t.get_byte_enable_ptr() != nullptr;
    // Streaming width 0 is the payload's default: most ISSs never set it.
    a.streaming = t.get_streaming_width() != 0 && t.get_streaming_width() < t.get_data_length();
    a.data = t.get_data_ptr();
    for (unsigned i = 0; i < tlm::max_num_extensions() && !a.extended; ++i) a.extended = t.get_extension(i) != nullptr;
    ++m_stats.accesses;
    if (!t.is_read() && !t.is_write()) { // TLM_IGNORE_COMMAND: nothing to do
        MmioFrontEndCore::Outcome o;
        return o;
    }
    return m_core.access(a);
}

void MmioFrontEndBase::finish(tlm::tlm_generic_payload& t, uint32_t status) {
    if (status != SYNCRON_ST_OK && !m_error_responses) {
        // For an ISS that traps on every error response: the load returns
        // the STATUS code as a command-slot load does, and software checks it.
        ++m_stats.errors;
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        if (!t.is_read() || !t.get_data_ptr() || t.get_byte_enable_ptr()) return;
        uint8_t* data = t.get_data_ptr();
        std::fill_n(data, t.get_data_length(), uint8_t{0});
        for (unsigned i = 0; i < std::min(4u, t.get_data_length()); ++i)
            data[i] = static_cast<uint8_t>(status >> (8 * i));
        return;
    }
    switch (status) {
    case SYNCRON_ST_OK: t.set_response_status(tlm::TLM_OK_RESPONSE); return;
    case SYNCRON_ST_BAD_OFFSET: t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); break;
    case SYNCRON_ST_BAD_SIZE:
        t.set_response_status(t.get_byte_enable_ptr() ? tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE
                                                      : tlm::TLM_BURST_ERROR_RESPONSE);
        break;
    case SYNCRON_ST_BAD_COMMAND: t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE); break;
    default: t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE); break;
    }
    ++m_stats.errors;
}

void MmioFrontEndBase::fill_load(tlm::tlm_generic_payload& t, uint64_t value) {
    uint8_t* data = t.get_data_ptr();
    for (unsigned i = 0; i < t.get_data_length(); ++i) data[i] = i < 8 ? static_cast<uint8_t>(value >> (8 * i)) : 0;
}

sc_time MmioFrontEndBase::send(const Message& m, const sc_time& delay) {
    // To the unit's SE through its crossbar, as a core's mailbox write would go.
    std::array<uint8_t, kWireBytes> data{};
    if (m_wire_ok && fits(m, m_layout)) data = pack(m, m_layout);
    tlm::tlm_generic_payload& t = m_msg_trans;
    fill_payload(t, tlm::TLM_WRITE_COMMAND, m_map.se_address(m_core.unit()), data.data(), kWireBytes);
    SyncronExtension ext(m);
    ext.src = Endpoint::core(m_core.unit(), m.core);
    ext.sent = sc_core::sc_time_stamp() + delay;
    sc_time d = delay;
    {
        // Stack-owned: cleared also when an SE error report unwinds the call.
        const BorrowedExtension<SyncronExtension> borrowed(t, &ext);
        to_se->b_transport(t, d);
    }
    ++m_stats.requests;
    if (t.is_response_error()) // the front end checked the request: this is a model bug
        SC_REPORT_ERROR(name(), ("the SE refused " + to_string(m) + " (" + t.get_response_string() + ")").c_str());
    return ext.held;
}

void MmioFrontEndBase::bus_b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
    const sc_time local = sc_core::sc_time_stamp() + delay; // the hart's local time
    const sc_time given = delay;
    const MmioFrontEndCore::Outcome o = decode(t);
    delay += m_access;
    // A store the SE's full input held back (LT) completes that much later.
    if (o.action != MmioFrontEndCore::Action::done) delay += send(o.msg, delay);
    if (o.action != MmioFrontEndCore::Action::exchange) {
        finish(t, o.status);
        return;
    }
    // req_sync: the load completes when the grant arrives. The hart's time
    // only moves forward: the result is annotated at max(grant, its own
    // local time + access).
    Waiter& w = m_waiters[o.hart];
    w.since = local;
    while (!w.granted) wait(w.granted_event);
    w.granted = false;
    const sc_time done = std::max(w.at, local + m_access);
    delay = done - sc_core::sc_time_stamp();
    // For quantum keepers that forbid a smaller delay: the hart's time then
    // ends at the grant plus its offset, at most one quantum late.
    if (m_monotonic_delay) delay = std::max(delay, given + m_access);
    fill_load(t, m_core.load_value(o.hart)); // STATUS OK, or an rmw's old value
    finish(t, SYNCRON_ST_OK);
}

void MmioFrontEndBase::at_request(tlm::tlm_generic_payload& t) {
    // BEGIN_REQ at its effective time: END_REQ at once (the front end never
    // applies back-pressure), BEGIN_RESP after the access or at the grant.
    m_bus_port.accept(0, t);
    const MmioFrontEndCore::Outcome o = decode(t);
    if (o.action != MmioFrontEndCore::Action::done) send(o.msg, m_access);
    if (o.action == MmioFrontEndCore::Action::exchange) {
        m_waiters[o.hart].at_load = &t;
        m_waiters[o.hart].since = sc_core::sc_time_stamp();
        return;
    }
    finish(t, o.status);
    m_resp_peq.notify(t, m_access);
}

void MmioFrontEndBase::responder() {
    for (;;) {
        wait(m_resp_peq.get_event());
        while (tlm::tlm_generic_payload* t = m_resp_peq.get_next_transaction()) m_bus_port.respond(0, *t);
    }
}

void MmioFrontEndBase::on_reply(tlm::tlm_generic_payload& t, const sc_time& delay) {
    Message m;
    if (const auto* ext = t.get_extension<SyncronExtension>()) {
        m = ext->msg;
    } else if (m_wire_ok && t.get_data_length() == kWireBytes && t.get_data_ptr()) {
        m = unpack(t.get_data_ptr(), m_layout);
    } else {
        t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        SC_REPORT_ERROR(name(), "reply without a SyncronExtension or wire form");
        return;
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    if (!m_core.grant(m)) {
        SC_REPORT_ERROR(name(), ("reply " + to_string(m) + " for a hart that waits for none").c_str());
        return;
    }
    ++m_stats.grants;
    Waiter& w = m_waiters[m.core];
    if (w.at_load) { // AT: the withheld load responds at the grant's time
        tlm::tlm_generic_payload* load = w.at_load;
        w.at_load = nullptr;
        fill_load(*load, m_core.load_value(m.core)); // STATUS OK, or an rmw's old value
        finish(*load, SYNCRON_ST_OK);
        m_resp_peq.notify(*load, delay);
        return;
    }
    w.granted = true;
    w.at = sc_core::sc_time_stamp() + delay;
    w.granted_event.notify(delay);
}

void MmioFrontEndBase::reply_b_transport(tlm::tlm_generic_payload& t, sc_time& delay) { on_reply(t, delay); }

std::vector<MmioFrontEndBase::Waiting> MmioFrontEndBase::waiting() const {
    std::vector<Waiting> out;
    for (unsigned h = 0; h < m_core.harts(); ++h)
        if (const auto& p = m_core.pending(h))
            out.push_back({m_core.unit() * m_core.harts() + h, *p, m_waiters[h].since});
    return out;
}

unsigned MmioFrontEndBase::bus_transport_dbg(tlm::tlm_generic_payload& t) {
    if (!t.is_read()) return 0; // debug writes would change registers
    return m_core.debug_read(t.get_address(), t.get_data_ptr(), t.get_data_length());
}

} // namespace syncron
