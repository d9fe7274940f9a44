#include "models/memory/vault.h"

#include <algorithm>
#include <cstring>

#include "models/common/hex.h"
#include "models/protocol/tlm/coherence_extension.h"

namespace syncron {

using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

namespace {
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

Vault::Vault(std::string name, unsigned unit, unsigned vault, const MemoryParams& params, const AddressMap& map,
             BackingStore& store)
    : VaultTiming(params), m_name(std::move(name)), m_unit(unit), m_vault(vault), m_map(map), m_store(store),
      m_banks(params.banks_per_vault), m_page_policy(VaultPagePolicy::make(params.page_policy, *this)),
      m_bank_conflicts(params.banks_per_vault, 0) {}

// ---------------------------------------------------------------------------
// Function

tlm::tlm_response_status Vault::check(const tlm::tlm_generic_payload& trans, bool warn) const {
    const uint64_t addr = trans.get_address();
    const uint64_t len = trans.get_data_length();
    const uint64_t base = m_map.unit_base(m_unit);
    const uint64_t end = base + m_map.unit_bytes();
    // Whole access inside this unit's memory, and its first byte in this vault
    // (an access crossing the interleave granule is served by the first vault).
    if (addr < base || addr >= end || len > end - addr || m_map.vault_of(addr) != m_vault) {
        if (warn) {
            SC_REPORT_WARNING(m_name.c_str(),
                              ("address " + hex(addr) + " (+" + std::to_string(len) + " B) is not in unit " +
                               std::to_string(m_unit) + " vault " + std::to_string(m_vault))
                                  .c_str());
        }
        return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
    if (trans.get_byte_enable_ptr() != nullptr) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    if (trans.get_streaming_width() < trans.get_data_length()) return tlm::TLM_BURST_ERROR_RESPONSE;
    return tlm::TLM_OK_RESPONSE;
}

tlm::tlm_response_status Vault::check_atomic(const tlm::tlm_generic_payload& trans, const AtomicExtension& ext,
                                             bool warn) const {
    if (!trans.is_write()) return tlm::TLM_COMMAND_ERROR_RESPONSE;
    if (!known_op(ext.op)) return tlm::TLM_GENERIC_ERROR_RESPONSE;
    const unsigned len = trans.get_data_length();
    if (len != 4 && len != 8) return tlm::TLM_BURST_ERROR_RESPONSE;
    if (trans.get_address() % len != 0) {
        // An address the vault cannot act upon as an atomic; warned like the
        // other address errors.
        if (warn) {
            SC_REPORT_WARNING(m_name.c_str(), ("atomic at " + hex(trans.get_address()) + " is not aligned to its " +
                                               std::to_string(len) + " bytes")
                                                  .c_str());
        }
        return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
    return tlm::TLM_OK_RESPONSE;
}

tlm::tlm_response_status Vault::validate(const tlm::tlm_generic_payload& trans, bool warn) const {
    const tlm::tlm_response_status st = check(trans, warn);
    if (st != tlm::TLM_OK_RESPONSE) return st;
    if (const AtomicExtension* ext = trans.get_extension<AtomicExtension>()) return check_atomic(trans, *ext, warn);
    return tlm::TLM_OK_RESPONSE;
}

unsigned Vault::debug_transport(tlm::tlm_generic_payload& trans) {
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

void Vault::deny_dmi(tlm::tlm_dmi& dmi) const {
    // Every access must go through the timing model. Deny the whole unit range
    // so the initiator does not ask again for its addresses. Atomics never use
    // DMI (a raw pointer cannot make a read-modify-write atomic with respect to
    // other initiators).
    dmi.allow_none();
    dmi.set_start_address(m_map.unit_base(m_unit));
    dmi.set_end_address(m_map.unit_base(m_unit) + m_map.unit_bytes() - 1);
}

void Vault::perform_atomic(tlm::tlm_generic_payload& trans, AtomicExtension& ext) {
    const uint64_t addr = trans.get_address();
    const unsigned len = trans.get_data_length(); // 4 or 8 (validated)
    const uint8_t* data = trans.get_data_ptr();
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
    ext.old_value = old; // in the extension: a WRITE's data array is the initiator's
    ++m_atomics[static_cast<size_t>(ext.op)];
    ext.performed = true;
}

void Vault::copy_data(tlm::tlm_generic_payload& trans) {
    if (trans.is_read())
        m_store.read(trans.get_address(), trans.get_data_ptr(), trans.get_data_length());
    else if (trans.is_write() && !trans.get_extension<CoherenceExtension>())
        m_store.write(trans.get_address(), trans.get_data_ptr(), trans.get_data_length());
    // A coherence write-back is timed only: memory already holds the line's
    // current value (the L1s keep no data, docs/coherence.md), and its copy
    // of the data was taken when the write-back left, so by now a newer
    // write may have overtaken it.
}

void Vault::perform(tlm::tlm_generic_payload& trans, AtomicExtension* atomic, bool is_write, unsigned len) {
    if (atomic) {
        // Reads and writes the row.
        count_access(false, len);
        count_access(true, len);
        perform_atomic(trans, *atomic);
    } else {
        count_access(is_write, len);
        copy_data(trans);
    }
}

void Vault::count_access(bool is_write, unsigned len) {
    if (is_write) {
        ++m_writes;
        m_bytes_written += len;
    } else {
        ++m_reads;
        m_bytes_read += len;
    }
}

// ---------------------------------------------------------------------------
// Service

sc_time Vault::serve_booked(tlm::tlm_generic_payload& trans, const sc_time& now, const sc_time& arrival) {
    AtomicExtension* atomic = trans.get_extension<AtomicExtension>();
    const bool is_write = trans.is_write();
    const unsigned len = trans.get_data_length();
    const unsigned bank = m_map.bank_of(trans.get_address());
    VaultBank& b = m_banks[bank];
    // Nothing can arrive before the current time: older bookings are dead.
    b.calendar.prune(now);
    const sc_time start = b.calendar.book(arrival, atomic ? atomic_bank_occupancy(len) : bank_occupancy(is_write, len));
    if (start > arrival) ++m_bank_conflicts[bank];
    b.open = false; // closed page: every access activates its row and precharges
    ++m_row_misses;
    const sc_time added = start + (atomic ? atomic_latency(len) : access_latency(is_write, len)) - arrival;
    count_completed(added);
    perform(trans, atomic, is_write, len);
    return added;
}

VaultRequest Vault::decode(tlm::tlm_generic_payload& trans, const sc_time& arrival) const {
    const uint64_t addr = trans.get_address();
    return {&trans,
            m_map.bank_of(addr),
            m_map.row_of(addr),
            trans.is_write(),
            trans.get_data_length(),
            arrival,
            trans.get_extension<AtomicExtension>()};
}

sc_time Vault::issue(const VaultRequest& q, const sc_time& now) {
    VaultBank& b = m_banks[q.bank];
    RowOutcome outcome;
    sc_time column; // column (READ/WRITE) command time
    if (b.row_hit(q.row)) {
        outcome = RowOutcome::hit;
        ++m_row_hits;
        column = now;
    } else if (b.open) {
        outcome = RowOutcome::conflict;
        ++m_row_conflicts;
        const sc_time pre = std::max(now, b.pre_ready); // tRAS / tWR of the open row
        b.activated = pre + t_rp();
        column = b.activated + t_rcd(q.is_write && !q.atomic);
    } else {
        outcome = RowOutcome::miss;
        ++m_row_misses;
        b.activated = now;
        column = now + t_rcd(q.is_write && !q.atomic);
    }
    // An atomic: READ at `column`, ALU, WRITE of the result; done once the
    // write data is in the bank, like a write.
    const sc_time done = column + (q.atomic ? atomic_column_latency(q.len) : column_latency(q.is_write, q.len));
    const sc_time to_pre = q.atomic ? atomic_column_to_precharge(q.len) : column_to_precharge(q.is_write, q.len);
    const sc_time pre_ready = std::max(b.activated + t_ras(), column + to_pre);
    // A hit keeps the constraints of the earlier accesses to the open row.
    b.pre_ready = outcome == RowOutcome::hit ? std::max(b.pre_ready, pre_ready) : pre_ready;
    // Open page: the next column command follows the data beats (for an
    // atomic, the write data: the bank serves nothing in between).
    const sc_time next_column = q.atomic ? done : column + burst_time(q.len);
    const sc_time free_at = m_page_policy->close(b, q.row, next_column);
    b.calendar.prune(now);
    b.calendar.book(now, free_at - now); // busy until it takes its next access

    if (now > q.arrival) ++m_bank_conflicts[q.bank];
    m_queueing += now - q.arrival;
    ++m_issued;
    // Performed now, in service order: concurrent atomics to one word
    // serialize on their bank.
    perform(*q.trans, q.atomic, q.is_write, q.len);
    q.trans->set_response_status(tlm::TLM_OK_RESPONSE);
    return done;
}

// ---------------------------------------------------------------------------
// Statistics

void Vault::count_completed(const sc_time& latency) {
    m_total_latency += latency;
    ++m_completed;
}

sc_time Vault::average_latency() const {
    return m_completed == 0 ? SC_ZERO_TIME : m_total_latency / static_cast<double>(m_completed);
}

sc_time Vault::average_queueing_delay() const {
    return m_issued == 0 ? SC_ZERO_TIME : m_queueing / static_cast<double>(m_issued);
}

uint64_t Vault::atomics() const {
    uint64_t sum = 0;
    for (uint64_t c : m_atomics) sum += c;
    return sum;
}

uint64_t Vault::bank_conflicts() const {
    uint64_t sum = 0;
    for (uint64_t c : m_bank_conflicts) sum += c;
    return sum;
}

void Vault::reset_stats() {
    m_reads = m_writes = m_bytes_read = m_bytes_written = m_errors = 0;
    m_atomics.fill(0);
    m_cas_failures = 0;
    m_completed = m_row_hits = m_row_misses = m_row_conflicts = m_issued = 0;
    m_total_latency = SC_ZERO_TIME;
    m_queueing = SC_ZERO_TIME;
    std::fill(m_bank_conflicts.begin(), m_bank_conflicts.end(), 0);
}

} // namespace syncron
