#include "testbenches/workloads/applications.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "platforms/workload_registry.h"
#include "testbenches/workloads/graph/graph_loader.h"
#include "testbenches/workloads/graph/graph_workload.h"
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
            info.check_inputs = [](const SimParams& sim) {
                const WorkloadParams& p = sim.workload;
                if (!p.series.empty()) load_series(p.series, p.series_column);
            };
        } else {
            info.inputs = {"graph"};
            // Their per-vertex updates are single words (ts's profile entry is a
            // pair, distance and index, that must change together).
            info.se_atomics = true;
            info.check_inputs = [](const SimParams& sim) {
                const WorkloadParams& p = sim.workload;
                if (!p.graph.empty()) {
                    const std::string what = "graph file '" + p.graph + "'";
                    const std::string advice = "vertex IDs are array indices: renumber sparse IDs from 0, or give "
                                               "the platform more memory (memory.unit_bytes)";
                    EdgeList list = read_graph_file(p.graph, p.graph_format);
                    // Its vertices first, before the graph is built (they alone can ask for gigabytes).
                    check_graph_fits_platform(list.vertices, 0, sim, what, advice);
                    const Graph g = build_graph(std::move(list));
                    check_graph_fits_platform(g.vertices, g.neighbours.size(), sim, what, advice);
                    return;
                }
                // The same check rmat_graph() makes, here before anything is built or written.
                RmatParams r;
                r.scale = p.rmat_scale;
                r.edge_factor = p.rmat_edge_factor;
                check_rmat_fits(r);
                // Its vertices alone (how many edges survive is known only once it is drawn).
                check_graph_fits_platform(
                    uint64_t(1) << std::min(p.rmat_scale, 63u), 0, sim,
                    "the R-MAT graph of workload.rmat_scale=" + std::to_string(p.rmat_scale),
                    "choose a smaller scale or give the platform more memory (memory.unit_bytes)");
            };
        }
        registry.add(application_names()[i], std::move(info));
    }
}

} // namespace syncron
