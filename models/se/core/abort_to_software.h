#pragma once
// The MiSAR-style non-integrated overflow scheme (paper §6.7.3; rules L1..L4
// and M1..M3 in docs/protocol.md, "MiSAR-style abort overflow"): a variable
// is in hardware while its Master SE has an ST entry for it, in software
// while it has none and its indexing counter is above zero, never both.
// Requests hardware will not serve are aborted; the cores fall back to a
// software server (SeTopology::fallback_server), which reports back to the
// Master SE when the variable is idle. The Master SE never touches syncronVar.
#include "models/se/core/overflow_policy.h"

namespace syncron {

class AbortToSoftware final : public OverflowPolicyIF {
public:
    OverflowPolicy kind() const override { return OverflowPolicy::abort; }
    bool aborts() const override { return true; }
    void master(SeContext& cx, const Message& m, SeResult& r) override;
    /// A redirected cond_wait is never counted (a diverted one never reaches the server).
    bool redirect_counts(Opcode acquire) const override { return counted_in_software(acquire); }
    bool redirect_releases_lock() const override { return false; }
    void release_without_entry(SeContext& cx, const Message& m, SeResult& r) override;
    bool redirected_wait_granted(SeContext& cx, const Message& m, SeResult& r) override;
    void abort_global(SeContext& cx, StEntry& e, const Message& m, SeResult& r) override;
    void abort_overflow(SeContext& cx, const Message& m, SeResult& r) override;

    /// A diverted cond_wait never reaches the software server (the core
    /// treats the abort as a spurious wake-up), so it is never counted.
    static bool counted_in_software(Opcode acquire) { return primitive_of(acquire) != Primitive::condvar; }

private:
    void divert(SeContext& cx, const Message& m, SeResult& r);
    void evict_barrier(SeContext& cx, StEntry& e, const Message& m, SeResult& r);
    void forward_to_server(SeContext& cx, const Message& m, SeResult& r);
    void count_into_software(SeContext& cx, uint64_t addr, SeResult& r);
};

} // namespace syncron
