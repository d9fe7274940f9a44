#include "testbenches/workloads/builtin_workloads.h"

#include "platforms/workload_registry.h"
#include "testbenches/workloads/applications.h"
#include "testbenches/workloads/counter.h"
#include "testbenches/workloads/data_structures/data_structures.h"
#include "testbenches/workloads/microbenchmarks.h"

namespace syncron {

void register_builtin_workloads(WorkloadRegistry& registry) {
    for (const std::string& name : microbenchmark_names())
        registry.add(name,
                     WorkloadInfo{&make_microbenchmark, kMicrobenchmarkOps, CoreMapping::spread, "microbenchmarks"});
    // Model extension (§6): read-modify-write against the lock it replaces.
    registry.add("counter", WorkloadInfo{&make_counter, kCounterOps, CoreMapping::spread, "microbenchmarks"});
    register_data_structures(registry);
    register_applications(registry);
}

} // namespace syncron
