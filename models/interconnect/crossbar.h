#pragma once
// Buffered crossbar joining the cores, SE, vaults and link ports of one unit
// (docs/crossbar.md). Loosely-timed: b_transport adds the arbiter and hop
// cycles plus the wait for the output port to the delay, then forwards the
// payload unchanged (addresses are global, no translation).
// Each output port is a ResourceTimeline occupied ceil(bytes/flit) cycles per
// transfer, booked first fit so temporally decoupled initiators do not queue
// behind each other's future bookings. The timing helpers are separate from
// the transport code so an nb_transport (AT) path can reuse them.
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/common/params.h"
#include "models/common/resource_timeline.h"
#include "models/interconnect/router.h"

namespace syncron {

class Crossbar : public sc_core::sc_module {
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
    /// Sum over transfers of the time spent waiting for a busy output port.
    const sc_core::sc_time& total_queueing_delay() const { return m_queueing; }
    /// Transfers rejected because no port serves their address.
    uint64_t unrouted() const { return m_unrouted; }
    void reset_stats();

private:
    struct Port {
        ResourceTimeline timeline;
        uint64_t transfers = 0;
        uint64_t bytes = 0;
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
    /// port state and statistics.
    Schedule schedule(unsigned port, unsigned bytes, const sc_core::sc_time& arrival);

    XbarParams m_params;
    sc_core::sc_time m_cycle;
    const Router* m_router;
    std::vector<Port> m_ports;
    sc_core::sc_time m_queueing;
    uint64_t m_unrouted = 0;
};

} // namespace syncron
