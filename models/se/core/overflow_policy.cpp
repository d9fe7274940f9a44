#include "models/se/core/overflow_policy.h"

#include "models/se/core/abort_to_software.h"
#include "models/se/core/integrated_overflow.h"

namespace syncron {

std::unique_ptr<OverflowPolicyIF> make_overflow_policy(const SeTopology& topology) {
    switch (topology.overflow) {
    case OverflowPolicy::abort: return std::make_unique<AbortToSoftware>();
    default: return std::make_unique<IntegratedOverflow>();
    }
}

} // namespace syncron
