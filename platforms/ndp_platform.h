#pragma once
// An HMC-like NDP system of N units, composed from the models:
//   per unit: client NDP cores, one SE, vault controllers over one backing
//   store, a crossbar joining them; between every ordered pair of units one
//   inter-cube link. See docs/architecture.md.
#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "models/coherence/core/coherence_checker.h"
#include "models/coherence/directory_module.h"
#include "models/common/address_map.h"
#include "models/common/energy_model.h"
#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/common/stop_request.h"
#include "models/core/ndp_core.h"
#include "models/core/workload.h"
#include "models/interconnect/crossbar.h"
#include "models/interconnect/link.h"
#include "models/memory/backing_store.h"
#include "models/memory/vault_controller.h"
#include "models/schemes/scheme_platform.h"
#include "models/schemes/sync_scheme.h"
#include "models/se/se_module.h"
#include "models/tlm/protocol_checker.h"
#include "platforms/unit_direct_path.h"

namespace syncron {

class NdpPlatform : public sc_core::sc_module, public Driver, public SchemePlatform, public StatProvider {
public:
    SC_HAS_PROCESS(NdpPlatform);
    NdpPlatform(sc_core::sc_module_name name, const SimParams& params);
    ~NdpPlatform() override;

    /// Sets the workload up and gives every client core its program.
    void load(Workload& workload);
    /// Simulates until every client core is done (or nothing can move).
    /// Returns false if cores are left waiting: a deadlock or lost wake-up.
    bool run();

    unsigned unfinished_cores() const;
    NdpCore& core(unsigned global_id) { return *m_cores.at(global_id); }
    Scheme scheme() const { return m_params.platform.scheme; }
    /// The scheme plugged in (docs/schemes.md): its server cores, statistics.
    const SyncScheme& sync_scheme() const { return *m_scheme; }
    SeModule& se(unsigned unit) { return *m_units.at(unit)->se; }
    /// Whether the platform has MESI directories (docs/coherence.md): under a
    /// scheme with coherent synchronization variables, or coherence.shared_data.
    bool coherence_enabled() const { return m_coherence; }
    /// The unit's directory (coherence_enabled() only).
    DirectoryModule& directory(unsigned unit) { return *m_units.at(unit)->directory; }
    /// The coherence checker (check.coherence), or nullptr.
    const CoherenceChecker* coherence_checker() const { return m_coherence_checker.get(); }
    Crossbar& crossbar(unsigned unit) { return *m_units.at(unit)->xbar; }
    const std::vector<std::unique_ptr<Link>>& links() const { return m_links; }
    const std::vector<std::unique_ptr<ProtocolChecker>>& checkers() const { return m_checkers; }
    /// Protocol violations reported by all checkers (0 without check.protocol).
    uint64_t protocol_violations() const;
    /// Attaches a probe to every core, SE, link and vault (before sc_start).
    void attach_trace(TraceSink* sink);
    /// Makes every SE report its view of `v` (a synchronization variable).
    void trace_var(SyncVar v);
    /// The synchronization variables the workload created, in creation order.
    const std::vector<SyncVar>& syncvars() const { return m_syncvars; }
    /// Called once, in simulation, when every client core has finished.
    void on_finished(std::function<void()> f) { m_on_finished.push_back(std::move(f)); }
    /// Transports the LT direct paths served (docs/timing.md, "The direct
    /// path"); 0 in AT and with protocol checkers, where every access takes the sockets.
    uint64_t direct_transports() const;
    /// Stops the run at the next check (StopSignals: SIGINT, SIGTERM, SIGHUP); safe to call from a signal handler.
    static void request_stop() { g_stop_requested = 1; }
    static bool stop_requested() { return syncron::stop_requested(); }
    /// Statistics of the run so far (see docs/stats.md).
    nlohmann::json stats_json() const;
    /// The platform's group: the walk over every module's statistics.
    void report_stats(const StatContext& ctx, nlohmann::json& j) const override;
    /// What the run did that costs energy, at ctx's end (docs/energy.md).
    EnergyCounters energy_counters(const StatContext& ctx) const;

    // SchemePlatform (client_cores and allocate are Driver's)
    const SimParams& params() const override { return m_params; }
    const AddressMap& address_map() const override { return m_map; }
    const SeTopology& topology() const override { return m_topology; }
    NdpCore& client_core(unsigned global_id) override { return *m_cores.at(global_id); }
    uint64_t messages_sent(Opcode op) const override;
    sc_core::sc_time finish_time() const override { return m_finish; }

    // Driver
    unsigned units() const override { return m_params.platform.units; }
    unsigned client_cores() const override { return static_cast<unsigned>(m_cores.size()); }
    unsigned client_cores_in_unit(unsigned unit) const override { return m_clients.at(unit); }
    uint64_t free_bytes(unsigned unit) const override;
    SyncVar create_syncvar(unsigned home_unit) override;
    void destroy_syncvar(SyncVar v) override;
    uint64_t allocate(unsigned unit, uint64_t bytes, Sharing sharing) override;
    uint64_t read(uint64_t addr, unsigned size) override;
    void write(uint64_t addr, uint64_t value, unsigned size) override;

private:
    /// The "coherence" group of the statistics (coherence_enabled() only).
    void report_coherence(const StatContext& ctx, nlohmann::json& j) const;
    /// sync_latency and lock_fairness of the statistics (from report_stats).
    void report_sync_latency(nlohmann::json& j) const;
    class UnitRouter;
    struct Region {
        uint64_t begin, end;
        Sharing sharing;
        bool syncvar = false; ///< a synchronization variable (create_syncvar)
    };
    struct Unit {
        std::unique_ptr<BackingStore> store;
        std::vector<std::unique_ptr<VaultController>> vaults;
        std::unique_ptr<Crossbar> xbar;
        std::unique_ptr<SeModule> se;
        std::unique_ptr<DirectoryModule> directory; ///< when coherence is enabled
        std::unique_ptr<UnitRouter> router;
        uint64_t next_free = 0; ///< bump allocator
        /// Allocated regions of this unit, adjacent ones of one kind merged;
        /// the bump allocator makes append order address order, so this
        /// stays sorted at O(1) per allocation.
        std::vector<Region> regions;
    };

    void build();
    void monitor();
    void watch_interrupt();
    /// Binds an initiator to a target socket, through a base-protocol checker
    /// when check.protocol is set.
    template <class Initiator, class Target>
    void connect(Initiator& initiator, Target& target, const std::string& what);
    bool is_cacheable(uint64_t addr) const;
    /// allocate(), the region marked as synchronization variables or not.
    uint64_t allocate_region(unsigned unit, uint64_t bytes, Sharing sharing, bool syncvar);
    /// The region holding addr, or nullptr.
    const Region* region_of(uint64_t addr) const;
    NdpCore::Coherent coherent_class(uint64_t addr) const;
    /// The coherence checker's hook: checks `line` after an L1 changed it.
    void check_coherence(uint64_t line);
    /// Builds the checker once every core exists (check.coherence).
    void build_coherence_checker();
    /// LT without protocol checkers: the cores' direct paths (docs/timing.md, "The direct path").
    void build_direct_paths();
    BackingStore& store_of(uint64_t addr);

    SimParams m_params;
    AddressMap m_map;
    std::vector<unsigned> m_clients;
    std::vector<std::unique_ptr<Unit>> m_units;
    std::vector<std::unique_ptr<NdpCore>> m_cores;
    /// core.threads > 1: one per hardware client core, shared by its contexts.
    std::vector<std::unique_ptr<CorePipeline>> m_pipelines;
    void report_energy(const StatContext& ctx, nlohmann::json& j) const;
    std::vector<std::unique_ptr<Link>> m_links;
    SeTopology m_topology;
    std::unique_ptr<SyncScheme> m_scheme;
    std::vector<std::unique_ptr<ProtocolChecker>> m_checkers;
    std::vector<UnitDirectPath::Unit> m_direct_units;            ///< what the direct paths book through
    std::vector<std::unique_ptr<UnitDirectPath>> m_direct_paths; ///< one per unit
    bool m_coherence = false;
    /// Every L1 by cache index (unit x cores_per_unit + local ID); null where no core is.
    std::vector<NdpCore*> m_caches;
    std::unique_ptr<CoherenceChecker> m_coherence_checker;
    std::vector<SyncVar> m_syncvars;
    sc_core::sc_time m_finish;
    bool m_loaded = false;
    bool m_all_done = false;
    std::vector<std::function<void()>> m_on_finished;
};

} // namespace syncron
