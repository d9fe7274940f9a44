#pragma once
// The vault's latency formulas (docs/vault_controller.md, "Timing helpers"):
// side-effect-free functions of MemoryParams, shared by the LT booking and the
// AT row-state machine, and public so tests compute their expectations.
#include <array>
#include <cstddef>

#include <systemc>

#include "models/common/params.h"

namespace syncron {

/// State of the addressed row when an access is issued to its bank.
enum class RowOutcome {
    hit,      ///< the row is open (open-page policy only)
    miss,     ///< the bank is precharged: activate first
    conflict, ///< another row is open: precharge, then activate
};

class VaultTiming {
public:
    explicit VaultTiming(const MemoryParams& params) : m_params(params) {}

    const MemoryParams& params() const { return m_params; }

    /// 64 B bursts needed for len bytes (at least one).
    static unsigned bursts(unsigned len) { return len == 0 ? 1u : (len + 63u) / 64u; }
    /// bursts(len) * tBurst: the data beats on the bank's data path.
    sc_core::sc_time burst_time(unsigned len) const;
    /// Activate to the column command: tRCD for a READ, tRCD_write for a WRITE.
    sc_core::sc_time t_rcd(bool is_write) const;
    sc_core::sc_time t_ras() const;
    sc_core::sc_time t_rp() const;

    /// Column command to last data: read tCL + bursts*tBurst, write
    /// tCWL + bursts*tBurst (a write is answered once its data is in the bank).
    sc_core::sc_time column_latency(bool is_write, unsigned len) const;
    /// Column command to the earliest precharge of the bank: read
    /// bursts*tBurst (read-to-precharge, no tRTP parameter), write
    /// tCWL + bursts*tBurst + tWR (write recovery).
    sc_core::sc_time column_to_precharge(bool is_write, unsigned len) const;
    /// Command-to-last-data latency on a free bank, by row state:
    /// hit = column_latency, miss = tRCD + column_latency,
    /// conflict = tRP + tRCD + column_latency.
    sc_core::sc_time row_latency(RowOutcome outcome, bool is_write, unsigned len) const;
    /// Closed page (a miss on a precharged bank): tRCD + tCL + bursts*tBurst
    /// for reads, tRCD_write + tCWL + bursts*tBurst for writes.
    sc_core::sc_time access_latency(bool is_write, unsigned len) const;
    /// Closed page: how long the bank stays unavailable after the activate:
    /// max(tRAS, tRCD (of the command) + column_to_precharge) + tRP.
    sc_core::sc_time bank_occupancy(bool is_write, unsigned len) const;

    // Atomics: one access that reads the row, runs the ALU (t_alu) and writes
    // the row back; the write data depends on the read data, so tCL is on the
    // bank's critical path.
    /// Read column command to the last write data in the bank:
    /// tCL + bursts*tBurst + t_alu + bursts*tBurst.
    sc_core::sc_time atomic_column_latency(unsigned len) const;
    /// Read column command to the earliest precharge: atomic_column_latency + tWR.
    sc_core::sc_time atomic_column_to_precharge(unsigned len) const;
    /// Command-to-last-write-data latency on a free bank, by row state:
    /// hit = atomic_column_latency, miss = tRCD + atomic_column_latency,
    /// conflict = tRP + tRCD + atomic_column_latency.
    sc_core::sc_time atomic_row_latency(RowOutcome outcome, unsigned len) const;
    /// Closed page: tRCD + tCL + bursts*tBurst + t_alu + bursts*tBurst.
    sc_core::sc_time atomic_latency(unsigned len) const;
    /// Closed page: max(tRAS, tRCD + atomic_column_to_precharge) + tRP.
    sc_core::sc_time atomic_bank_occupancy(unsigned len) const;

private:
    /// The row part of a latency: hit nothing, miss tRCD, conflict tRP + tRCD.
    sc_core::sc_time row_part(RowOutcome outcome, bool is_write, const sc_core::sc_time& column) const;
    /// max(tRAS, tRCD + to_precharge) + tRP.
    sc_core::sc_time closed_occupancy(bool is_write, const sc_core::sc_time& to_precharge) const;
    double rcd_ns(bool is_write) const;
    sc_core::sc_time compute_access_latency(bool is_write, unsigned len) const;
    sc_core::sc_time compute_bank_occupancy(bool is_write, unsigned len) const;

    MemoryParams m_params;
    // access_latency and bank_occupancy are asked per access: each value is
    // computed once per (write, length) up to kMemoBytes (same value, no sc_time
    // built from doubles per access).
    static constexpr std::size_t kMemoBytes = 64;
    struct Memo {
        sc_core::sc_time value;
        bool set = false;
    };
    mutable std::array<Memo, 2 * (kMemoBytes + 1)> m_latency_memo{};
    mutable std::array<Memo, 2 * (kMemoBytes + 1)> m_occupancy_memo{};
};

} // namespace syncron
