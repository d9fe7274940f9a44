#pragma once
// What an SE does with a variable it cannot buffer in its ST (docs/se.md,
// "Organization and overflow policy"). The local SE asks the policy how to
// redirect an own core's request and where a release without an ST entry
// goes; the Master SE hands it every message for a variable it is home of,
// since the policy decides where the variable lives (ST entry, syncronVar in
// memory, or the software fallback). Chosen by SeTopology::overflow through
// make_overflow_policy().
#include <memory>

#include "models/protocol/message.h"
#include "models/se/core/se_result.h"
#include "models/se/core/se_topology.h"
#include "models/se/core/sync_table.h"

namespace syncron {

class SeContext;

class OverflowPolicyIF {
public:
    virtual ~OverflowPolicyIF() = default;
    virtual OverflowPolicy kind() const = 0;
    /// Whether the policy's own messages exist: abort_global / abort_overflow
    /// from the Master SE, decrease_indexing_counter from a fallback server
    /// (to the Master SE) and from a core (to its own SE).
    virtual bool aborts() const = 0;

    // Master SE.
    /// Serves `m` (validated) for a variable this SE is the Master SE of.
    virtual void master(SeContext& cx, const Message& m, SeResult& r) = 0;

    // Local SE.
    /// Whether redirecting the acquire-type request `acquire` raises this
    /// SE's indexing counter for the variable.
    virtual bool redirect_counts(Opcode acquire) const = 0;
    /// Whether a redirected cond_wait releases its lock at once (else the
    /// core keeps it until the Master SE decides).
    virtual bool redirect_releases_lock() const = 0;
    /// A release-type request of an own core for a variable with no ST entry.
    virtual void release_without_entry(SeContext& cx, const Message& m, SeResult& r) = 0;
    /// A redirected semaphore wait came back granted (sem_grant_overflow);
    /// false if that failed (the error is in `r`).
    virtual bool redirected_wait_granted(SeContext& cx, const Message& m, SeResult& r) = 0;
    /// The Master SE aborted this SE's global request for entry `e`.
    virtual void abort_global(SeContext& cx, StEntry& e, const Message& m, SeResult& r) = 0;
    /// The Master SE aborted an own core's redirected request.
    virtual void abort_overflow(SeContext& cx, const Message& m, SeResult& r) = 0;
};

/// The policy SeTopology::overflow selects.
std::unique_ptr<OverflowPolicyIF> make_overflow_policy(const SeTopology& topology);

} // namespace syncron
