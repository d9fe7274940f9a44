#include "testbenches/workloads/graph/partition.h"

#include <stdexcept>

#ifdef SYNCRON_HAVE_METIS
#include <metis.h>
#endif

namespace syncron {
namespace {

std::vector<unsigned> contiguous(const Graph& g, unsigned parts) {
    std::vector<unsigned> owner(g.vertices);
    for (uint32_t v = 0; v < g.vertices; ++v) owner[v] = static_cast<unsigned>(uint64_t(v) * parts / g.vertices);
    return owner;
}

#ifdef SYNCRON_HAVE_METIS
std::vector<unsigned> metis(const Graph& g, unsigned parts) {
    if (parts == 1) return std::vector<unsigned>(g.vertices, 0);
    idx_t n = static_cast<idx_t>(g.vertices), constraints = 1, k = static_cast<idx_t>(parts), cut = 0;
    std::vector<idx_t> xadj(g.offsets.begin(), g.offsets.end());
    std::vector<idx_t> adjncy(g.neighbours.begin(), g.neighbours.end());
    std::vector<idx_t> part(g.vertices, 0);
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1; // the same partition on every run
    const int rc = METIS_PartGraphKway(&n, &constraints, xadj.data(), adjncy.data(), nullptr, nullptr, nullptr, &k,
                                       nullptr, nullptr, options, &cut, part.data());
    if (rc != METIS_OK)
        throw std::invalid_argument("workload.partition=metis: METIS_PartGraphKway failed (code " + std::to_string(rc) +
                                    ") on " + g.source);
    std::vector<unsigned> owner(g.vertices);
    for (uint32_t v = 0; v < g.vertices; ++v) owner[v] = static_cast<unsigned>(part[v]);
    return owner;
}
#endif

} // namespace

bool metis_available() {
#ifdef SYNCRON_HAVE_METIS
    return true;
#else
    return false;
#endif
}

std::vector<unsigned> partition_vertices(const Graph& g, unsigned parts, const std::string& method) {
    if (parts == 0) throw std::invalid_argument("partition_vertices: no parts");
    if (method == "contiguous") return contiguous(g, parts);
    if (method == "metis") {
#ifdef SYNCRON_HAVE_METIS
        return metis(g, parts);
#else
        throw std::invalid_argument("workload.partition=metis: this build has no METIS (install libmetis-dev, "
                                    "e.g. with scripts/deps.sh, and re-run cmake)");
#endif
    }
    throw std::invalid_argument("workload.partition must be contiguous or metis, got '" + method + "'");
}

} // namespace syncron
