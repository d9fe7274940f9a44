// One SE's entry of se[]: its functional core's group plus the SPU's timing.
#include <algorithm>

#include "models/se/se_module.h"

namespace syncron {

void SeModule::report_stats(const StatContext& ctx, nlohmann::json& out) const {
    core().report_stats(ctx, out);
    const sc_core::sc_time end = sc_core::sc_time::from_value(ctx.end_ticks);
    const double st_cap = std::max(1u, params().st_entries);
    out["unit"] = unit();
    out["messages_processed"] = stats().processed;
    out["st_entries"] = params().st_entries;
    out["st_occupancy_avg"] = st_occupancy_avg(end);
    out["st_occupancy_max"] = st_max();
    out["st_occupancy_avg_pct"] = 100.0 * st_occupancy_avg(end) / st_cap;
    out["st_occupancy_max_pct"] = 100.0 * st_max() / st_cap;
    out["syncronvar_memory_accesses"] = stats().mem_accesses;
    out["buffer_max"] = stats().buffer_max;
    out["buffer_full_events"] = stats().buffer_full_events;
    out["spu_busy_ns"] = stats().spu_busy.to_seconds() * 1e9;
    out["rejected_messages"] = stats().rejected;
}

} // namespace syncron
