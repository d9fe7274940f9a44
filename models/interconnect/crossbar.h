#pragma once
// Buffered crossbar joining the cores, SE, vaults and link ports of one unit
// (docs/crossbar.md). Both timing styles on the same instance, as thin shells
// around CrossbarTiming (routing, hop latency, port timelines); the AT shell's
// 4-phase handshake is the AT engine's (AtTargetPort on `in`, AtInitiatorPort
// on `out`, docs/timing.md):
//
// Loosely-timed: b_transport adds the arbiter and hop cycles plus the wait for
// the output port to the delay, then forwards the payload unchanged
// (addresses are global, no translation). Each output port is a
// ResourceTimeline occupied ceil(bytes/flit) cycles per transfer, booked first
// fit so temporally decoupled initiators do not queue behind each other's
// future bookings.
//
// Approximately-timed (4-phase nb_transport, docs/timing.md): every output
// port has a FIFO request queue of XbarParams::queue_depth entries. A
// BEGIN_REQ is accepted (END_REQ) while its output queue has room, otherwise
// END_REQ is withheld until a slot frees (back-pressure). Each output forwards
// one request at a time downstream, in FIFO order: a request leaves the queue
// (BEGIN_REQ downstream) at max(accepted + hop latency, port free, previous
// request accepted downstream), and holds the port for its flits, as in LT.
// Responses go back to the input the request came from after the hop
// latency; the crossbar answers the downstream BEGIN_RESP with TLM_COMPLETED
// at once and buffers the response per input until that input's previous
// response has completed (response exclusion).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_cb_and_phase.h> // defines SC_INCLUDE_DYNAMIC_PROCESSES (sc_spawn)

#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/interconnect/crossbar_timing.h"
#include "models/interconnect/router.h"
#include "models/tlm/at_initiator_port.h"
#include "models/tlm/at_target_port.h"
#include "models/tlm/resource_timeline.h"

namespace syncron {

class Crossbar : public sc_core::sc_module, public StatProvider {
public:
    tlm_utils::multi_passthrough_target_socket<Crossbar> in;
    tlm_utils::multi_passthrough_initiator_socket<Crossbar> out;

    using Schedule = CrossbarTiming::Schedule;

    /// The router may be given here or later with set_router(), before sc_start.
    /// It is not owned and must outlive the crossbar.
    Crossbar(const sc_core::sc_module_name& name, const XbarParams& params, const Router* router = nullptr);

    void set_router(const Router* router) { m_timing.set_router(router); }
    const XbarParams& params() const { return m_timing.params(); }
    /// The function and timing the LT shell books through (the LT direct path books the same).
    CrossbarTiming& timing() { return m_timing; }

    // Timing helpers (no side effects).
    sc_core::sc_time cycle() const { return m_timing.cycle(); }
    /// Fixed per-transfer latency: (arbiter_cycles + hop_cycles) cycles.
    sc_core::sc_time hop_latency() const { return m_timing.hop_latency(); }
    /// Flits a transfer of `bytes` occupies an output port (at least one).
    unsigned flits(unsigned bytes) const { return m_timing.flits(bytes); }
    /// End of the last booking of output `port`.
    sc_core::sc_time port_busy_until(unsigned port) const { return port_timeline(port).busy_until(); }
    const ResourceTimeline& port_timeline(unsigned port) const { return m_timing.port_timeline(port); }

    // Statistics (per output port after elaboration).
    unsigned num_ports() const { return m_timing.num_ports(); }
    uint64_t transfers(unsigned port) const { return m_timing.transfers(port); }
    uint64_t bytes(unsigned port) const { return m_timing.bytes(port); }
    uint64_t total_transfers() const { return m_timing.total_transfers(); }
    uint64_t total_bytes() const { return m_timing.total_bytes(); }
    uint64_t sync_bytes() const { return m_timing.sync_bytes(); }
    /// This module's group of statistics (docs/stats.md); in crossbar_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    /// Sum over transfers of the time spent waiting: LT, for a busy output
    /// port (start - arrival); AT, in the output queue beyond the hop latency
    /// (BEGIN_REQ downstream - (END_REQ upstream + hop latency)), which covers
    /// the port and the downstream's END_REQ.
    const sc_core::sc_time& total_queueing_delay() const { return m_timing.total_queueing_delay(); }
    /// The same, per output port.
    const sc_core::sc_time& queueing_delay(unsigned port) const { return m_timing.queueing_delay(port); }
    /// AT: requests in the output queue of `port` now (accepted from an input,
    /// not yet accepted by the downstream target), at most params().queue_depth.
    std::size_t queue_occupancy(unsigned port) const { return m_at_out.at(port).queue.size(); }
    /// AT: the largest queue_occupancy(port) seen since the last reset_stats().
    std::size_t max_queue_occupancy(unsigned port) const { return m_at_out.at(port).max_occupancy; }
    /// AT: BEGIN_REQs for `port` whose END_REQ was withheld because its queue was full.
    uint64_t withheld(unsigned port) const { return m_at_out.at(port).withheld; }
    /// Transfers rejected because no port serves their address.
    uint64_t unrouted() const { return m_timing.unrouted(); }
    /// AT: transactions in flight (from BEGIN_REQ to their completed response).
    std::size_t at_in_flight() const { return m_in_port.in_flight(); }
    /// Zero the counters (port bookings kept; the maximum occupancies restart
    /// from the current occupancies).
    void reset_stats();

private:
    // ---- AT state
    struct QueueEntry {
        tlm::tlm_generic_payload* trans;
        sc_core::sc_time accepted; ///< when END_REQ went upstream
    };
    struct AtOutput {
        std::deque<QueueEntry> queue; ///< FIFO; the front may be offered downstream
        std::deque<unsigned> waiting; ///< inputs with a withheld request for this output, FIFO
        sc_core::sc_event kick;       ///< wakes the output's forwarding thread
        std::size_t max_occupancy = 0;
        uint64_t withheld = 0;
    };

    void end_of_elaboration() override;

    // LT shell
    void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(int id, tlm::tlm_generic_payload& trans);
    /// Output port for the payload, or -1 after setting the error response.
    int decode(tlm::tlm_generic_payload& trans, bool warn);

    // AT shell (crossbar_at.cpp); each runs at the effective time of its phase.
    tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_bw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    /// BEGIN_REQ from input `id`: accepted now, or withheld until its output queue has room.
    void begin_request(unsigned id, tlm::tlm_generic_payload& trans);
    void enqueue(unsigned port, tlm::tlm_generic_payload& trans);
    /// Fill free slots of `port`'s queue with withheld requests (END_REQ to their inputs).
    void admit_waiting(unsigned port);
    /// The downstream target accepted the request at the front of `port`'s queue.
    void downstream_accepted(unsigned port, tlm::tlm_generic_payload& trans);
    void output_thread(unsigned port);
    void resp_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);

    CrossbarTiming m_timing;

    std::vector<AtOutput> m_at_out;
    std::vector<tlm::tlm_generic_payload*> m_withheld; ///< per input: request waiting for a queue slot
    AtTargetPort m_in_port;     ///< 4-phase target side of `in` (its queue: delayed BEGIN_REQ / END_RESP)
    AtInitiatorPort m_out_port; ///< 4-phase initiator side of `out` (its queue: delayed END_REQ / BEGIN_RESP)
    tlm_utils::peq_with_cb_and_phase<Crossbar> m_resp_peq; ///< responses crossing the hop back
};

} // namespace syncron
