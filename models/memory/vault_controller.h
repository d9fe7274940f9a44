#pragma once
// One vault controller of an HMC-like cube (docs/vault_controller.md).
//
// Loosely-timed path (b_transport): adds the access latency and any bank
// queueing to the annotated delay and never waits. Closed-page timing: every
// access activates its row and the bank precharges right after. Contention is
// a per-bank ResourceTimeline booked at the request's effective time
// (sc_time_stamp() + delay), first fit, so temporally decoupled initiators do
// not queue behind each other's future bookings. LT ignores page_policy.
//
// Approximately-timed path (nb_transport_fw, 4-phase base protocol): requests
// enter a queue of memory.queue_depth entries (END_REQ is withheld while it is
// full), an FR-FCFS scheduler issues them to free banks (row hits first, then
// the oldest), each bank keeps its row state under the closed- or open-page
// policy, and the response is BEGIN_RESP on the backward path.
//
// Atomics (a TLM_WRITE_COMMAND with an AtomicExtension, scheme
// remote_atomics): the read-modify-write is done by the vault at service time
// (LT: at the call; AT: when issued to its bank), as one access that reads the
// row, runs the ALU and writes the row back; the data buffer returns the old
// value. Never through transport_dbg or DMI.
//
// The bank timing formulas are side-effect-free helpers shared by both paths.
// The two paths keep separate bank state: drive one vault in one style at a
// time (the platform does).
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/tlm/trace_sink.h"
#include "models/tlm/resource_timeline.h"
#include "models/protocol/tlm/atomic_extension.h"
#include "models/memory/backing_store.h"

namespace syncron {

class VaultController : public sc_core::sc_module, public StatProvider {
public:
    tlm_utils::simple_target_socket<VaultController> socket;

    /// When an access occupies its bank and when its data transfer completes
    /// (both absolute simulation times).
    struct Schedule {
        sc_core::sc_time start;
        sc_core::sc_time done;
    };

    /// State of the addressed row when an access is issued to its bank.
    enum class RowOutcome {
        hit,      ///< the row is open (open-page policy only)
        miss,     ///< the bank is precharged: activate first
        conflict, ///< another row is open: precharge, then activate
    };

    /// `store` is the unit's memory, shared by the unit's vaults; it must
    /// outlive this module. `map` must outlive it as well.
    VaultController(const sc_core::sc_module_name& name, unsigned unit, unsigned vault,
                    const MemoryParams& params, const AddressMap& map, BackingStore& store);
    /// Attach a probe (before sc_start): AT queue depth changes; nullptr = off.
    void set_trace(TraceSink* sink) { m_trace = sink; }
    SC_HAS_PROCESS(VaultController);

    unsigned unit() const { return m_unit; }
    unsigned vault() const { return m_vault; }
    const MemoryParams& params() const { return m_params; }
    /// page_policy == "open" (used by the AT path only).
    bool open_page() const { return m_open_page; }

    // Timing helpers (no side effects), shared by the LT and AT paths.
    /// 64 B bursts needed for len bytes (at least one).
    static unsigned bursts(unsigned len) { return len == 0 ? 1u : (len + 63u) / 64u; }
    /// Column command to last data: read tCL + bursts*tBurst, write
    /// bursts*tBurst (a write is answered once its data is in the bank).
    sc_core::sc_time column_latency(bool is_write, unsigned len) const;
    /// Column command to the earliest precharge of the bank: read
    /// bursts*tBurst (read-to-precharge, no tRTP parameter), write
    /// bursts*tBurst + tWR (write recovery).
    sc_core::sc_time column_to_precharge(bool is_write, unsigned len) const;
    /// Command-to-last-data latency on a free bank, by row state:
    /// hit = column_latency, miss = tRCD + column_latency,
    /// conflict = tRP + tRCD + column_latency.
    sc_core::sc_time row_latency(RowOutcome outcome, bool is_write, unsigned len) const;
    /// Closed page (a miss on a precharged bank): tRCD + tCL + bursts*tBurst
    /// for reads, tRCD + bursts*tBurst for writes.
    sc_core::sc_time access_latency(bool is_write, unsigned len) const;
    /// Closed page: how long the bank stays unavailable after the activate:
    /// max(tRAS, tRCD + column_to_precharge) + tRP.
    sc_core::sc_time bank_occupancy(bool is_write, unsigned len) const;

    // Atomic timing (no side effects): one access that reads the row, runs the
    // ALU (t_alu) and writes the row back; the write data depends on the read
    // data, so tCL is on the bank's critical path.
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

    /// LT: end of the last booking of `bank` (it may still have earlier gaps).
    sc_core::sc_time bank_busy_until(unsigned bank) const { return m_banks.at(bank).busy_until(); }
    const ResourceTimeline& bank_timeline(unsigned bank) const { return m_banks.at(bank); }
    /// AT: time from which `bank` accepts its next access.
    sc_core::sc_time at_bank_free_at(unsigned bank) const { return m_at_banks.at(bank).free_at; }
    /// AT: whether `bank` has a row open (always false under the closed-page policy).
    bool at_row_open(unsigned bank) const { return m_at_banks.at(bank).open; }

    // Statistics (both paths unless marked). An atomic counts as one read and
    // one write of its length (it reads and writes the row) in reads(),
    // writes(), accesses() and the byte counts, as one row outcome and as one
    // completed transaction in the latency statistics.
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
    /// This module's group of statistics (docs/stats.md); in vault_controller_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    /// Accesses that found their bank busy at their arrival and had to wait
    /// (AT: service started after arrival).
    uint64_t bank_conflicts(unsigned bank) const { return m_bank_conflicts.at(bank); }
    uint64_t bank_conflicts() const;
    /// Row buffer outcomes (LT: every access is a miss, closed page).
    uint64_t row_hits() const { return m_row_hits; }
    uint64_t row_misses() const { return m_row_misses; }
    uint64_t row_conflicts() const { return m_row_conflicts; }
    /// AT: sum over accesses of the time from arrival (BEGIN_REQ) to service
    /// start (issue to the bank), and its average.
    const sc_core::sc_time& queueing_delay() const { return m_queueing; }
    sc_core::sc_time average_queueing_delay() const;
    /// AT: largest number of requests waiting in the queue at one time.
    unsigned max_queue_occupancy() const { return m_max_occupancy; }
    /// AT: requests in the queue now (accepted, not yet issued).
    unsigned queue_occupancy() const { return static_cast<unsigned>(m_queue.size()); }
    /// AT: requests whose END_REQ was withheld because the queue was full.
    uint64_t backpressured() const { return m_backpressured; }
    /// Atomics performed, of one operation / in all (errors not counted).
    uint64_t atomics(AtomicOp op) const { return m_atomics.at(static_cast<size_t>(op)); }
    uint64_t atomics() const;
    /// cas performed whose compare did not match (memory left unchanged).
    uint64_t cas_failures() const { return m_cas_failures; }
    /// Requests rejected with an error response (address, byte enable, burst,
    /// malformed atomic).
    uint64_t errors() const { return m_errors; }
    void reset_stats();

private:
    /// AT row and timing state of one bank.
    struct BankState {
        bool open = false;
        uint64_t row = 0;
        sc_core::sc_time activated; ///< last activate
        sc_core::sc_time pre_ready; ///< earliest precharge (tRAS, read-to-precharge, tWR)
        sc_core::sc_time free_at;   ///< next access may be issued
    };
    /// An accepted AT request waiting for its bank.
    struct Queued {
        tlm::tlm_generic_payload* trans;
        unsigned bank;
        uint64_t row;
        bool is_write;
        unsigned len;
        sc_core::sc_time arrival;
        AtomicExtension* atomic; ///< nullptr for a plain read/write
    };
    /// An AT transaction waiting for (or in) its response phase.
    struct Response {
        tlm::tlm_generic_payload* trans;
        sc_core::sc_time arrival;
        bool timed; ///< counts in the latency statistics
    };

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);

    /// TLM_OK_RESPONSE if this vault can serve the payload, else the error to return.
    tlm::tlm_response_status check(const tlm::tlm_generic_payload& trans, bool warn) const;
    /// The rules an atomic must also meet (after check()): write command,
    /// known op, 4 or 8 bytes, naturally aligned.
    tlm::tlm_response_status check_atomic(const tlm::tlm_generic_payload& trans, const AtomicExtension& ext,
                                          bool warn) const;
    /// check(), then check_atomic() if the payload carries an AtomicExtension.
    tlm::tlm_response_status validate(const tlm::tlm_generic_payload& trans, bool warn) const;
    /// LT: book the bank for an access arriving at `arrival` (first fit);
    /// updates bank state and conflict statistics.
    Schedule schedule(unsigned bank, bool is_write, unsigned len, const sc_core::sc_time& arrival);
    /// LT: book `occupancy` of the bank at or after `arrival` (first fit); the
    /// data is done `latency` after the start.
    Schedule book(unsigned bank, const sc_core::sc_time& occupancy, const sc_core::sc_time& latency,
                  const sc_core::sc_time& arrival);
    /// Move the data between the payload and the backing store.
    void copy_data(tlm::tlm_generic_payload& trans);
    /// The read-modify-write on the backing store, now; the payload's data
    /// gets the old value; statistics of the operation.
    void perform_atomic(tlm::tlm_generic_payload& trans, AtomicExtension& ext);
    void count_access(bool is_write, unsigned len);

    // AT path.
    /// Phases taking effect (BEGIN_REQ, END_RESP) at their annotated time.
    void peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);
    void begin_req(tlm::tlm_generic_payload& trans);
    /// Put a validated request in the queue and send END_REQ.
    void accept(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrival);
    void send_end_req(tlm::tlm_generic_payload& trans);
    /// FR-FCFS: issue queued requests to free banks (SC_METHOD).
    void scheduler();
    /// Issue one queued request now: row state, timing, data, statistics.
    void issue(const Queued& q);
    /// Accesses whose data is done enter the response queue (SC_METHOD).
    void on_done();
    /// BEGIN_RESP for queued responses while the initiator completes them.
    void send_responses();
    void end_resp(tlm::tlm_generic_payload& trans);

    unsigned m_unit;
    unsigned m_vault;
    MemoryParams m_params;
    bool m_open_page = false;
    const AddressMap& m_map;
    BackingStore& m_store;

    std::vector<ResourceTimeline> m_banks;  // LT
    std::vector<BankState> m_at_banks;      // AT

    tlm_utils::peq_with_cb_and_phase<VaultController> m_peq;
    tlm_utils::peq_with_get<tlm::tlm_generic_payload> m_done;
    sc_core::sc_event m_kick; ///< re-run the scheduler
    std::vector<Queued> m_queue; ///< in arrival order (oldest first)
    tlm::tlm_generic_payload* m_withheld = nullptr; ///< BEGIN_REQ without END_REQ (queue full)
    sc_core::sc_time m_withheld_arrival;
    std::deque<Response> m_responses; ///< ready, in completion order
    std::vector<Response> m_in_service; ///< issued, data not done yet
    tlm::tlm_generic_payload* m_resp_open = nullptr; ///< BEGIN_RESP sent, END_RESP awaited

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
    uint64_t m_backpressured = 0;
    unsigned m_max_occupancy = 0;
    sc_core::sc_time m_total_latency;
    sc_core::sc_time m_queueing;
    TraceSink* m_trace = nullptr;
};

} // namespace syncron
