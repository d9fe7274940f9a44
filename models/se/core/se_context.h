#pragma once
// What the parts of one SE share (the local SE, the Master SE, the validator
// and the overflow policy): its identity and configuration, ST, indexing
// counters, statistics, and the outbox its state machines write to. SeCore
// owns one; the parts are handed it per message, so an SeCore stays movable.
#include <algorithm>
#include <deque>
#include <memory>
#include <string>

#include "models/common/params.h"
#include "models/protocol/message.h"
#include "models/se/core/indexing_counters.h"
#include "models/se/core/overflow_policy.h"
#include "models/se/core/se_core_stats.h"
#include "models/se/core/se_organization.h"
#include "models/se/core/se_result.h"
#include "models/se/core/se_topology.h"
#include "models/se/core/sync_table.h"
#include "models/se/core/sync_var_memory.h"
#include "models/se/core/syncron_var.h"

namespace syncron {

class SeContext {
public:
    /// Throws std::invalid_argument for a topology or parameters no SE can
    /// work with; the overflow policy comes from topology.overflow.
    SeContext(unsigned unit, const SeParams& params, SeTopology topology, SyncVarMemory* memory,
              std::unique_ptr<SeOrganizationIF> organization);

    unsigned unit() const { return m_unit; }
    const SeParams& params() const { return m_params; }
    /// The lock fairness threshold in force now: params().lock_fairness_threshold
    /// at elaboration; a run-time register (docs/integration.md) may share one
    /// value between the SEs and change it, read at every grant decision.
    unsigned lock_fairness_threshold() const { return *m_fairness; }
    void share_lock_fairness(std::shared_ptr<unsigned> threshold) { m_fairness = std::move(threshold); }
    /// The unit of own core `core` (flat organization: of any core).
    unsigned unit_of_core(unsigned core) const { return m_org->core(core, m_unit).unit; }
    /// Counts a lock hand-off from a holder in unit `from` to one in unit `to`.
    void count_handoff(unsigned from, unsigned to);
    /// Notes a run of `n` consecutive grants inside one unit.
    void note_local_run(uint64_t n) { m_stats.lock_local_run_max = std::max(m_stats.lock_local_run_max, n); }
    const SeTopology& topo() const { return m_topo; }
    SyncVarMemory* memory() const { return m_memory; }
    const SeOrganizationIF& organization() const { return *m_org; }
    OverflowPolicyIF& overflow() { return *m_overflow; }
    const OverflowPolicyIF& overflow() const { return *m_overflow; }
    SyncTable& st() { return m_st; }
    const SyncTable& st() const { return m_st; }
    IndexingCounters& counters() { return m_counters; }
    const IndexingCounters& counters() const { return m_counters; }
    const SyncronVarLayout& layout() const { return m_layout; }
    SeCoreStats& stats() { return m_stats; }
    const SeCoreStats& stats() const { return m_stats; }
    unsigned home(uint64_t addr) const { return m_topo.home_unit(addr); }
    bool is_master_of(uint64_t addr) const { return home(addr) == m_unit; }
    /// Where this SE sends its global-level requests for `addr`: the Master
    /// SE, or (three levels) its group SE.
    unsigned parent(uint64_t addr) const { return m_topo.parent(m_unit, home(addr)); }
    /// This SE is the group SE of its group for `addr` (three levels).
    bool is_group_se_for(uint64_t addr) const { return m_topo.is_group_se(m_unit, home(addr)); }

    // The outbox.
    void to_core(unsigned core, Opcode op, uint64_t addr, uint64_t info, SeResult& r);
    /// Requests towards the Master SE or the group SE carry this SE's ID,
    /// replies the target's. Three levels: the Master SE's barrier departures
    /// for an SE of another group travel through that group's SE, which
    /// relayed its arrival (docs/protocol.md "Three levels").
    void to_se(unsigned se, Opcode op, uint64_t addr, uint64_t info, unsigned core, SeResult& r);
    /// Sends `m` as it is (a relayed release, a forward to a server).
    void emit(Outgoing::Dest dest, unsigned id, const Message& m, SeResult& r);
    /// Rejects `m` (the first reason is kept) and counts the error.
    void fail(SeResult& r, const Message& m, const std::string& why);
    /// cond_wait releases the core's lock inside the SE: one more message,
    /// run after the current one (or relayed, see SeOrganizationIF).
    void release_lock_for(uint64_t lock, unsigned core, SeResult& r);
    /// Pops the next message the SE generated for itself.
    bool next_internal(Message& out);
    void drop_internal() { m_internal.clear(); }

    // Own-core waiting lists and ST entries.
    /// Grants the next waiting own core in rotation; kNone if nobody waits.
    unsigned grant_next_local(VarState& s, Opcode op, uint64_t addr, SeResult& r);
    /// Sends `op` to every waiting own core and empties the list.
    void grant_all_local(VarState& s, Opcode op, uint64_t addr, SeResult& r);
    void free_if(StEntry& e, bool idle, SeResult& r);
    /// Counts off a cond_registered_global for `s`; at the last one due,
    /// releases the own cores' locks deferred behind the registration
    /// (FIFO from the Master SE: the last confirmation covers them all).
    /// False if none was due (`m` rejected).
    bool take_confirmation(VarState& s, const Message& m, SeResult& r);

private:
    unsigned m_unit;
    SeParams m_params;
    std::shared_ptr<unsigned> m_fairness; // the threshold in force (lock_fairness_threshold())
    SeTopology m_topo;
    SyncVarMemory* m_memory;
    std::unique_ptr<SeOrganizationIF> m_org;
    std::unique_ptr<OverflowPolicyIF> m_overflow;
    SyncTable m_st;
    IndexingCounters m_counters;
    SyncronVarLayout m_layout;
    SeCoreStats m_stats;
    std::deque<Message> m_internal; // lock releases generated by cond_wait
};

} // namespace syncron
