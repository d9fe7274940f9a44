#include "models/memory/vault_controller.h"

#include <algorithm>
#include <sstream>

namespace syncron {

using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

namespace {
std::string hex(uint64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}
sc_time ns(double v) { return sc_time(v, SC_NS); }
} // namespace

VaultController::VaultController(const sc_core::sc_module_name& name, unsigned unit, unsigned vault,
                                 const MemoryParams& params, const AddressMap& map,
                                 BackingStore& store)
    : sc_module(name),
      socket("socket"),
      m_unit(unit),
      m_vault(vault),
      m_params(params),
      m_open_page(params.page_policy == "open"),
      m_map(map),
      m_store(store),
      m_banks(params.banks_per_vault),
      m_at_banks(params.banks_per_vault),
      m_peq(this, &VaultController::peq_cb),
      m_done("done"),
      m_bank_conflicts(params.banks_per_vault, 0) {
    if (params.banks_per_vault == 0 || vault >= params.vaults_per_unit || unit >= map.units())
        SC_REPORT_ERROR(this->name(), "vault controller: unit/vault index or bank count out of range");
    if (params.page_policy != "open" && params.page_policy != "closed")
        SC_REPORT_ERROR(this->name(), ("vault controller: page_policy must be \"open\" or \"closed\", got \"" +
                                       params.page_policy + "\"")
                                          .c_str());
    if (params.queue_depth == 0) SC_REPORT_ERROR(this->name(), "vault controller: queue_depth must be at least 1");
    m_queue.reserve(params.queue_depth);
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
// Timing helpers (shared by LT and AT)

sc_time VaultController::column_latency(bool is_write, unsigned len) const {
    const double burst = m_params.t_burst_ns * bursts(len);
    return ns((is_write ? 0.0 : m_params.t_cl_ns) + burst);
}

sc_time VaultController::column_to_precharge(bool is_write, unsigned len) const {
    // Reads: precharge may follow once the last READ command has issued, i.e.
    // after the bursts (read-to-precharge taken as one burst, since tRTP is not
    // a parameter); data drains tCL later, so tCL does not hold the bank.
    // Writes: write recovery tWR after the last data beat.
    const double burst = m_params.t_burst_ns * bursts(len);
    return ns(burst + (is_write ? m_params.t_wr_ns : 0.0));
}

sc_time VaultController::row_latency(RowOutcome outcome, bool is_write, unsigned len) const {
    const sc_time col = column_latency(is_write, len);
    switch (outcome) {
    case RowOutcome::hit: return col;
    case RowOutcome::miss: return ns(m_params.t_rcd_ns) + col;
    case RowOutcome::conflict: return ns(m_params.t_rp_ns + m_params.t_rcd_ns) + col;
    }
    return col;
}

sc_time VaultController::access_latency(bool is_write, unsigned len) const {
    return row_latency(RowOutcome::miss, is_write, len);
}

sc_time VaultController::bank_occupancy(bool is_write, unsigned len) const {
    const sc_time open = std::max(ns(m_params.t_ras_ns), ns(m_params.t_rcd_ns) + column_to_precharge(is_write, len));
    return open + ns(m_params.t_rp_ns);
}

// ---------------------------------------------------------------------------
// Common to both paths

tlm::tlm_response_status VaultController::check(const tlm::tlm_generic_payload& trans, bool warn) const {
    const uint64_t addr = trans.get_address();
    const uint64_t len = trans.get_data_length();
    const uint64_t base = m_map.unit_base(m_unit);
    const uint64_t end = base + m_map.unit_bytes();
    // Whole access inside this unit's memory, and its first byte in this vault
    // (an access crossing the interleave granule is served by the first vault).
    if (addr < base || addr >= end || len > end - addr || m_map.vault_of(addr) != m_vault) {
        if (warn) {
            SC_REPORT_WARNING(name(), ("address " + hex(addr) + " (+" + std::to_string(len) +
                                       " B) is not in unit " + std::to_string(m_unit) + " vault " +
                                       std::to_string(m_vault))
                                          .c_str());
        }
        return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
    if (trans.get_byte_enable_ptr() != nullptr) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    if (trans.get_streaming_width() < trans.get_data_length()) return tlm::TLM_BURST_ERROR_RESPONSE;
    return tlm::TLM_OK_RESPONSE;
}

void VaultController::copy_data(tlm::tlm_generic_payload& trans) {
    if (trans.is_read())
        m_store.read(trans.get_address(), trans.get_data_ptr(), trans.get_data_length());
    else if (trans.is_write())
        m_store.write(trans.get_address(), trans.get_data_ptr(), trans.get_data_length());
}

void VaultController::count_access(bool is_write, unsigned len) {
    if (is_write) {
        ++m_writes;
        m_bytes_written += len;
    } else {
        ++m_reads;
        m_bytes_read += len;
    }
}

// ---------------------------------------------------------------------------
// Loosely-timed path

VaultController::Schedule VaultController::schedule(unsigned bank, bool is_write, unsigned len,
                                                    const sc_time& arrival) {
    ResourceTimeline& tl = m_banks[bank];
    // Nothing can arrive before the current time: older bookings are dead.
    tl.prune(sc_core::sc_time_stamp());
    Schedule s;
    s.start = tl.book(arrival, bank_occupancy(is_write, len));
    if (s.start > arrival) ++m_bank_conflicts[bank];
    s.done = s.start + access_latency(is_write, len);
    return s;
}

void VaultController::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    const tlm::tlm_response_status st = check(trans, true);
    if (st != tlm::TLM_OK_RESPONSE) {
        ++m_errors;
        trans.set_response_status(st);
        return;
    }
    if (trans.is_read() || trans.is_write()) {
        const bool is_write = trans.is_write();
        const unsigned len = trans.get_data_length();
        const sc_time arrival = sc_core::sc_time_stamp() + delay;
        const Schedule s = schedule(m_map.bank_of(trans.get_address()), is_write, len, arrival);
        const sc_time added = s.done - arrival;
        delay += added;
        m_total_latency += added;
        ++m_completed;
        ++m_row_misses; // closed page: every access activates its row
        count_access(is_write, len);
        copy_data(trans);
    }
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned VaultController::transport_dbg(tlm::tlm_generic_payload& trans) {
    // Debug access: data only, no timing, no bank state, no statistics.
    const tlm::tlm_response_status st = check(trans, false);
    if (st != tlm::TLM_OK_RESPONSE) {
        trans.set_response_status(st);
        return 0;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (!trans.is_read() && !trans.is_write()) return 0;
    copy_data(trans);
    return trans.get_data_length();
}

bool VaultController::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    // No DMI: every access must go through the timing model. Deny the whole
    // unit range so the initiator does not ask again for its addresses.
    (void)trans;
    dmi.allow_none();
    dmi.set_start_address(m_map.unit_base(m_unit));
    dmi.set_end_address(m_map.unit_base(m_unit) + m_map.unit_bytes() - 1);
    return false;
}

// ---------------------------------------------------------------------------
// Approximately-timed path

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
    const tlm::tlm_response_status st = check(trans, true);
    if (st != tlm::TLM_OK_RESPONSE || (!trans.is_read() && !trans.is_write())) {
        // Errors and ignore commands need no bank and no queue slot: END_REQ,
        // then BEGIN_RESP at once (errors cost no time, as in LT).
        if (st != tlm::TLM_OK_RESPONSE) ++m_errors;
        trans.set_response_status(st);
        send_end_req(trans);
        m_responses.push_back({&trans, now, false});
        send_responses();
        return;
    }
    if (m_queue.size() < m_params.queue_depth) {
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
    const uint64_t addr = trans.get_address();
    m_queue.push_back(
        {&trans, m_map.bank_of(addr), m_map.row_of(addr), trans.is_write(), trans.get_data_length(), arrival});
    m_max_occupancy = std::max(m_max_occupancy, static_cast<unsigned>(m_queue.size()));
    if (m_trace) m_trace->on_queue({name(), static_cast<unsigned>(m_queue.size()), sc_core::sc_time_stamp()});
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
    for (;;) {
        // FR-FCFS among the requests whose bank is free: row hits first, then
        // the oldest (the queue is in arrival order). Requests to one address
        // share bank and row, so they are never reordered among themselves.
        int best = -1;
        bool best_hit = false;
        for (size_t i = 0; i < m_queue.size(); ++i) {
            const Queued& q = m_queue[i];
            const BankState& b = m_at_banks[q.bank];
            if (b.free_at > now) continue;
            const bool hit = b.open && b.row == q.row;
            if (best < 0 || (hit && !best_hit)) {
                best = static_cast<int>(i);
                best_hit = hit;
                if (hit) break; // the oldest hit
            }
        }
        if (best < 0) break;
        const Queued q = m_queue[best];
        m_queue.erase(m_queue.begin() + best);
        if (m_trace) m_trace->on_queue({name(), static_cast<unsigned>(m_queue.size()), sc_core::sc_time_stamp()});
        issue(q);
        // A slot is free: accept the withheld request.
        if (m_withheld != nullptr) {
            tlm::tlm_generic_payload* t = m_withheld;
            m_withheld = nullptr;
            accept(*t, m_withheld_arrival);
        }
    }
    // Wake up when the next bank with waiting requests becomes free.
    sc_time next = sc_core::SC_ZERO_TIME;
    bool any = false;
    for (const Queued& q : m_queue) {
        const sc_time f = m_at_banks[q.bank].free_at;
        if (f > now && (!any || f < next)) {
            next = f;
            any = true;
        }
    }
    if (any) m_kick.notify(next - now);
}

void VaultController::issue(const Queued& q) {
    const sc_time now = sc_core::sc_time_stamp();
    BankState& b = m_at_banks[q.bank];
    RowOutcome outcome;
    sc_time column; // column (READ/WRITE) command time
    if (b.open && b.row == q.row) {
        outcome = RowOutcome::hit;
        ++m_row_hits;
        column = now;
    } else if (b.open) {
        outcome = RowOutcome::conflict;
        ++m_row_conflicts;
        const sc_time pre = std::max(now, b.pre_ready); // tRAS / tWR of the open row
        b.activated = pre + ns(m_params.t_rp_ns);
        column = b.activated + ns(m_params.t_rcd_ns);
    } else {
        outcome = RowOutcome::miss;
        ++m_row_misses;
        b.activated = now;
        column = now + ns(m_params.t_rcd_ns);
    }
    const sc_time done = column + column_latency(q.is_write, q.len);
    const sc_time burst = ns(m_params.t_burst_ns * bursts(q.len));
    const sc_time pre_ready = std::max(b.activated + ns(m_params.t_ras_ns),
                                       column + column_to_precharge(q.is_write, q.len));
    // A hit keeps the constraints of the earlier accesses to the open row.
    b.pre_ready = outcome == RowOutcome::hit ? std::max(b.pre_ready, pre_ready) : pre_ready;
    if (m_open_page) {
        // The row stays open; the next column command may follow the burst.
        b.open = true;
        b.row = q.row;
        b.free_at = column + burst;
    } else {
        // Closed page: precharge as early as allowed, the bank is free once
        // precharged (activate + bank_occupancy, as in LT).
        b.open = false;
        b.free_at = b.pre_ready + ns(m_params.t_rp_ns);
    }

    if (now > q.arrival) ++m_bank_conflicts[q.bank];
    m_queueing += now - q.arrival;
    ++m_issued;
    count_access(q.is_write, q.len);
    copy_data(*q.trans); // the access is performed now
    q.trans->set_response_status(tlm::TLM_OK_RESPONSE);
    m_in_service.push_back({q.trans, q.arrival, true});
    m_done.notify(*q.trans, done - now);
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
        if (r.timed) {
            m_total_latency += now - r.arrival;
            ++m_completed;
        }
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

// ---------------------------------------------------------------------------
// Statistics

sc_time VaultController::average_latency() const {
    return m_completed == 0 ? SC_ZERO_TIME : m_total_latency / static_cast<double>(m_completed);
}

sc_time VaultController::average_queueing_delay() const {
    return m_issued == 0 ? SC_ZERO_TIME : m_queueing / static_cast<double>(m_issued);
}

uint64_t VaultController::bank_conflicts() const {
    uint64_t sum = 0;
    for (uint64_t c : m_bank_conflicts) sum += c;
    return sum;
}

void VaultController::reset_stats() {
    m_reads = m_writes = m_bytes_read = m_bytes_written = m_errors = 0;
    m_completed = m_row_hits = m_row_misses = m_row_conflicts = m_issued = m_backpressured = 0;
    m_max_occupancy = static_cast<unsigned>(m_queue.size());
    m_total_latency = SC_ZERO_TIME;
    m_queueing = SC_ZERO_TIME;
    std::fill(m_bank_conflicts.begin(), m_bank_conflicts.end(), 0);
}

} // namespace syncron
