#pragma once
// The R-MAT generator (Chakrabarti, Zhan, Faloutsos, SDM 2004) with the
// Graph500 parameters by default: each of edge_factor * 2^scale edges picks
// one quadrant of the adjacency matrix per bit of its endpoints with
// probabilities a, b, c and d = 1 - a - b - c; the vertex IDs are then
// permuted (seeded) as Graph500 does, so that high-degree vertices are not
// all at the low IDs. The result is undirected, without self-loops or repeats.
#include <cstdint>

#include "testbenches/workloads/graph/graph.h"

namespace syncron {

struct RmatParams {
    unsigned scale = 8;       ///< 2^scale vertices
    unsigned edge_factor = 8; ///< edges drawn per vertex (before repeats and self-loops are dropped)
    double a = 0.57, b = 0.19, c = 0.19;
    uint64_t seed = 1;
};

/// Same parameters and seed give the same graph on every host.
Graph rmat_graph(const RmatParams& p);

/// The memory rmat_graph() holds at its peak (the drawn edges and both
/// directions of each at once, then the CSR arrays), a lower bound of what a
/// run on the graph needs: checked before generating.
uint64_t rmat_build_bytes(const RmatParams& p);

/// Throws std::invalid_argument, with the need, the limit and the keys to
/// change, when rmat_build_bytes() exceeds the memory the host has available
/// (models/common/host_memory.h). rmat_graph() calls it first.
void check_rmat_fits(const RmatParams& p);

} // namespace syncron
