#pragma once
// The whole SynCron fabric as one component (docs/integration.md): N
// Synchronization Engines with their SE-to-SE interconnect (one crossbar per
// unit, a link per ordered pair of units), one memory-mapped front end per
// unit for the harts' plain loads and stores, and one overflow socket per
// unit for the SEs' syncronVar accesses. A platform binds, per unit u:
//   bus initiator -> fabric.frontend(u).socket   (the unit's hart windows)
//   fabric.overflow(u)  -> its memory            (unless default_memory)
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/common/address_map.h"
#include "models/frontend/fabric_params.h"
#include "models/frontend/mmio_frontend.h"
#include "models/frontend/overflow_port.h"
#include "models/se/core/se_topology.h"

namespace syncron {

class SeModule;
class Crossbar;
class Link;
class Router;
class VaultController;
class BackingStore;

/// Everything but the bus-width-dependent sockets.
class SyncronFabricBase : public sc_core::sc_module {
public:
    ~SyncronFabricBase() override;
    const FabricParams& params() const { return m_params; }
    unsigned units() const { return m_params.units; }
    /// Global hart ID of local hart `h` of unit `u`, and its window's address.
    unsigned hart_id(unsigned u, unsigned h) const { return u * m_params.harts_per_unit + h; }
    uint64_t window(unsigned hart) const { return m_params.window_base + uint64_t(hart) * m_params.window_bytes; }
    /// Unit u's front end window range [begin, end), for the bus's decoder.
    uint64_t unit_window_begin(unsigned u) const { return window(hart_id(u, 0)); }
    uint64_t unit_window_end(unsigned u) const { return window(hart_id(u, 0) + m_params.harts_per_unit); }
    /// The lock fairness threshold every SE reads at its grant decisions; the
    /// front ends' SYNCRON_MMIO_FAIRNESS register writes it.
    unsigned lock_fairness_threshold() const { return *m_fairness; }
    SeModule& se(unsigned u) { return *m_ses.at(u); }
    const SeModule& se(unsigned u) const { return *m_ses.at(u); }
    virtual MmioFrontEndBase& frontend_base(unsigned u) = 0;
    /// Reports every hart still waiting for a grant (hart, variable, request,
    /// since when) as one SC_REPORT_ERROR, which throws by default; returns
    /// how many wait. A run must not end with requests pending: call it when
    /// sc_start() returns (end_of_simulation() calls it after sc_stop()).
    unsigned report_waiting();

protected:
    SyncronFabricBase(sc_core::sc_module_name name, const FabricParams& params, unsigned bus_bits);
    void end_of_simulation() override;
    /// Wires unit u's front end to its SE and crossbar.
    void attach(unsigned u, MmioFrontEndBase& fe, tlm::tlm_target_socket<32>& overflow_in);
    const AddressMap& address_map() const { return m_map; }
    std::shared_ptr<KindTable> kinds() const { return m_kinds; }

private:
    FabricParams m_params;
    AddressMap m_map;
    SeTopology m_topology;
    std::shared_ptr<KindTable> m_kinds;
    std::shared_ptr<unsigned> m_fairness; // shared by the SEs and the front ends
    std::vector<std::unique_ptr<Router>> m_routers;
    std::vector<std::unique_ptr<Crossbar>> m_xbars;
    std::vector<std::unique_ptr<SeModule>> m_ses;
    std::vector<std::unique_ptr<Link>> m_links;
    std::vector<std::unique_ptr<BackingStore>> m_stores;
    bool m_waiting_reported = false;

protected:
    std::vector<std::unique_ptr<VaultController>> m_vaults; ///< default memory, one vault per unit
    void make_default_memory(unsigned u, tlm::tlm_initiator_socket<32>& from);
};

/// The fabric for a bus of BUSWIDTH bits (32 or 64): the front ends' target
/// sockets and the overflow sockets have that width.
template <unsigned BUSWIDTH = 64> class SyncronFabric : public SyncronFabricBase {
public:
    SyncronFabric(sc_core::sc_module_name name, const FabricParams& params)
        : SyncronFabricBase(name, params, BUSWIDTH) {
        for (unsigned u = 0; u < params.units; ++u) {
            const std::string n = "unit" + std::to_string(u);
            m_fes.push_back(
                std::make_unique<MmioFrontEnd<BUSWIDTH>>((n + "_frontend").c_str(), u, params, address_map(), kinds()));
            if (params.default_memory) {
                m_default_ports.push_back(
                    std::make_unique<OverflowPort<32>>((n + "_overflow").c_str(), params.vars.var_base));
                attach(u, *m_fes.back(), m_default_ports.back()->in);
                make_default_memory(u, m_default_ports.back()->out);
            } else {
                m_ports.push_back(std::make_unique<OverflowPort<BUSWIDTH>>((n + "_overflow").c_str()));
                attach(u, *m_fes.back(), m_ports.back()->in);
            }
        }
    }

    /// Unit u's front end: bind the bus to frontend(u).socket.
    MmioFrontEnd<BUSWIDTH>& frontend(unsigned u) { return *m_fes.at(u); }
    MmioFrontEndBase& frontend_base(unsigned u) override { return *m_fes.at(u); }
    /// Unit u's overflow socket: bind it to the memory holding the variables
    /// (not available with FabricParams::default_memory).
    tlm::tlm_initiator_socket<BUSWIDTH>& overflow(unsigned u) {
        if (m_ports.empty())
            throw std::logic_error(std::string(name()) + ": overflow sockets are bound to the default memory");
        return m_ports.at(u)->out;
    }

private:
    std::vector<std::unique_ptr<MmioFrontEnd<BUSWIDTH>>> m_fes;
    std::vector<std::unique_ptr<OverflowPort<BUSWIDTH>>> m_ports;
    std::vector<std::unique_ptr<OverflowPort<32>>> m_default_ports;
};

} // namespace syncron
