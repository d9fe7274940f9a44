#include "testbenches/workloads/graph/rmat.h"

#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/common/host_memory.h"
#include "models/common/stop_request.h"

namespace syncron {
namespace {

/// A uniform double in [0, 1) from 53 random bits (the same on every library,
/// unlike std::uniform_real_distribution).
double unit_real(std::mt19937_64& rng) { return double(rng() >> 11) * 0x1.0p-53; }

} // namespace

uint64_t rmat_build_bytes(const RmatParams& p) {
    const uint64_t n = uint64_t(1) << p.scale;
    const uint64_t m = uint64_t(p.edge_factor) << p.scale;
    // 8 B per drawn edge and 16 B for its two directions, held together in
    // Graph::from_edges; a vertex's label and offset, 12 B.
    return 24 * m + 12 * n;
}

void check_rmat_fits(const RmatParams& p) {
    const uint64_t need = rmat_build_bytes(p);
    const HostMemory have = host_memory_available();
    if (have.bytes == 0 || need <= have.bytes) return;
    throw std::invalid_argument("workload.rmat_scale=" + std::to_string(p.scale) +
                                " with workload.rmat_edge_factor=" + std::to_string(p.edge_factor) + " draws " +
                                std::to_string(uint64_t(p.edge_factor) << p.scale) +
                                " edges: building the graph needs at least " + format_bytes(double(need)) +
                                " of memory, more than the " + format_bytes(double(have.bytes)) + " available (" +
                                have.what + "); choose a smaller scale or edge factor");
}

Graph rmat_graph(const RmatParams& p) {
    if (p.scale < 1 || p.scale > 26)
        throw std::invalid_argument("R-MAT scale must be in 1..26, got " + std::to_string(p.scale));
    if (p.edge_factor < 1) throw std::invalid_argument("R-MAT edge factor must be at least 1");
    if (p.a < 0 || p.b < 0 || p.c < 0 || p.a + p.b + p.c > 1)
        throw std::invalid_argument("R-MAT probabilities a, b, c must be non-negative with a + b + c <= 1");
    check_rmat_fits(p); // a library caller gets the same refusal as syncron-sim
    const uint32_t n = 1u << p.scale;
    const uint64_t m = uint64_t(p.edge_factor) << p.scale;
    std::mt19937_64 rng(p.seed * 0x9E3779B97F4A7C15ull + 0x52A7);
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    edges.reserve(m);
    for (uint64_t e = 0; e < m; ++e) {
        check_stop(e, "generating the R-MAT graph");
        uint32_t u = 0, v = 0;
        for (unsigned bit = 0; bit < p.scale; ++bit) {
            const double r = unit_real(rng);
            const bool down = r >= p.a + p.b;                                       // quadrants c and d
            const bool right = (r >= p.a && r < p.a + p.b) || r >= p.a + p.b + p.c; // b and d
            u = (u << 1) | (down ? 1u : 0u);
            v = (v << 1) | (right ? 1u : 0u);
        }
        edges.emplace_back(u, v);
    }
    // Seeded relabelling (Fisher-Yates).
    std::vector<uint32_t> label(n);
    for (uint32_t i = 0; i < n; ++i) label[i] = i;
    for (uint32_t i = n - 1; i > 0; --i) std::swap(label[i], label[rng() % (uint64_t(i) + 1)]);
    for (auto& [u, v] : edges) {
        u = label[u];
        v = label[v];
    }
    return Graph::from_edges(n, std::move(edges),
                             "R-MAT scale " + std::to_string(p.scale) + ", edge factor " +
                                 std::to_string(p.edge_factor) + ", seed " + std::to_string(p.seed));
}

} // namespace syncron
