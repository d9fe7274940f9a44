#pragma once
// Which unit owns each vertex (its data, its lock, its row of the graph).
// contiguous: equal ranges of vertex IDs in order, as Crono splits its
// vertices over threads. metis: METIS's k-way partitioning (min edge cut),
// available when the build found libmetis (SYNCRON_HAVE_METIS).
#include <string>
#include <vector>

#include "testbenches/workloads/graph/graph.h"

namespace syncron {

/// Whether this build can partition with METIS.
bool metis_available();

/// The owner (0..parts-1) of every vertex; `method` contiguous or metis.
/// std::invalid_argument for another method, or metis without METIS.
std::vector<unsigned> partition_vertices(const Graph& g, unsigned parts, const std::string& method);

} // namespace syncron
