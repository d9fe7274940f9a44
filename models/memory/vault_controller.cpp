#include "models/memory/vault_controller.h"

#include <algorithm>

namespace syncron {

using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

VaultController::VaultController(const sc_core::sc_module_name& name, unsigned unit, unsigned vault,
                                 const MemoryParams& params, const AddressMap& map, BackingStore& store)
    : sc_module(name),
      Vault(this->name(), unit, vault, params, map, store),
      socket("socket"),
      m_peq(this, &VaultController::peq_cb),
      m_done("done"),
      m_queue(params.queue_depth) {
    if (params.banks_per_vault == 0 || vault >= params.vaults_per_unit || unit >= map.units())
        SC_REPORT_ERROR(this->name(), "vault controller: unit/vault index or bank count out of range");
    if (params.queue_depth == 0) SC_REPORT_ERROR(this->name(), "vault controller: queue_depth must be at least 1");
    socket.register_b_transport(this, &VaultController::b_transport);
    socket.register_transport_dbg(this, &VaultController::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &VaultController::get_direct_mem_ptr);
    socket.register_nb_transport_fw(this, &VaultController::nb_transport_fw);

    SC_METHOD(scheduler);
    sensitive << m_kick;
    dont_initialize();
    SC_METHOD(on_done);
    sensitive << m_done.get_event();
    dont_initialize();
}

// ---------------------------------------------------------------------------
// Loosely-timed shell and the untimed interfaces

void VaultController::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    if (AtomicExtension* atomic = trans.get_extension<AtomicExtension>()) atomic->performed = false;
    const tlm::tlm_response_status st = validate(trans, true);
    if (st != tlm::TLM_OK_RESPONSE) {
        count_error();
        trans.set_response_status(st);
        return;
    }
    // Served now, at call time: b_transport calls are serialized by the
    // kernel, so atomics from different initiators never interleave.
    if (trans.is_read() || trans.is_write())
        delay += serve_booked(trans, sc_core::sc_time_stamp(), sc_core::sc_time_stamp() + delay);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned VaultController::transport_dbg(tlm::tlm_generic_payload& trans) { return debug_transport(trans); }

bool VaultController::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    (void)trans;
    deny_dmi(dmi);
    return false;
}

// ---------------------------------------------------------------------------
// Approximately-timed shell

tlm::tlm_sync_enum VaultController::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                    sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) {
        // Kept until the response completes.
        if (trans.has_mm()) trans.acquire();
        m_peq.notify(trans, phase, delay);
        return tlm::TLM_ACCEPTED; // END_REQ follows on the backward path
    }
    if (phase == tlm::END_RESP) {
        m_peq.notify(trans, phase, delay);
        return tlm::TLM_COMPLETED;
    }
    SC_REPORT_ERROR(name(), "nb_transport_fw: unexpected phase (only BEGIN_REQ and END_RESP are allowed)");
    return tlm::TLM_COMPLETED;
}

void VaultController::peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase) {
    if (phase == tlm::BEGIN_REQ)
        begin_req(trans);
    else if (phase == tlm::END_RESP)
        end_resp(trans);
}

void VaultController::begin_req(tlm::tlm_generic_payload& trans) {
    if (m_withheld != nullptr) {
        SC_REPORT_ERROR(name(), "nb_transport_fw: BEGIN_REQ before END_REQ of the previous request "
                                "(request exclusion rule)");
        return;
    }
    const sc_time now = sc_core::sc_time_stamp();
    trans.set_dmi_allowed(false);
    if (AtomicExtension* atomic = trans.get_extension<AtomicExtension>()) atomic->performed = false;
    const tlm::tlm_response_status st = validate(trans, true);
    if (st != tlm::TLM_OK_RESPONSE || (!trans.is_read() && !trans.is_write())) {
        // Errors and ignore commands need no bank and no queue slot: END_REQ,
        // then BEGIN_RESP at once (errors cost no time, as in LT).
        if (st != tlm::TLM_OK_RESPONSE) count_error();
        trans.set_response_status(st);
        send_end_req(trans);
        m_responses.push_back({&trans, now, false});
        send_responses();
        return;
    }
    if (!m_queue.full()) {
        accept(trans, now);
    } else {
        // Back-pressure: END_REQ only when a slot frees (the initiator may
        // not send another BEGIN_REQ until then).
        m_withheld = &trans;
        m_withheld_arrival = now;
        ++m_backpressured;
    }
}

void VaultController::accept(tlm::tlm_generic_payload& trans, const sc_time& arrival) {
    m_queue.push(decode(trans, arrival));
    m_max_occupancy = std::max(m_max_occupancy, queue_occupancy());
    if (m_trace) m_trace->on_queue({name(), queue_occupancy(), sc_core::sc_time_stamp()});
    send_end_req(trans);
    m_kick.notify(SC_ZERO_TIME); // after the other arrivals of this delta
}

void VaultController::send_end_req(tlm::tlm_generic_payload& trans) {
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_time delay = SC_ZERO_TIME;
    socket->nb_transport_bw(trans, phase, delay); // the initiator answers TLM_ACCEPTED
}

void VaultController::scheduler() {
    const sc_time now = sc_core::sc_time_stamp();
    while (const auto q = m_queue.pick(banks(), now)) {
        if (m_trace) m_trace->on_queue({name(), queue_occupancy(), sc_core::sc_time_stamp()});
        const sc_time done = issue(*q, now);
        m_in_service.push_back({q->trans, q->arrival, true});
        m_done.notify(*q->trans, done - now);
        // A slot is free: accept the withheld request.
        if (m_withheld != nullptr) {
            tlm::tlm_generic_payload* t = m_withheld;
            m_withheld = nullptr;
            accept(*t, m_withheld_arrival);
        }
    }
    // Wake up when the next bank with waiting requests becomes free.
    if (const auto next = m_queue.next_free(banks(), now)) m_kick.notify(*next - now);
}

void VaultController::on_done() {
    while (tlm::tlm_generic_payload* t = m_done.get_next_transaction()) {
        auto it = std::find_if(m_in_service.begin(), m_in_service.end(),
                               [t](const Response& r) { return r.trans == t; });
        if (it == m_in_service.end()) continue;
        m_responses.push_back(*it);
        m_in_service.erase(it);
    }
    send_responses();
}

void VaultController::send_responses() {
    // Response exclusion: one BEGIN_RESP at a time until END_RESP (or
    // TLM_COMPLETED, immediate with our initiators).
    while (m_resp_open == nullptr && !m_responses.empty()) {
        const Response r = m_responses.front();
        m_responses.pop_front();
        const sc_time now = sc_core::sc_time_stamp();
        if (r.timed) count_completed(now - r.arrival);
        tlm::tlm_generic_payload& trans = *r.trans;
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_time delay = SC_ZERO_TIME;
        m_resp_open = &trans;
        const tlm::tlm_sync_enum s = socket->nb_transport_bw(trans, phase, delay);
        if (s == tlm::TLM_COMPLETED) {
            m_resp_open = nullptr;
            if (trans.has_mm()) trans.release();
        } else if (s == tlm::TLM_UPDATED && phase == tlm::END_RESP) {
            m_peq.notify(trans, phase, delay); // ends at its annotated time
        }
        // TLM_ACCEPTED: END_RESP comes on the forward path.
    }
}

void VaultController::end_resp(tlm::tlm_generic_payload& trans) {
    if (m_resp_open != &trans) {
        SC_REPORT_ERROR(name(), "nb_transport_fw: END_RESP for a transaction not in its response phase");
        return;
    }
    m_resp_open = nullptr;
    if (trans.has_mm()) trans.release();
    send_responses();
}

void VaultController::reset_stats() {
    Vault::reset_stats();
    m_backpressured = 0;
    m_max_occupancy = queue_occupancy();
}

} // namespace syncron
