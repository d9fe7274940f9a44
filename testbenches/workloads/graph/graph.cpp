#include "testbenches/workloads/graph/graph.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/common/host_memory.h"
#include "models/common/stop_request.h"

namespace syncron {

bool Graph::adjacent(uint32_t u, uint32_t v) const {
    const auto first = neighbours.begin() + static_cast<std::ptrdiff_t>(offsets[u]);
    const auto last = neighbours.begin() + static_cast<std::ptrdiff_t>(offsets[u + 1]);
    return std::binary_search(first, last, v);
}

Graph Graph::from_edges(uint32_t vertices, std::vector<std::pair<uint32_t, uint32_t>> edges, std::string source) {
    Graph g;
    g.vertices = vertices;
    g.source = std::move(source);
    // What is built below, on top of `edges`: both directions (8 B each), the
    // offsets and the neighbours. A large vertex ID alone can ask for gigabytes.
    const uint64_t need = 16 * uint64_t(edges.size()) + 8 * (uint64_t(vertices) + 1) + 8 * uint64_t(edges.size());
    const HostMemory have = host_memory_available();
    if (have.bytes != 0 && need > have.bytes)
        throw std::invalid_argument(g.source + ": " + std::to_string(vertices) + " vertices and " +
                                    std::to_string(edges.size()) + " edges need at least " +
                                    format_bytes(double(need)) + " of memory to build, more than the " +
                                    format_bytes(double(have.bytes)) + " available (" + have.what + ")");
    // Both directions of every edge but self-loops, sorted, duplicates dropped.
    std::vector<std::pair<uint32_t, uint32_t>> both;
    both.reserve(edges.size() * 2);
    uint64_t step = 0;
    for (const auto& [u, v] : edges) {
        check_stop(++step, "building the graph");
        if (u >= vertices || v >= vertices)
            throw std::invalid_argument(g.source + ": vertex " + std::to_string(std::max(u, v)) +
                                        " out of range (the graph has " + std::to_string(vertices) + " vertices)");
        if (u == v) continue;
        both.emplace_back(u, v);
        both.emplace_back(v, u);
    }
    edges.clear();
    edges.shrink_to_fit();
    check_stop(0, "building the graph"); // the sort below runs for seconds on a large graph
    std::sort(both.begin(), both.end());
    check_stop(0, "building the graph");
    both.erase(std::unique(both.begin(), both.end()), both.end());
    g.offsets.assign(uint64_t(vertices) + 1, 0);
    g.neighbours.reserve(both.size());
    for (const auto& [u, v] : both) {
        ++g.offsets[u + 1];
        g.neighbours.push_back(v);
    }
    for (uint32_t v = 0; v < vertices; ++v) g.offsets[v + 1] += g.offsets[v];
    return g;
}

} // namespace syncron
