#include "models/frontend/syncron_fabric.h"

#include <string>

#include "models/common/hex.h"
#include "models/interconnect/crossbar.h"
#include "models/interconnect/link.h"
#include "models/interconnect/router.h"
#include "models/memory/backing_store.h"
#include "models/memory/vault_controller.h"
#include "models/se/se_module.h"

namespace syncron {

namespace {

/// A unit's crossbar carries SynCron messages only: output 0 is the SE's
/// message port, then one link per other unit in unit order.
class FabricRouter : public Router {
public:
    FabricRouter(const AddressMap& map, unsigned unit) : m_map(map), m_unit(unit) {}
    int route(uint64_t addr) const override {
        const auto d = m_map.decode(addr);
        if (d.kind != AddressMap::Kind::se && d.kind != AddressMap::Kind::mailbox) return -1;
        if (d.unit == m_unit) return d.kind == AddressMap::Kind::se ? 0 : -1;
        return static_cast<int>(1 + (d.unit < m_unit ? d.unit : d.unit - 1));
    }

private:
    const AddressMap& m_map;
    unsigned m_unit;
};

MemoryParams fabric_memory(const FabricParams& p) {
    MemoryParams m = p.memory;
    m.unit_bytes = p.vars.unit_bytes; // one vault per unit holds the unit's variable range
    m.vaults_per_unit = 1;
    return m;
}

FabricParams checked(FabricParams p, unsigned bus_bits) {
    p.vars.units = p.units;
    validate(p, bus_bits);
    return p;
}

} // namespace

SyncronFabricBase::SyncronFabricBase(sc_core::sc_module_name name, const FabricParams& params, unsigned bus_bits)
    : sc_module(name), m_params(checked(params, bus_bits)),
      m_map(m_params.units, m_params.harts_per_unit, fabric_memory(m_params)), m_kinds(std::make_shared<KindTable>()),
      m_fairness(std::make_shared<unsigned>(m_params.se.lock_fairness_threshold)) {
    const FabricParams& p = m_params;
    m_topology.units = p.units;
    m_topology.cores_per_unit = p.harts_per_unit;
    m_topology.client_cores.assign(p.units, p.harts_per_unit);
    const VariableSpace vars = p.vars;
    m_topology.home_unit = [vars](uint64_t a) { return vars.home(a); };
    for (unsigned u = 0; u < p.units; ++u) {
        const std::string n = "unit" + std::to_string(u);
        m_routers.push_back(std::make_unique<FabricRouter>(m_map, u));
        m_xbars.push_back(std::make_unique<Crossbar>((n + "_xbar").c_str(), p.xbar, m_routers.back().get()));
        m_ses.push_back(std::make_unique<SeModule>((n + "_se").c_str(), u, p.se, m_topology, m_map));
        m_ses.back()->set_timing(p.timing);
        m_ses.back()->set_upstream_queue(p.xbar.queue_depth);
        m_ses.back()->share_lock_fairness(m_fairness);
        m_xbars.back()->out.bind(m_ses.back()->in);
        m_ses.back()->to_ses.bind(m_xbars.back()->in);
    }
    // Fully connected, bound in destination order (FabricRouter's ports).
    for (unsigned u = 0; u < p.units; ++u)
        for (unsigned v = 0; v < p.units; ++v) {
            if (u == v) continue;
            const std::string n = "link" + std::to_string(u) + "to" + std::to_string(v);
            m_links.push_back(std::make_unique<Link>(n.c_str(), u, v, p.link));
            m_xbars[u]->out.bind(m_links.back()->in);
            m_links.back()->out.bind(m_xbars[v]->in);
        }
    for (auto& l : m_links)
        for (auto& r : m_links)
            if (r->src_unit() == l->dst_unit() && r->dst_unit() == l->src_unit()) l->set_reverse(r.get());
}

SyncronFabricBase::~SyncronFabricBase() = default;

unsigned SyncronFabricBase::report_waiting() {
    m_waiting_reported = true;
    unsigned n = 0;
    std::string text;
    for (unsigned u = 0; u < m_params.units; ++u)
        for (const auto& w : frontend_base(u).waiting()) {
            ++n;
            text += "\n  hart " + std::to_string(w.hart) + ": " + std::string(to_string(w.request.op)) +
                    " on variable " + hex(w.request.addr) + " since " + w.since.to_string();
        }
    // A grant that never came: a deadlock in the software, or a load the
    // bus kept from completing (an AMO or LR/SC on a command slot).
    if (n)
        SC_REPORT_ERROR(name(), (std::to_string(n) +
                                 " hart(s) still wait for a grant at the end of the simulation "
                                 "(never use an AMO or LR/SC on a SynCron window):" +
                                 text)
                                    .c_str());
    return n;
}

void SyncronFabricBase::end_of_simulation() {
    if (!m_waiting_reported) report_waiting();
}

void SyncronFabricBase::attach(unsigned u, MmioFrontEndBase& fe, tlm::tlm_target_socket<32>& overflow_in) {
    fe.to_se.bind(m_xbars.at(u)->in);
    fe.share_lock_fairness(m_fairness);
    m_ses.at(u)->to_cores.bind(fe.replies);
    m_ses.at(u)->to_mem.bind(overflow_in);
}

void SyncronFabricBase::make_default_memory(unsigned u, tlm::tlm_initiator_socket<32>& from) {
    m_stores.push_back(std::make_unique<BackingStore>());
    m_vaults.push_back(std::make_unique<VaultController>(("unit" + std::to_string(u) + "_vault").c_str(), u, 0,
                                                         fabric_memory(m_params), m_map, *m_stores.back()));
    from.bind(m_vaults.back()->socket);
}

} // namespace syncron
