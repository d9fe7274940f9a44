#pragma once
// The function of one vault, apart from its timing style (the Accellera
// examples' memory.h, used by their LT and AT targets): address and atomic
// checks, data on the BackingStore, the read-modify-write unit, the banks
// (one state for both styles, see vault_bank.h), the latency formulas it
// inherits from VaultTiming, the page policy and the statistics. No process,
// no socket, no wait: VaultController wraps it in its LT and AT shells.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/memory/backing_store.h"
#include "models/memory/vault_bank.h"
#include "models/memory/vault_page_policy.h"
#include "models/memory/vault_request.h"
#include "models/memory/vault_timing.h"
#include "models/protocol/tlm/atomic_extension.h"

namespace syncron {

class Vault : public VaultTiming {
public:
    /// `name` heads the warnings. `store` is the unit's memory, shared by the
    /// unit's vaults; `map` and `store` must outlive the vault.
    Vault(std::string name, unsigned unit, unsigned vault, const MemoryParams& params, const AddressMap& map,
          BackingStore& store);
    Vault(const Vault&) = delete;
    Vault& operator=(const Vault&) = delete;
    virtual ~Vault() = default;

    unsigned unit() const { return m_unit; }
    unsigned vault() const { return m_vault; }
    /// page_policy == PagePolicy::open (used by the AT path only).
    bool open_page() const { return params().page_policy == PagePolicy::open; }

    // Function.
    /// TLM_OK_RESPONSE if this vault can serve the payload, else the error to
    /// return: the address and access checks, then those of an atomic.
    tlm::tlm_response_status validate(const tlm::tlm_generic_payload& trans, bool warn) const;
    /// Debug access: data only, no timing, no bank state, no statistics; no atomics.
    unsigned debug_transport(tlm::tlm_generic_payload& trans);
    /// No DMI: denies the whole unit range.
    void deny_dmi(tlm::tlm_dmi& dmi) const;

    // Service (the payload is validated, a read, write or atomic).
    /// Closed page at an effective time, for initiators that reach the vault
    /// out of time order (LT): book the bank first fit at `arrival`, perform
    /// the access now; returns arrival to data done.
    /// `now` is the current time (no arrival can be earlier: older bookings are dropped).
    sc_core::sc_time serve_booked(tlm::tlm_generic_payload& trans, const sc_core::sc_time& now,
                                  const sc_core::sc_time& arrival);
    /// The request of a payload arriving at `arrival`.
    VaultRequest decode(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrival) const;
    /// Issue a request to its free bank at `now` (AT, time order): row
    /// outcome, page policy, perform the access; returns when its data is done.
    sc_core::sc_time issue(const VaultRequest& q, const sc_core::sc_time& now);
    const std::vector<VaultBank>& banks() const { return m_banks; }

    /// LT: end of the last booking of `bank` (it may still have earlier gaps).
    sc_core::sc_time bank_busy_until(unsigned bank) const { return m_banks.at(bank).calendar.busy_until(); }
    const ResourceTimeline& bank_timeline(unsigned bank) const { return m_banks.at(bank).calendar; }
    /// AT: time from which `bank` accepts its next access.
    sc_core::sc_time at_bank_free_at(unsigned bank) const { return m_banks.at(bank).free_at(); }
    /// AT: whether `bank` has a row open (always false under the closed-page policy).
    bool at_row_open(unsigned bank) const { return m_banks.at(bank).open; }

    // Statistics (both styles unless marked). An atomic counts as one read and
    // one write of its length (it reads and writes the row) in reads(),
    // writes(), accesses() and the byte counts, as one row outcome and as one
    // completed transaction in the latency statistics.
    /// A request rejected with an error response.
    void count_error() { ++m_errors; }
    /// A timed access completed `latency` after its arrival.
    void count_completed(const sc_core::sc_time& latency);
    uint64_t reads() const { return m_reads; }
    uint64_t writes() const { return m_writes; }
    uint64_t accesses() const { return m_reads + m_writes; }
    uint64_t bytes() const { return m_bytes_read + m_bytes_written; }
    uint64_t bytes_read() const { return m_bytes_read; }
    uint64_t bytes_written() const { return m_bytes_written; }
    /// Sum over completed accesses of arrival-to-data latency: LT the delay
    /// added (bank queueing + access latency), AT BEGIN_REQ to BEGIN_RESP.
    const sc_core::sc_time& total_latency() const { return m_total_latency; }
    /// total_latency() / completed accesses (zero if none).
    sc_core::sc_time average_latency() const;
    /// Accesses that found their bank busy at their arrival and had to wait
    /// (AT: service started after arrival).
    uint64_t bank_conflicts(unsigned bank) const { return m_bank_conflicts.at(bank); }
    uint64_t bank_conflicts() const;
    /// Row buffer outcomes (LT: every access is a miss, closed page).
    uint64_t row_hits() const { return m_row_hits; }
    uint64_t row_misses() const { return m_row_misses; }
    uint64_t row_conflicts() const { return m_row_conflicts; }
    /// Row activations: every miss and every conflict opens a row.
    uint64_t activations() const { return m_row_misses + m_row_conflicts; }
    /// AT: sum over accesses of the time from arrival (BEGIN_REQ) to service
    /// start (issue to the bank), and its average.
    const sc_core::sc_time& queueing_delay() const { return m_queueing; }
    sc_core::sc_time average_queueing_delay() const;
    /// Atomics performed, of one operation / in all (errors not counted).
    uint64_t atomics(AtomicOp op) const { return m_atomics.at(static_cast<size_t>(op)); }
    uint64_t atomics() const;
    /// cas performed whose compare did not match (memory left unchanged).
    uint64_t cas_failures() const { return m_cas_failures; }
    /// Requests rejected with an error response (address, byte enable, burst,
    /// malformed atomic).
    uint64_t errors() const { return m_errors; }
    /// Zero the counters (bank bookings and row state are kept).
    virtual void reset_stats();

private:
    tlm::tlm_response_status check(const tlm::tlm_generic_payload& trans, bool warn) const;
    /// The rules an atomic must also meet (after check()): write command,
    /// known op, 4 or 8 bytes, naturally aligned.
    tlm::tlm_response_status check_atomic(const tlm::tlm_generic_payload& trans, const AtomicExtension& ext,
                                          bool warn) const;
    /// Move the data between the payload and the backing store.
    void copy_data(tlm::tlm_generic_payload& trans);
    /// The read, write or read-modify-write on the backing store, now, with
    /// its access counts.
    void perform(tlm::tlm_generic_payload& trans, AtomicExtension* atomic, bool is_write, unsigned len);
    /// The read-modify-write; the payload's data gets the old value.
    void perform_atomic(tlm::tlm_generic_payload& trans, AtomicExtension& ext);
    void count_access(bool is_write, unsigned len);

    std::string m_name;
    unsigned m_unit;
    unsigned m_vault;
    const AddressMap& m_map;
    BackingStore& m_store;
    std::vector<VaultBank> m_banks;
    std::unique_ptr<VaultPagePolicy> m_page_policy;

    std::vector<uint64_t> m_bank_conflicts;
    uint64_t m_reads = 0;
    uint64_t m_writes = 0;
    uint64_t m_bytes_read = 0;
    uint64_t m_bytes_written = 0;
    uint64_t m_errors = 0;
    std::array<uint64_t, 3> m_atomics{}; ///< by AtomicOp
    uint64_t m_cas_failures = 0;
    uint64_t m_completed = 0; ///< accesses in total_latency
    uint64_t m_row_hits = 0;
    uint64_t m_row_misses = 0;
    uint64_t m_row_conflicts = 0;
    uint64_t m_issued = 0; ///< AT accesses in queueing_delay
    sc_core::sc_time m_total_latency;
    sc_core::sc_time m_queueing;
};

} // namespace syncron
