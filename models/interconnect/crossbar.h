#pragma once
// Buffered crossbar joining the cores, SE, vaults and link ports of one unit
// (docs/crossbar.md). Both timing styles on the same instance:
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
#include <unordered_map>
#include <vector>

#include <tlm_utils/peq_with_cb_and_phase.h> // defines SC_INCLUDE_DYNAMIC_PROCESSES (sc_spawn)
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/tlm/resource_timeline.h"
#include "models/interconnect/router.h"

namespace syncron {

class Crossbar : public sc_core::sc_module, public StatProvider {
public:
    tlm_utils::multi_passthrough_target_socket<Crossbar> in;
    tlm_utils::multi_passthrough_initiator_socket<Crossbar> out;

    /// When a transfer holds its output port (absolute simulation times).
    struct Schedule {
        sc_core::sc_time start;    ///< port granted
        sc_core::sc_time port_free; ///< port released (start + serialization)
    };

    /// The router may be given here or later with set_router(), before sc_start.
    /// It is not owned and must outlive the crossbar.
    Crossbar(const sc_core::sc_module_name& name, const XbarParams& params,
             const Router* router = nullptr);

    void set_router(const Router* router) { m_router = router; }
    const XbarParams& params() const { return m_params; }

    // Timing helpers (no side effects).
    sc_core::sc_time cycle() const { return m_cycle; }
    /// Fixed per-transfer latency: (arbiter_cycles + hop_cycles) cycles.
    sc_core::sc_time hop_latency() const;
    /// Flits a transfer of `bytes` occupies an output port (at least one).
    unsigned flits(unsigned bytes) const;
    /// End of the last booking of output `port`.
    sc_core::sc_time port_busy_until(unsigned port) const { return m_ports.at(port).timeline.busy_until(); }
    const ResourceTimeline& port_timeline(unsigned port) const { return m_ports.at(port).timeline; }

    // Statistics (per output port after elaboration).
    unsigned num_ports() const { return static_cast<unsigned>(m_ports.size()); }
    uint64_t transfers(unsigned port) const { return m_ports.at(port).transfers; }
    uint64_t bytes(unsigned port) const { return m_ports.at(port).bytes; }
    uint64_t total_transfers() const;
    uint64_t total_bytes() const;
    /// This module's group of statistics (docs/stats.md); in crossbar_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    /// Sum over transfers of the time spent waiting: LT, for a busy output
    /// port (start - arrival); AT, in the output queue beyond the hop latency
    /// (BEGIN_REQ downstream - (END_REQ upstream + hop latency)), which covers
    /// the port and the downstream's END_REQ.
    const sc_core::sc_time& total_queueing_delay() const { return m_queueing; }
    /// The same, per output port.
    const sc_core::sc_time& queueing_delay(unsigned port) const { return m_ports.at(port).queueing; }
    /// AT: requests in the output queue of `port` now (accepted from an input,
    /// not yet accepted by the downstream target), at most params().queue_depth.
    std::size_t queue_occupancy(unsigned port) const { return m_at_out.at(port).queue.size(); }
    /// AT: the largest queue_occupancy(port) seen since the last reset_stats().
    std::size_t max_queue_occupancy(unsigned port) const { return m_at_out.at(port).max_occupancy; }
    /// AT: BEGIN_REQs for `port` whose END_REQ was withheld because its queue was full.
    uint64_t withheld(unsigned port) const { return m_at_out.at(port).withheld; }
    /// Transfers rejected because no port serves their address.
    uint64_t unrouted() const { return m_unrouted; }
    /// AT: transactions in flight (from BEGIN_REQ to their completed response).
    std::size_t at_in_flight() const { return m_routes.size(); }
    /// Zero the counters (port bookings kept; the maximum occupancies restart
    /// from the current occupancies).
    void reset_stats();

private:
    struct Port {
        ResourceTimeline timeline;
        uint64_t transfers = 0;
        uint64_t bytes = 0;
        sc_core::sc_time queueing;
    };

    // ---- AT state
    /// Where an AT transaction came from and goes to, while the crossbar holds it.
    struct Route {
        unsigned input = 0;
        int output = -1; ///< -1: unroutable (answered with an error)
    };
    struct QueueEntry {
        tlm::tlm_generic_payload* trans;
        sc_core::sc_time accepted; ///< when END_REQ went upstream
    };
    struct AtOutput {
        std::deque<QueueEntry> queue;  ///< FIFO; the front may be offered downstream
        bool offered = false;          ///< queue.front() sent downstream, END_REQ pending
        std::deque<unsigned> waiting;  ///< inputs with a withheld request for this output, FIFO
        sc_core::sc_event kick;        ///< wakes the output's forwarding thread
        std::size_t max_occupancy = 0;
        uint64_t withheld = 0;
    };
    struct AtInput {
        bool request_open = false;                      ///< BEGIN_REQ received, END_REQ not yet sent
        tlm::tlm_generic_payload* withheld = nullptr;   ///< request waiting for a queue slot
        std::deque<tlm::tlm_generic_payload*> responses; ///< ready, waiting for response exclusion
        tlm::tlm_generic_payload* responding = nullptr; ///< BEGIN_RESP sent, not yet completed
    };

    void end_of_elaboration() override;

    void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(int id, tlm::tlm_generic_payload& trans);
    tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase, sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_bw(int id, tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase, sc_core::sc_time& delay);

    /// Output port for the payload, or -1 after setting the error response.
    int decode(tlm::tlm_generic_payload& trans, bool warn);
    /// Book `port` for a transfer arriving at `arrival` (first fit); updates
    /// port state and statistics (queueing counted from `arrival`).
    Schedule schedule(unsigned port, unsigned bytes, const sc_core::sc_time& arrival);

    // AT helpers; each runs at the effective time of its phase.
    AtInput& at_input(unsigned id);
    /// BEGIN_REQ from input `id`: true if accepted now (END_REQ to send), false if withheld.
    bool begin_request(unsigned id, tlm::tlm_generic_payload& trans);
    void enqueue(unsigned port, tlm::tlm_generic_payload& trans);
    /// Fill free slots of `port`'s queue with withheld requests (END_REQ to their inputs).
    void admit_waiting(unsigned port);
    /// The downstream target accepted `trans` (END_REQ, or BEGIN_RESP implying it).
    void downstream_accepted(unsigned port, tlm::tlm_generic_payload& trans);
    /// Downstream BEGIN_RESP (or early completion): the response starts back over the hop.
    void downstream_response(tlm::tlm_generic_payload& trans);
    /// A phase received from (or returned by) the downstream target on output `port`.
    void downstream_phase(unsigned port, tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase,
                          const sc_core::sc_time& delay);
    /// Send buffered responses to input `id` while its response phase is free.
    void send_responses(unsigned id);
    /// END_RESP (or TLM_COMPLETED) from input `id`: its response phase is free again.
    void response_completed(unsigned id, tlm::tlm_generic_payload& trans);
    void finish_response(unsigned id, tlm::tlm_generic_payload& trans);
    void output_thread(unsigned port);

    void fw_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);
    void bw_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);
    void resp_peq_cb(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);

    XbarParams m_params;
    sc_core::sc_time m_cycle;
    const Router* m_router;
    std::vector<Port> m_ports;
    sc_core::sc_time m_queueing;
    uint64_t m_unrouted = 0;

    std::vector<AtOutput> m_at_out;
    std::vector<AtInput> m_at_in;
    std::unordered_map<tlm::tlm_generic_payload*, Route> m_routes;
    tlm_utils::peq_with_cb_and_phase<Crossbar> m_fw_peq;   ///< delayed BEGIN_REQ / END_RESP from inputs
    tlm_utils::peq_with_cb_and_phase<Crossbar> m_bw_peq;   ///< delayed END_REQ / BEGIN_RESP from outputs
    tlm_utils::peq_with_cb_and_phase<Crossbar> m_resp_peq; ///< responses crossing the hop back
};

} // namespace syncron
