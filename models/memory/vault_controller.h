#pragma once
// One vault controller of an HMC-like cube (docs/vault_controller.md): the
// TLM-2.0 target around a Vault (its function, banks, formulas, statistics).
//
// Loosely-timed shell (b_transport): the access is served at call time and
// its bank booked first fit at the effective time (sc_time_stamp() + delay);
// the latency and any bank wait are added to the delay, never waited for.
// Closed page whatever page_policy says.
//
// Approximately-timed shell (nb_transport_fw, 4-phase base protocol):
// requests enter a queue of memory.queue_depth entries (END_REQ is withheld
// while it is full), the FR-FCFS scheduler issues them to free banks under
// the configured page policy, and the response is BEGIN_RESP on the backward
// path, one at a time.
//
// Both shells serve the same instance (a target offers both interfaces), on
// one bank state; the platform drives all vaults in one style.
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
#include "models/memory/backing_store.h"
#include "models/memory/fr_fcfs_scheduler.h"
#include "models/memory/vault.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

class VaultController : public sc_core::sc_module, public Vault {
public:
    tlm_utils::simple_target_socket<VaultController> socket;

    using RowOutcome = syncron::RowOutcome;

    /// `store` is the unit's memory, shared by the unit's vaults; it must
    /// outlive this module. `map` must outlive it as well.
    VaultController(const sc_core::sc_module_name& name, unsigned unit, unsigned vault,
                    const MemoryParams& params, const AddressMap& map, BackingStore& store);
    /// Attach a probe (before sc_start): AT queue depth changes; nullptr = off.
    void set_trace(TraceSink* sink) { m_trace = sink; }
    SC_HAS_PROCESS(VaultController);

    // AT queue statistics (the others are the Vault's).
    /// AT: largest number of requests waiting in the queue at one time.
    unsigned max_queue_occupancy() const { return m_max_occupancy; }
    /// AT: requests in the queue now (accepted, not yet issued).
    unsigned queue_occupancy() const { return static_cast<unsigned>(m_queue.size()); }
    /// AT: requests whose END_REQ was withheld because the queue was full.
    uint64_t backpressured() const { return m_backpressured; }
    /// Zero the counters (bank bookings and row state are kept;
    /// max_queue_occupancy restarts from the current occupancy).
    void reset_stats() override;

private:
    /// An AT transaction waiting for (or in) its response phase.
    struct Response {
        tlm::tlm_generic_payload* trans;
        sc_core::sc_time arrival;
        bool timed; ///< counts in the latency statistics
    };

    // LT shell and the untimed interfaces.
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);

    // AT shell.
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    /// Phases taking effect (BEGIN_REQ, END_RESP) at their annotated time.
    void peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);
    void begin_req(tlm::tlm_generic_payload& trans);
    /// Put a validated request in the queue and send END_REQ.
    void accept(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrival);
    void send_end_req(tlm::tlm_generic_payload& trans);
    /// Issue queued requests to free banks (SC_METHOD).
    void scheduler();
    /// Accesses whose data is done enter the response queue (SC_METHOD).
    void on_done();
    /// BEGIN_RESP for queued responses while the initiator completes them.
    void send_responses();
    void end_resp(tlm::tlm_generic_payload& trans);

    tlm_utils::peq_with_cb_and_phase<VaultController> m_peq;
    tlm_utils::peq_with_get<tlm::tlm_generic_payload> m_done;
    sc_core::sc_event m_kick; ///< re-run the scheduler
    FrFcfsScheduler m_queue;
    tlm::tlm_generic_payload* m_withheld = nullptr; ///< BEGIN_REQ without END_REQ (queue full)
    sc_core::sc_time m_withheld_arrival;
    std::deque<Response> m_responses; ///< ready, in completion order
    std::vector<Response> m_in_service; ///< issued, data not done yet
    tlm::tlm_generic_payload* m_resp_open = nullptr; ///< BEGIN_RESP sent, END_RESP awaited
    uint64_t m_backpressured = 0;
    unsigned m_max_occupancy = 0;
    TraceSink* m_trace = nullptr;
};

} // namespace syncron
