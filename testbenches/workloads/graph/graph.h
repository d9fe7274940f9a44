#pragma once
// An undirected graph in compressed sparse row form, as the applications and
// their host references use it: vertices 0..n-1, each vertex's neighbours
// sorted and distinct, no self-loops, every edge stored in both directions.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace syncron {

struct Graph {
    uint32_t vertices = 0;
    std::vector<uint64_t> offsets;    ///< vertices + 1 entries; neighbours of v: [offsets[v], offsets[v+1])
    std::vector<uint32_t> neighbours; ///< 2 x undirected edges
    std::string source;               ///< where it came from, for messages and statistics

    uint64_t degree(uint32_t v) const { return offsets[v + 1] - offsets[v]; }
    uint64_t undirected_edges() const { return neighbours.size() / 2; }
    /// Whether u and v are adjacent (binary search in u's neighbours).
    bool adjacent(uint32_t u, uint32_t v) const;

    /// The undirected graph of `edges` over `vertices` vertices: both
    /// directions, self-loops and repeated edges dropped. Vertex IDs must be
    /// below `vertices` (the loaders check them first, with line numbers).
    static Graph from_edges(uint32_t vertices, std::vector<std::pair<uint32_t, uint32_t>> edges, std::string source);
};

} // namespace syncron
