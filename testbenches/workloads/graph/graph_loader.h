#pragma once
// Graph files as researchers have them: SNAP edge lists and Matrix Market
// coordinate files. Every error names the file, and the line for a bad line.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "testbenches/workloads/graph/graph.h"

namespace syncron {

/// The largest vertex ID a file may use: vertices get an 8-byte value, a lock
/// and their row offset in simulated memory, so IDs are kept well in range.
constexpr uint32_t kMaxVertexId = (1u << 28) - 1;

/// A graph file as read, before the graph is built: what can be checked
/// against the platform without building it (a large vertex ID alone asks for
/// gigabytes of per-vertex state).
struct EdgeList {
    uint32_t vertices = 0; ///< the largest vertex ID + 1 (SNAP) or the declared size (Matrix Market)
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    std::string source; ///< the file
};

/// A SNAP edge list: one edge per line as two whitespace-separated vertex IDs
/// (0-based), lines starting with '#' or '%' and blank lines ignored.
Graph load_snap(const std::string& path);
/// A Matrix Market coordinate file (pattern, integer or real; general or
/// symmetric): a square matrix whose entries (1-based) are the edges, values ignored.
Graph load_matrix_market(const std::string& path);
/// `format` "snap" or "mtx"; empty: Matrix Market for a name ending in .mtx,
/// otherwise SNAP. std::invalid_argument with the file (and line) on errors.
Graph load_graph(const std::string& path, const std::string& format);
/// The same file read and checked line by line but not built.
EdgeList read_graph_file(const std::string& path, const std::string& format);
/// The graph of an edge list read above (std::invalid_argument when only self-loops remain).
Graph build_graph(EdgeList list);

} // namespace syncron
