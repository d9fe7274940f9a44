// One crossbar's group: traffic over all its output ports.
#include "models/interconnect/crossbar.h"

namespace syncron {

void Crossbar::report_stats(const StatContext&, nlohmann::json& out) const {
    out["bytes"] = total_bytes();
    out["transfers"] = total_transfers();
}

} // namespace syncron
