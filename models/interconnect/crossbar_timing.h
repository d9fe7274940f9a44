#pragma once
// The crossbar's function and timing formulas, free of any timing style
// (docs/crossbar.md): routing an address to an output port, the fixed hop
// latency, and the output ports as ResourceTimelines occupied ceil(bytes /
// flit) cycles per transfer, booked first fit, with their statistics. The LT
// and AT shells of Crossbar both book through it.
#include <cstdint>
#include <vector>

#include <systemc>

#include "models/common/params.h"
#include "models/interconnect/router.h"
#include "models/protocol/tlm/traffic_class.h"
#include "models/tlm/resource_timeline.h"

namespace syncron {

class CrossbarTiming {
public:
    /// When a transfer holds its output port (absolute simulation times).
    struct Schedule {
        sc_core::sc_time start;     ///< port granted
        sc_core::sc_time port_free; ///< port released (start + serialization)
    };

    explicit CrossbarTiming(const XbarParams& params);

    const XbarParams& params() const { return m_params; }
    void set_router(const Router* router) { m_router = router; }
    const Router* router() const { return m_router; }
    /// The router's output port for `addr`, or -1 (no router or no port).
    int route(uint64_t addr) const { return m_router ? m_router->route(addr) : -1; }
    /// Sizes the port table once the netlist is known.
    void set_ports(unsigned count) { m_ports.resize(count); }
    unsigned num_ports() const { return static_cast<unsigned>(m_ports.size()); }

    sc_core::sc_time cycle() const { return m_cycle; }
    /// Fixed per-transfer latency: (arbiter_cycles + hop_cycles) cycles.
    const sc_core::sc_time& hop_latency() const { return m_hop; }
    /// Flits a transfer of `bytes` occupies an output port (at least one).
    unsigned flits(unsigned bytes) const;

    /// Book `port` for a transfer arriving at `arrival` (first fit); counts
    /// the transfer and its wait for the port (start - arrival).
    Schedule schedule(unsigned port, unsigned bytes, const sc_core::sc_time& arrival,
                      TrafficClass cls = TrafficClass::data);
    /// LT: a transfer of `bytes` crosses to `port`, arriving at
    /// sc_time_stamp() + `delay`; `delay` grows by its wait for the port and
    /// the hop latency (the LT shell's b_transport and the LT direct path).
    void lt_hop(unsigned port, unsigned bytes, TrafficClass cls, sc_core::sc_time& delay);
    /// Further queueing of a transfer on `port` (AT: the wait for the downstream's END_REQ).
    void add_queueing(unsigned port, const sc_core::sc_time& extra);
    void count_unrouted() { ++m_unrouted; }

    const ResourceTimeline& port_timeline(unsigned port) const { return m_ports.at(port).timeline; }
    uint64_t transfers(unsigned port) const { return m_ports.at(port).transfers; }
    uint64_t bytes(unsigned port) const { return m_ports.at(port).bytes; }
    uint64_t total_transfers() const;
    uint64_t total_bytes() const;
    /// Bytes of synchronization traffic (traffic_class), all ports.
    uint64_t sync_bytes() const { return m_sync_bytes; }
    const sc_core::sc_time& total_queueing_delay() const { return m_queueing; }
    const sc_core::sc_time& queueing_delay(unsigned port) const { return m_ports.at(port).queueing; }
    uint64_t unrouted() const { return m_unrouted; }
    /// Zero the counters (port bookings kept).
    void reset_stats();

private:
    struct Port {
        ResourceTimeline timeline;
        uint64_t transfers = 0;
        uint64_t bytes = 0;
        sc_core::sc_time queueing;
    };

    XbarParams m_params;
    sc_core::sc_time m_cycle;
    sc_core::sc_time m_hop; ///< hop_latency(), computed once (it is asked per transfer)
    const Router* m_router = nullptr;
    std::vector<Port> m_ports;
    sc_core::sc_time m_queueing;
    uint64_t m_unrouted = 0;
    uint64_t m_sync_bytes = 0;
};

} // namespace syncron
