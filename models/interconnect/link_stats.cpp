// One directed link's entry of links[].
#include "models/interconnect/link.h"

namespace syncron {

void Link::report_stats(const StatContext& ctx, nlohmann::json& out) const {
    out["from"] = src_unit();
    out["to"] = dst_unit();
    out["bytes"] = bytes();
    out["transfers"] = transfers();
    // Busy fraction of the run; a run that never finished has no length.
    out["utilization"] = ctx.finished ? utilization(sc_core::sc_time::from_value(ctx.end_ticks)) : 0.0;
}

} // namespace syncron
