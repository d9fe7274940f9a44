#include "models/common/energy_model.h"

namespace syncron {

namespace {
constexpr double kBitsPerByte = 8.0;
/// mW over seconds, in pJ: 1 mW x 1 s = 1e-3 J = 1e9 pJ.
double static_pj(double mw, uint64_t instances, double seconds) {
    return mw * static_cast<double>(instances) * seconds * 1e9;
}
} // namespace

double EnergyAccount::total_pj() const {
    return cores.total_pj() + caches.total_pj() + network.total_pj() + links.total_pj() + memory.total_pj() +
           se.total_pj();
}

EnergyAccount energy_of(const EnergyCounters& c, const EnergyParams& p) {
    EnergyAccount a;
    a.cores.dynamic_pj = static_cast<double>(c.instructions) * p.core_pj_per_instruction;
    a.cores.static_pj = static_pj(p.core_static_mw, c.cores, c.seconds);
    a.caches.dynamic_pj =
        static_cast<double>(c.l1_hits) * p.l1_hit_pj + static_cast<double>(c.l1_misses) * p.l1_miss_pj;
    a.network.dynamic_pj = static_cast<double>(c.xbar_bytes) * kBitsPerByte * p.xbar_pj_per_bit;
    a.links.dynamic_pj = static_cast<double>(c.link_bytes) * kBitsPerByte * p.link_pj_per_bit;
    a.memory.dynamic_pj = static_cast<double>(c.memory_bytes) * kBitsPerByte * p.memory_pj_per_bit +
                          static_cast<double>(c.activations) * p.memory_activate_pj;
    a.memory.static_pj = static_pj(p.memory_static_mw, c.memory_units, c.seconds);
    // The paper gives the SE's power only (2.7 mW): charged for the whole run.
    a.se.static_pj = static_pj(p.se_mw, c.ses, c.seconds);
    return a;
}

} // namespace syncron
