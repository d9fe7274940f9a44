#pragma once
// One vault controller of an HMC-like cube (docs/vault_controller.md): the
// TLM-2.0 target around a Vault (its function, banks, formulas, statistics).
//
// Loosely-timed shell (b_transport): the access is served at call time and
// its bank booked first fit at the effective time (sc_time_stamp() + delay);
// the latency and any bank wait are added to the delay, never waited for.
// Closed page whatever page_policy says.
//
// Approximately-timed shell (nb_transport_fw, 4-phase base protocol through
// the shared AtTargetPort): requests enter a queue of memory.queue_depth
// entries (END_REQ is withheld while it is full), the FR-FCFS scheduler
// issues them to free banks under the configured page policy, and the port
// sends the responses in completion order, one at a time.
//
// Both shells serve the same instance (a target offers both interfaces), on
// one bank state; the platform drives all vaults in one style.
#include <cstdint>
#include <unordered_map>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/memory/backing_store.h"
#include "models/memory/fr_fcfs_scheduler.h"
#include "models/memory/vault.h"
#include "models/tlm/at_target_port.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

class VaultController : public sc_core::sc_module, public Vault, public StatProvider {
public:
    tlm_utils::simple_target_socket<VaultController> socket;

    using RowOutcome = syncron::RowOutcome;

    /// `store` is the unit's memory, shared by the unit's vaults; it must
    /// outlive this module. `map` must outlive it as well.
    VaultController(const sc_core::sc_module_name& name, unsigned unit, unsigned vault, const MemoryParams& params,
                    const AddressMap& map, BackingStore& store);
    /// Attach a probe (before sc_start): AT queue depth changes; nullptr = off.
    void set_trace(TraceSink* sink) { m_trace = sink; }
    SC_HAS_PROCESS(VaultController);

    /// This module's group of statistics (docs/stats.md); in vault_controller_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;

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
    // LT shell and the untimed interfaces.
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);

    // AT shell: the port runs the handshake, the vault decides admission and timing.
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    /// BEGIN_REQ took effect: errors answer at once, a request is queued or withheld.
    void begin_req(tlm::tlm_generic_payload& trans);
    /// Put a validated request in the queue and send END_REQ.
    void accept(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrival);
    /// Issue queued requests to free banks (SC_METHOD).
    void scheduler();
    /// Accesses whose data is done are handed to the port (SC_METHOD).
    void on_done();
    /// BEGIN_RESP is about to leave: latency statistics of a timed access.
    void response_started(tlm::tlm_generic_payload& trans);

    AtTargetPort m_port;
    tlm_utils::peq_with_get<tlm::tlm_generic_payload> m_done;
    sc_core::sc_event m_kick; ///< re-run the scheduler
    FrFcfsScheduler m_queue;
    tlm::tlm_generic_payload* m_withheld = nullptr; ///< BEGIN_REQ without END_REQ (queue full)
    sc_core::sc_time m_withheld_arrival;
    /// Issued accesses until their BEGIN_RESP: their arrival (latency statistics).
    std::unordered_map<const tlm::tlm_generic_payload*, sc_core::sc_time> m_arrival;
    uint64_t m_backpressured = 0;
    unsigned m_max_occupancy = 0;
    TraceSink* m_trace = nullptr;
};

} // namespace syncron
