#pragma once
// A non-Master SE's side of a variable (paper §4, Figure 4): it aggregates
// its own cores' requests into one global request per variable, hands the
// Master SE's grants out in its unit, and, when its ST cannot buffer a
// variable, redirects the cores' requests as the overflow policy says.
#include "models/protocol/message.h"
#include "models/se/core/se_result.h"
#include "models/se/core/sync_table.h"

namespace syncron {

class SeContext;

class LocalSe {
public:
    explicit LocalSe(SeContext& cx) : m_cx(cx) {}

    /// Serves `m` (validated) for a variable homed at another SE.
    void handle(const Message& m, SeResult& r);

    /// Redirects an own core's request the ST cannot buffer (§4.3 case 2).
    void redirect(const Message& m, SeResult& r);

private:
    /// Returns false if the reply failed before it counted as overflow.
    bool overflow_reply(const Message& m, SeResult& r);
    void dispatch(StEntry& e, const Message& m, SeResult& r);
    void lock(StEntry& e, const Message& m, SeResult& r);
    void barrier(StEntry& e, const Message& m, SeResult& r);
    void sem(StEntry& e, const Message& m, SeResult& r);
    void cond(StEntry& e, const Message& m, SeResult& r);
    /// A cond_wait's lock release waits for the Master SE's confirmation of
    /// the registration when the lock is homed at another SE than `cond`.
    bool needs_confirmation(uint64_t cond, uint64_t lock) const;

    SeContext& m_cx;
};

} // namespace syncron
