#include "models/memory/vault_timing.h"

#include <algorithm>

namespace syncron {

using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
sc_time ns(double v) { return sc_time(v, SC_NS); }
} // namespace

sc_time VaultTiming::burst_time(unsigned len) const { return ns(m_params.t_burst_ns * bursts(len)); }
sc_time VaultTiming::t_rcd(bool is_write) const { return ns(rcd_ns(is_write)); }
sc_time VaultTiming::t_ras() const { return ns(m_params.t_ras_ns); }
sc_time VaultTiming::t_rp() const { return ns(m_params.t_rp_ns); }

sc_time VaultTiming::column_latency(bool is_write, unsigned len) const {
    const double burst = m_params.t_burst_ns * bursts(len);
    return ns((is_write ? m_params.t_cwl_ns : m_params.t_cl_ns) + burst);
}

sc_time VaultTiming::column_to_precharge(bool is_write, unsigned len) const {
    // Reads: precharge may follow once the last READ command has issued, i.e.
    // after the bursts (read-to-precharge taken as one burst, since tRTP is not
    // a parameter); data drains tCL later, so tCL does not hold the bank.
    // Writes: write recovery tWR after the last data beat, which comes tCWL
    // after the command.
    const double burst = m_params.t_burst_ns * bursts(len);
    return ns(burst + (is_write ? m_params.t_cwl_ns + m_params.t_wr_ns : 0.0));
}

double VaultTiming::rcd_ns(bool is_write) const { return is_write ? m_params.rcd_write_ns() : m_params.t_rcd_ns; }

sc_time VaultTiming::row_part(RowOutcome outcome, bool is_write, const sc_time& column) const {
    switch (outcome) {
    case RowOutcome::hit: return column;
    case RowOutcome::miss: return ns(rcd_ns(is_write)) + column;
    case RowOutcome::conflict: return ns(m_params.t_rp_ns + rcd_ns(is_write)) + column;
    }
    return column;
}

sc_time VaultTiming::closed_occupancy(bool is_write, const sc_time& to_precharge) const {
    return std::max(ns(m_params.t_ras_ns), ns(rcd_ns(is_write)) + to_precharge) + ns(m_params.t_rp_ns);
}

sc_time VaultTiming::row_latency(RowOutcome outcome, bool is_write, unsigned len) const {
    return row_part(outcome, is_write, column_latency(is_write, len));
}

sc_time VaultTiming::access_latency(bool is_write, unsigned len) const {
    if (len > kMemoBytes) return compute_access_latency(is_write, len);
    Memo& m = m_latency_memo[(is_write ? kMemoBytes + 1 : 0) + len];
    if (!m.set) m = {compute_access_latency(is_write, len), true};
    return m.value;
}

sc_time VaultTiming::bank_occupancy(bool is_write, unsigned len) const {
    if (len > kMemoBytes) return compute_bank_occupancy(is_write, len);
    Memo& m = m_occupancy_memo[(is_write ? kMemoBytes + 1 : 0) + len];
    if (!m.set) m = {compute_bank_occupancy(is_write, len), true};
    return m.value;
}

sc_time VaultTiming::compute_access_latency(bool is_write, unsigned len) const {
    return row_latency(RowOutcome::miss, is_write, len);
}

sc_time VaultTiming::compute_bank_occupancy(bool is_write, unsigned len) const {
    return closed_occupancy(is_write, column_to_precharge(is_write, len));
}

sc_time VaultTiming::atomic_column_latency(unsigned len) const {
    // READ (tCL, then the data bursts), ALU, WRITE of the result (its bursts).
    const double burst = m_params.t_burst_ns * bursts(len);
    return ns(m_params.t_cl_ns + burst + m_params.t_alu_ns + burst);
}

sc_time VaultTiming::atomic_column_to_precharge(unsigned len) const {
    return atomic_column_latency(len) + ns(m_params.t_wr_ns); // write recovery after the last write data
}

sc_time VaultTiming::atomic_row_latency(RowOutcome outcome, unsigned len) const {
    return row_part(outcome, false, atomic_column_latency(len)); // READ first: the read tRCD
}

sc_time VaultTiming::atomic_latency(unsigned len) const { return atomic_row_latency(RowOutcome::miss, len); }

sc_time VaultTiming::atomic_bank_occupancy(unsigned len) const {
    return closed_occupancy(false, atomic_column_to_precharge(len));
}

} // namespace syncron
