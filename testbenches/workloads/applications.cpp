#include "testbenches/workloads/applications.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "models/common/host_memory.h"
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
                // A generated graph too large for this host is refused with
                // the numbers, not met with std::bad_alloc after minutes.
                RmatParams r;
                r.scale = p.rmat_scale;
                r.edge_factor = p.rmat_edge_factor;
                const uint64_t need = rmat_build_bytes(r);
                const HostMemory have = host_memory_available();
                if (have.bytes != 0 && need > have.bytes)
                    throw std::invalid_argument("workload.rmat_scale=" + std::to_string(r.scale) +
                                                " with workload.rmat_edge_factor=" + std::to_string(r.edge_factor) +
                                                " draws " + std::to_string(uint64_t(r.edge_factor) << r.scale) +
                                                " edges: building the graph needs at least " +
                                                format_bytes(double(need)) + " of memory, more than the " +
                                                format_bytes(double(have.bytes)) + " available (" + have.what +
                                                "); choose a smaller scale or edge factor");
            };
        }
        registry.add(application_names()[i], std::move(info));
    }
}

} // namespace syncron
