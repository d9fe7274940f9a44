#include "models/memory/vault_controller.h"

#include <algorithm>
#include <sstream>

namespace syncron {

using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
std::string hex(uint64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}
} // namespace

VaultController::VaultController(const sc_core::sc_module_name& name, unsigned unit, unsigned vault,
                                 const MemoryParams& params, const AddressMap& map,
                                 BackingStore& store)
    : sc_module(name),
      socket("socket"),
      m_unit(unit),
      m_vault(vault),
      m_params(params),
      m_map(map),
      m_store(store),
      m_banks(params.banks_per_vault),
      m_bank_conflicts(params.banks_per_vault, 0) {
    if (params.banks_per_vault == 0 || vault >= params.vaults_per_unit || unit >= map.units())
        SC_REPORT_ERROR(this->name(), "vault controller: unit/vault index or bank count out of range");
    socket.register_b_transport(this, &VaultController::b_transport);
    socket.register_transport_dbg(this, &VaultController::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &VaultController::get_direct_mem_ptr);
}

sc_time VaultController::access_latency(bool is_write, unsigned len) const {
    const double burst = m_params.t_burst_ns * bursts(len);
    return sc_time(m_params.t_rcd_ns + (is_write ? 0.0 : m_params.t_cl_ns) + burst, SC_NS);
}

sc_time VaultController::bank_occupancy(bool is_write, unsigned len) const {
    const double burst = m_params.t_burst_ns * bursts(len);
    if (is_write) // write recovery after the last data beat, then precharge
        return sc_time(m_params.t_rcd_ns + burst + m_params.t_wr_ns + m_params.t_rp_ns, SC_NS);
    // Precharge may start tRAS after activation, or once the last READ command
    // has issued (read-to-precharge taken as one burst, since tRTP is not a
    // parameter); data still drains tCL later, so tCL does not hold the bank.
    const double open = std::max(m_params.t_ras_ns, m_params.t_rcd_ns + burst);
    return sc_time(open + m_params.t_rp_ns, SC_NS);
}

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
        if (is_write) {
            ++m_writes;
            m_bytes_written += len;
        } else {
            ++m_reads;
            m_bytes_read += len;
        }
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
    dmi.allow_none();
    dmi.set_start_address(m_map.unit_base(m_unit));
    dmi.set_end_address(m_map.unit_base(m_unit) + m_map.unit_bytes() - 1);
    return false;
}

sc_time VaultController::average_latency() const {
    const uint64_t n = accesses();
    return n == 0 ? sc_core::SC_ZERO_TIME : m_total_latency / static_cast<double>(n);
}

uint64_t VaultController::bank_conflicts() const {
    uint64_t sum = 0;
    for (uint64_t c : m_bank_conflicts) sum += c;
    return sum;
}

void VaultController::reset_stats() {
    m_reads = m_writes = m_bytes_read = m_bytes_written = m_errors = 0;
    m_total_latency = sc_core::SC_ZERO_TIME;
    std::fill(m_bank_conflicts.begin(), m_bank_conflicts.end(), 0);
}

} // namespace syncron
