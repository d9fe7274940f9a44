#include "testbenches/workloads/applications.h"

#include "platforms/workload_registry.h"

namespace syncron {

const std::vector<std::string>& application_names() {
    static const std::vector<std::string> names = {"bfs", "cc", "sssp", "pr", "tf", "tc", "ts"};
    return names;
}

void register_applications(WorkloadRegistry& registry) {
    const WorkloadRegistry::Factory factories[] = {&make_bfs, &make_cc, &make_sssp, &make_pr,
                                                   &make_tf,  &make_tc, &make_ts};
    for (size_t i = 0; i < application_names().size(); ++i)
        registry.add(application_names()[i],
                     WorkloadInfo{factories[i], kApplicationOps, CoreMapping::spread, "applications"});
}

} // namespace syncron
