#pragma once
// Plain C++ references for the graph applications' functional checks,
// computed on the host from the same graph (no simulation involved).
#include <cstdint>
#include <vector>

#include "testbenches/workloads/graph/graph.h"

namespace syncron {

constexpr uint64_t kUnreached = ~uint64_t(0);
constexpr double kPageRankDamping = 0.85;

/// The weight of edge {u, v} for SSSP: 1..15, a seeded hash of the pair,
/// the same in both directions.
uint32_t edge_weight(uint32_t u, uint32_t v, uint64_t seed);
/// The age of a vertex for teenage followers: 10..29, a seeded hash.
uint32_t vertex_age(uint32_t v, uint64_t seed);
inline bool is_teen(uint32_t age) { return age >= 13 && age <= 19; }

/// Hops from `source` (kUnreached where there is no path).
std::vector<uint64_t> bfs_levels(const Graph& g, uint32_t source);
/// The smallest vertex ID of each vertex's connected component.
std::vector<uint64_t> component_labels(const Graph& g);
/// Shortest distances from `source` with edge_weight (Dijkstra).
std::vector<uint64_t> shortest_distances(const Graph& g, uint32_t source, uint64_t seed);
/// PageRank after `iterations` synchronous steps from 1/n, damping 0.85;
/// a vertex without edges keeps only (1 - d) / n.
std::vector<double> pagerank(const Graph& g, unsigned iterations);
/// The same steps pulled (each vertex sums rank/degree over its neighbours,
/// in row order) with the dangling vertices' rank spread evenly over all n:
/// (1 - d) / n + d * (sum + dangling / n). The ranks sum to 1.
std::vector<double> pagerank_pull(const Graph& g, unsigned iterations);
/// Per vertex, how many of its neighbours are teenagers.
std::vector<uint64_t> teen_followers(const Graph& g, uint64_t seed);
/// Per vertex, the triangles it is part of.
std::vector<uint64_t> triangles(const Graph& g);

} // namespace syncron
