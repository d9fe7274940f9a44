// One checker's group: the base-protocol violations it saw.
#include "models/tlm/protocol_checker.h"

namespace syncron {

void ProtocolChecker::report_stats(const StatContext&, nlohmann::json& out) const { out["violations"] = violations(); }

} // namespace syncron
