// The SE's functional statistics: messages by kind, overflow, counters.
#include "models/se/core/se_core.h"

namespace syncron {

void SeCore::report_stats(const StatContext&, nlohmann::json& out) const {
    const auto opcode_name = [](size_t i) { return to_string(static_cast<Opcode>(i)); };
    out["messages"] = nonzero_counts(stats().received, opcode_name);
    out["messages_sent"] = nonzero_counts(stats().sent, opcode_name);
    out["overflow_requests"] = stats().overflow_requests;
    out["messages_overflowed"] = stats().messages_overflowed;
    out["overflow_episodes"] = stats().overflow_episodes;
    out["st_spills"] = stats().spills;
    out["indexing_counters_in_use"] = counters().in_use();
    // Only with the rmw extension in use, so other runs' statistics stay as they were.
    if (stats().rmw_executed) out["rmw_executed"] = stats().rmw_executed;
    if (topology().three_level()) out["group_relays"] = stats().group_relays;
}

} // namespace syncron
