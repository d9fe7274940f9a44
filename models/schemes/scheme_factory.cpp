#include "models/schemes/scheme_factory.h"

#include <stdexcept>
#include <string>

#include "models/schemes/atomics_scheme.h"
#include "models/schemes/central_scheme.h"
#include "models/schemes/flat_scheme.h"
#include "models/schemes/hier_scheme.h"
#include "models/schemes/ideal_scheme.h"
#include "models/schemes/mesi_lock_scheme.h"
#include "models/schemes/misar_scheme.h"
#include "models/schemes/syncron_scheme.h"

namespace syncron {

std::unique_ptr<SyncScheme> make_scheme(Scheme scheme) {
    switch (scheme) {
    case Scheme::syncron: return std::make_unique<SyncronScheme>();
    case Scheme::flat: return std::make_unique<FlatScheme>();
    case Scheme::central: return std::make_unique<CentralScheme>();
    case Scheme::hier: return std::make_unique<HierScheme>();
    case Scheme::ideal: return std::make_unique<IdealScheme>();
    case Scheme::remote_atomics: return std::make_unique<AtomicsScheme>();
    case Scheme::syncron_central_ovrfl:
    case Scheme::syncron_distrib_ovrfl: return std::make_unique<MisarScheme>(scheme);
    case Scheme::mesi_lock: return std::make_unique<MesiLockScheme>();
    }
    throw std::invalid_argument("make_scheme: unknown scheme " + std::to_string(static_cast<unsigned>(scheme)));
}

} // namespace syncron
