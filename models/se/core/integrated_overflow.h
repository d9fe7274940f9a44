#pragma once
// SynCron's integrated overflow scheme (paper §4.3): a variable that an ST
// cannot buffer lives in its syncronVar in the Master SE's local memory.
// A local SE redirects its cores' requests to the Master SE and raises its
// indexing counter; the Master SE serves them on the decoded syncronVar,
// spilling an ST entry there when a redirected request needs per-core
// waiting lists, and sends decrease_indexing_counter when the variable
// leaves memory.
#include <cstdint>
#include <vector>

#include "models/se/core/overflow_policy.h"
#include "models/se/core/var_state.h"

namespace syncron {

class IntegratedOverflow final : public OverflowPolicyIF {
public:
    OverflowPolicy kind() const override { return OverflowPolicy::integrated; }
    bool aborts() const override { return false; }
    void master(SeContext& cx, const Message& m, SeResult& r) override;
    bool redirect_counts(Opcode) const override { return true; }
    bool redirect_releases_lock() const override { return true; }
    void release_without_entry(SeContext& cx, const Message& m, SeResult& r) override;
    bool redirected_wait_granted(SeContext&, const Message&, SeResult&) override { return true; }
    void abort_global(SeContext& cx, StEntry& e, const Message& m, SeResult& r) override;
    void abort_overflow(SeContext& cx, const Message& m, SeResult& r) override;

private:
    /// Moves ST entry `e` into the scratch syncronVar (a redirected acquire
    /// needs a per-core list the entry does not have).
    void spill(SeContext& cx, StEntry& e, SeResult& r);
    /// Serves `m` on the variable's syncronVar (`preloaded`: already in the scratch).
    void serve_from_memory(SeContext& cx, const Message& m, SeResult& r, bool preloaded);

    VarState m_scratch;           // decoded syncronVar, reused
    std::vector<uint8_t> m_image; // syncronVar bytes, reused
};

} // namespace syncron
