#pragma once
// The functional core of a Synchronization Engine, with no notion of time
// and no SystemC: SeModule (models/se/se_module.h) is the timing shell around
// it, the software servers and the ideal hub (models/schemes) run it too.
// It checks a message (SeValidator) and hands it to the local SE (LocalSe)
// or, for a variable it is home of, to its overflow policy, which keeps the
// variable in the ST or elsewhere and runs the Master SE's state machines
// (MasterSe) on it. The organization (hierarchical / flat) and the overflow
// policy (integrated / abort to software) are small interfaces chosen by the
// topology's enums (docs/se.md; message flows in docs/protocol.md).
#include <memory>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/protocol/message.h"
#include "models/protocol/var_snapshot.h"
#include "models/se/core/indexing_counters.h"
#include "models/se/core/overflow_policy.h"
#include "models/se/core/se_context.h"
#include "models/se/core/se_core_stats.h"
#include "models/se/core/se_organization.h"
#include "models/se/core/se_result.h"
#include "models/se/core/se_topology.h"
#include "models/se/core/sync_table.h"
#include "models/se/core/sync_var_memory.h"
#include "models/se/core/syncron_var.h"

namespace syncron {

class SeCore : public StatProvider {
public:
    /// The organization and overflow policy the topology's enums select.
    SeCore(unsigned unit, const SeParams& params, const SeTopology& topology, SyncVarMemory* memory);
    /// An explicit organization (a software server or the ideal hub:
    /// SinglePathOrganization); the overflow policy from the topology.
    SeCore(unsigned unit, const SeParams& params, SeTopology topology, SyncVarMemory* memory,
           std::unique_ptr<SeOrganizationIF> organization);

    /// Processes one arriving message; appends what it emits to `result`.
    void handle(const Message& msg, SeResult& result);
    /// handle() for a message the caller has already checked with validate()
    /// (validation depends on the message and the topology only).
    void handle_validated(const Message& msg, SeResult& result);
    /// Empty if the message is well-formed for this SE, else the reason.
    std::string validate(const Message& msg) const;

    unsigned unit() const { return m_cx.unit(); }
    const SyncTable& table() const { return m_cx.st(); }
    const IndexingCounters& counters() const { return m_cx.counters(); }
    const SyncronVarLayout& layout() const { return m_cx.layout(); }
    const SeTopology& topology() const { return m_cx.topo(); }
    const SeCoreStats& stats() const { return m_cx.stats(); }
    /// The lock fairness threshold in force, and sharing one changeable value
    /// between SEs (the front end's run-time register, docs/integration.md).
    unsigned lock_fairness_threshold() const { return m_cx.lock_fairness_threshold(); }
    void share_lock_fairness(std::shared_ptr<unsigned> threshold) { m_cx.share_lock_fairness(std::move(threshold)); }
    /// This module's group of statistics (docs/stats.md); in se_core_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    const SeOrganizationIF& organization() const { return m_cx.organization(); }
    const OverflowPolicyIF& overflow_policy() const { return m_cx.overflow(); }
    bool is_master_of(uint64_t addr) const { return m_cx.is_master_of(addr); }
    /// This SE's view of a variable for traces: its ST entry or, at the
    /// Master SE, its decoded syncronVar image (`image` may be null when the
    /// variable is not in memory). Returns false if the SE holds nothing.
    bool snapshot(uint64_t addr, Primitive kind, const std::vector<uint8_t>* image, VarSnapshot& out) const;

private:
    void process(const Message& m, SeResult& r);

    SeContext m_cx;
};

} // namespace syncron
