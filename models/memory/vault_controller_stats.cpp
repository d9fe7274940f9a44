// One vault's group: its requests and, for memory.vaults[], its latency.
#include "models/memory/vault_controller.h"

namespace syncron {

void VaultController::report_stats(const StatContext&, nlohmann::json& out) const {
    out["unit"] = unit();
    out["vault"] = vault();
    out["reads"] = reads();
    out["writes"] = writes();
    out["atomics"] = atomics();
    out["accesses"] = reads() + writes();
    out["avg_latency_ns"] = average_latency().to_seconds() * 1e9;
}

} // namespace syncron
