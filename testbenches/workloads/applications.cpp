#include "testbenches/workloads/applications.h"

#include <utility>

#include "platforms/workload_registry.h"
#include "testbenches/workloads/graph/graph_loader.h"
#include "testbenches/workloads/graph/rmat.h"
#include "testbenches/workloads/timeseries/series.h"

namespace syncron {

const std::vector<std::string>& application_names() {
    static const std::vector<std::string> names = {"bfs", "cc", "sssp", "pr", "tf", "tc", "ts"};
    return names;
}

void register_applications(WorkloadRegistry& registry) {
    const WorkloadRegistry::Factory factories[] = {&make_bfs, &make_cc, &make_sssp, &make_pr,
                                                   &make_tf,  &make_tc, &make_ts};
    for (size_t i = 0; i < application_names().size(); ++i) {
        WorkloadInfo info{factories[i], kApplicationOps, CoreMapping::spread, "applications"};
        // Their input files are read once before the run too, so that a bad line is a start-up error.
        if (application_names()[i] == "ts") {
            info.inputs = {"series"};
            info.check_inputs = [](const WorkloadParams& p) {
                if (!p.series.empty()) load_series(p.series, p.series_column);
            };
        } else {
            info.inputs = {"graph"};
            info.check_inputs = [](const WorkloadParams& p) {
                if (!p.graph.empty()) {
                    load_graph(p.graph, p.graph_format);
                    return;
                }
                // The same check rmat_graph() makes, here before anything is built or written.
                RmatParams r;
                r.scale = p.rmat_scale;
                r.edge_factor = p.rmat_edge_factor;
                check_rmat_fits(r);
            };
        }
        registry.add(application_names()[i], std::move(info));
    }
}

} // namespace syncron
