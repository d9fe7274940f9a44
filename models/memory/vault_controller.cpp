#include "models/memory/vault_controller.h"
#include "models/common/hex.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace syncron {

using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

namespace {
sc_time ns(double v) { return sc_time(v, SC_NS); }

// Atomic operands and memory words are little-endian, like the BackingStore's
// contents as the cores see them, whatever the host.
uint64_t load_le(const uint8_t* p, unsigned len) {
    uint64_t v = 0;
    for (unsigned i = len; i-- > 0;) v = (v << 8) | p[i];
    return v;
}
void store_le(uint8_t* p, uint64_t v, unsigned len) {
    for (unsigned i = 0; i < len; ++i, v >>= 8) p[i] = static_cast<uint8_t>(v);
}
bool known_op(AtomicOp op) { return static_cast<uint8_t>(op) <= static_cast<uint8_t>(AtomicOp::faa); }
} // namespace

VaultController::VaultController(const sc_core::sc_module_name& name, unsigned unit, unsigned vault,
                                 const MemoryParams& params, const AddressMap& map,
                                 BackingStore& store)
    : sc_module(name),
      socket("socket"),
      m_unit(unit),
      m_vault(vault),
      m_params(params),
      m_open_page(params.page_policy == PagePolicy::open),
      m_map(map),
      m_store(store),
      m_banks(params.banks_per_vault),
      m_at_banks(params.banks_per_vault),
      m_peq(this, &VaultController::peq_cb),
      m_done("done"),
      m_bank_conflicts(params.banks_per_vault, 0) {
    if (params.banks_per_vault == 0 || vault >= params.vaults_per_unit || unit >= map.units())
        SC_REPORT_ERROR(this->name(), "vault controller: unit/vault index or bank count out of range");
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

sc_time VaultController::atomic_column_latency(unsigned len) const {
    // READ (tCL, then the data bursts), ALU, WRITE of the result (its bursts).
    const double burst = m_params.t_burst_ns * bursts(len);
    return ns(m_params.t_cl_ns + burst + m_params.t_alu_ns + burst);
}

sc_time VaultController::atomic_column_to_precharge(unsigned len) const {
    return atomic_column_latency(len) + ns(m_params.t_wr_ns); // write recovery after the last write data
}

sc_time VaultController::atomic_row_latency(RowOutcome outcome, unsigned len) const {
    const sc_time col = atomic_column_latency(len);
    switch (outcome) {
    case RowOutcome::hit: return col;
    case RowOutcome::miss: return ns(m_params.t_rcd_ns) + col;
    case RowOutcome::conflict: return ns(m_params.t_rp_ns + m_params.t_rcd_ns) + col;
    }
    return col;
}

sc_time VaultController::atomic_latency(unsigned len) const {
    return atomic_row_latency(RowOutcome::miss, len);
}

sc_time VaultController::atomic_bank_occupancy(unsigned len) const {
    const sc_time open = std::max(ns(m_params.t_ras_ns), ns(m_params.t_rcd_ns) + atomic_column_to_precharge(len));
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

tlm::tlm_response_status VaultController::check_atomic(const tlm::tlm_generic_payload& trans,
                                                       const AtomicExtension& ext, bool warn) const {
    if (!trans.is_write()) return tlm::TLM_COMMAND_ERROR_RESPONSE;
    if (!known_op(ext.op)) return tlm::TLM_GENERIC_ERROR_RESPONSE;
    const unsigned len = trans.get_data_length();
    if (len != 4 && len != 8) return tlm::TLM_BURST_ERROR_RESPONSE;
    if (trans.get_address() % len != 0) {
        // An address the vault cannot act upon as an atomic; warned like the
        // other address errors.
        if (warn) {
            SC_REPORT_WARNING(name(), ("atomic at " + hex(trans.get_address()) + " is not aligned to its " +
                                       std::to_string(len) + " bytes")
                                          .c_str());
        }
        return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
    return tlm::TLM_OK_RESPONSE;
}

tlm::tlm_response_status VaultController::validate(const tlm::tlm_generic_payload& trans, bool warn) const {
    const tlm::tlm_response_status st = check(trans, warn);
    if (st != tlm::TLM_OK_RESPONSE) return st;
    if (const AtomicExtension* ext = trans.get_extension<AtomicExtension>()) return check_atomic(trans, *ext, warn);
    return tlm::TLM_OK_RESPONSE;
}

void VaultController::perform_atomic(tlm::tlm_generic_payload& trans, AtomicExtension& ext) {
    const uint64_t addr = trans.get_address();
    const unsigned len = trans.get_data_length(); // 4 or 8 (validated)
    uint8_t* data = trans.get_data_ptr();
    uint8_t old_bytes[8];
    m_store.read(addr, old_bytes, len);
    const uint64_t mask = len == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * len)) - 1;
    const uint64_t old = load_le(old_bytes, len);
    const uint64_t operand = load_le(data, len);
    uint64_t result = operand;
    bool store = true;
    switch (ext.op) {
    case AtomicOp::cas:
        store = old == (ext.compare & mask);
        if (!store) ++m_cas_failures;
        break;
    case AtomicOp::swap: break;
    case AtomicOp::faa: result = (old + operand) & mask; break;
    }
    if (store) {
        uint8_t bytes[8];
        store_le(bytes, result, len);
        m_store.write(addr, bytes, len);
    }
    std::memcpy(data, old_bytes, len); // the old value goes back to the initiator
    ++m_atomics[static_cast<size_t>(ext.op)];
    ext.performed = true;
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
    return book(bank, bank_occupancy(is_write, len), access_latency(is_write, len), arrival);
}

VaultController::Schedule VaultController::book(unsigned bank, const sc_time& occupancy, const sc_time& latency,
                                                const sc_time& arrival) {
    ResourceTimeline& tl = m_banks[bank];
    // Nothing can arrive before the current time: older bookings are dead.
    tl.prune(sc_core::sc_time_stamp());
    Schedule s;
    s.start = tl.book(arrival, occupancy);
    if (s.start > arrival) ++m_bank_conflicts[bank];
    s.done = s.start + latency;
    return s;
}

void VaultController::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    AtomicExtension* atomic = trans.get_extension<AtomicExtension>();
    if (atomic) atomic->performed = false;
    const tlm::tlm_response_status st = validate(trans, true);
    if (st != tlm::TLM_OK_RESPONSE) {
        ++m_errors;
        trans.set_response_status(st);
        return;
    }
    if (atomic) {
        // Performed now, at call time: b_transport calls are serialized by the
        // kernel, so atomics from different initiators never interleave.
        const unsigned len = trans.get_data_length();
        const sc_time arrival = sc_core::sc_time_stamp() + delay;
        const Schedule s =
            book(m_map.bank_of(trans.get_address()), atomic_bank_occupancy(len), atomic_latency(len), arrival);
        const sc_time added = s.done - arrival;
        delay += added;
        m_total_latency += added;
        ++m_completed;
        ++m_row_misses; // one activate, closed page
        count_access(false, len);
        count_access(true, len);
        perform_atomic(trans, *atomic);
    } else if (trans.is_read() || trans.is_write()) {
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
    // An atomic would change memory as a side effect: not supported, nothing
    // touched (neither memory nor the data buffer).
    if (trans.get_extension<AtomicExtension>() != nullptr) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return 0;
    }
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
    // Atomics never use DMI (a raw pointer cannot make a read-modify-write
    // atomic with respect to other initiators): they always go through
    // b_transport / nb_transport, even if DMI were granted for plain accesses.
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
    if (AtomicExtension* atomic = trans.get_extension<AtomicExtension>()) atomic->performed = false;
    const tlm::tlm_response_status st = validate(trans, true);
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
    m_queue.push_back({&trans, m_map.bank_of(addr), m_map.row_of(addr), trans.is_write(), trans.get_data_length(),
                       arrival, trans.get_extension<AtomicExtension>()});
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
    // An atomic: READ at `column`, ALU, WRITE of the result; done once the
    // write data is in the bank, like a write.
    const sc_time done = column + (q.atomic ? atomic_column_latency(q.len) : column_latency(q.is_write, q.len));
    const sc_time to_pre = q.atomic ? atomic_column_to_precharge(q.len) : column_to_precharge(q.is_write, q.len);
    const sc_time pre_ready = std::max(b.activated + ns(m_params.t_ras_ns), column + to_pre);
    // A hit keeps the constraints of the earlier accesses to the open row.
    b.pre_ready = outcome == RowOutcome::hit ? std::max(b.pre_ready, pre_ready) : pre_ready;
    if (m_open_page) {
        // The row stays open; the next column command may follow the burst
        // (for an atomic, the write burst: the bank serves nothing in between).
        b.open = true;
        b.row = q.row;
        b.free_at = q.atomic ? done : column + ns(m_params.t_burst_ns * bursts(q.len));
    } else {
        // Closed page: precharge as early as allowed, the bank is free once
        // precharged (activate + bank_occupancy, as in LT).
        b.open = false;
        b.free_at = b.pre_ready + ns(m_params.t_rp_ns);
    }

    if (now > q.arrival) ++m_bank_conflicts[q.bank];
    m_queueing += now - q.arrival;
    ++m_issued;
    if (q.atomic) {
        // Performed now, in service order: concurrent atomics to one word
        // serialize on their bank.
        count_access(false, q.len);
        count_access(true, q.len);
        perform_atomic(*q.trans, *q.atomic);
    } else {
        count_access(q.is_write, q.len);
        copy_data(*q.trans); // the access is performed now
    }
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

uint64_t VaultController::atomics() const {
    uint64_t sum = 0;
    for (uint64_t c : m_atomics) sum += c;
    return sum;
}

uint64_t VaultController::bank_conflicts() const {
    uint64_t sum = 0;
    for (uint64_t c : m_bank_conflicts) sum += c;
    return sum;
}

void VaultController::reset_stats() {
    m_reads = m_writes = m_bytes_read = m_bytes_written = m_errors = 0;
    m_atomics.fill(0);
    m_cas_failures = 0;
    m_completed = m_row_hits = m_row_misses = m_row_conflicts = m_issued = m_backpressured = 0;
    m_max_occupancy = static_cast<unsigned>(m_queue.size());
    m_total_latency = SC_ZERO_TIME;
    m_queueing = SC_ZERO_TIME;
    std::fill(m_bank_conflicts.begin(), m_bank_conflicts.end(), 0);
}

} // namespace syncron
