#include "models/memory/vault_controller.h"

#include <algorithm>
#include <vector>

#include "models/tlm/kernel_time.h"

namespace syncron {

using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

VaultController::VaultController(const sc_core::sc_module_name& name, unsigned unit, unsigned vault,
                                 const MemoryParams& params, const AddressMap& map, BackingStore& store)
    : sc_module(name), Vault(this->name(), unit, vault, params, map, store), socket("socket"),
      m_port(*this, "peq",
             [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
                 return socket->nb_transport_bw(t, ph, d);
             },
             {[this](unsigned, tlm::tlm_generic_payload& t) { begin_req(t); },
              [this](unsigned, tlm::tlm_generic_payload& t) { response_started(t); }},
             // Every phase takes effect through the queue, END_REQ always on the backward path.
             {/*defer=*/true, /*accept_at_once=*/false}),
      m_done("done"), m_queue(params.queue_depth) {
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
    if (trans.is_read() || trans.is_write()) delay += serve_booked(trans, kernel_time(), kernel_time() + delay);
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
    return m_port.nb_transport_fw(0, trans, phase, delay);
}

void VaultController::begin_req(tlm::tlm_generic_payload& trans) {
    const sc_time now = kernel_time();
    trans.set_dmi_allowed(false);
    if (AtomicExtension* atomic = trans.get_extension<AtomicExtension>()) atomic->performed = false;
    const tlm::tlm_response_status st = validate(trans, true);
    if (st != tlm::TLM_OK_RESPONSE || (!trans.is_read() && !trans.is_write())) {
        // Errors and ignore commands need no bank and no queue slot: END_REQ,
        // then BEGIN_RESP at once (errors cost no time, as in LT).
        if (st != tlm::TLM_OK_RESPONSE) count_error();
        trans.set_response_status(st);
        m_port.accept(0, trans);
        m_port.respond(0, trans);
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
    if (m_trace) m_trace->on_queue({name(), queue_occupancy(), kernel_time()});
    m_port.accept(0, trans);
    m_kick.notify(SC_ZERO_TIME); // after the other arrivals of this delta
}

void VaultController::scheduler() {
    const sc_time now = kernel_time();
    while (const auto q = m_queue.pick(banks(), now)) {
        if (m_trace) m_trace->on_queue({name(), queue_occupancy(), kernel_time()});
        const sc_time done = issue(*q, now);
        m_arrival[q->trans] = q->arrival;
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
    // Responses leave in completion order, one at a time (the port). All the
    // completions due now are taken before the first is handed over, as the
    // vault did before the port: a BEGIN_RESP runs the initiator's reaction
    // in the same call, and interleaving it with the draining changes the
    // order of later events (measured: 3 runs of remote_atomics, open page,
    // queue_depth 2 differ otherwise).
    std::vector<tlm::tlm_generic_payload*> due;
    while (tlm::tlm_generic_payload* t = m_done.get_next_transaction()) due.push_back(t);
    for (auto* t : due) m_port.respond(0, *t);
}

void VaultController::response_started(tlm::tlm_generic_payload& trans) {
    const auto it = m_arrival.find(&trans);
    if (it == m_arrival.end()) return; // an error: no latency
    count_completed(kernel_time() - it->second);
    m_arrival.erase(it);
}

void VaultController::reset_stats() {
    Vault::reset_stats();
    m_backpressured = 0;
    m_max_occupancy = queue_occupancy();
}

} // namespace syncron
