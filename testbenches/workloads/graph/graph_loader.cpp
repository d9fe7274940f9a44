#include "testbenches/workloads/graph/graph_loader.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "models/common/input_file.h"
#include "models/common/stop_request.h"

namespace syncron {
namespace {

using Edges = std::vector<std::pair<uint32_t, uint32_t>>;

std::ifstream open_or_throw(const std::string& path) {
    const std::string problem = input_file_problem(path);
    if (!problem.empty()) throw std::invalid_argument("graph file '" + excerpt(path, kQuotedMax) + "' " + problem);
    std::ifstream in(path);
    if (!in)
        throw std::invalid_argument("graph file '" + excerpt(path, kQuotedMax) +
                                    "' cannot be opened (missing or unreadable)");
    return in;
}

[[noreturn]] void bad_line(const std::string& path, uint64_t line, const std::string& what) {
    throw std::invalid_argument(excerpt(path, kQuotedMax) + ":" + std::to_string(line) + ": " + what);
}

/// The whitespace-separated fields of a line.
std::vector<std::string> fields_of(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string f; in >> f;) out.push_back(f);
    return out;
}

/// A non-negative integer field; nullopt-like failure reported by the caller.
bool parse_id(const std::string& text, uint64_t& out) {
    if (text.empty() || text.size() > 19) return false;
    uint64_t v = 0;
    for (char ch : text) {
        if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
        v = v * 10 + static_cast<uint64_t>(ch - '0');
    }
    out = v;
    return true;
}

bool is_number(const std::string& text) {
    if (text.empty()) return false;
    std::istringstream in(text);
    double d = 0;
    in >> d;
    return !in.fail() && in.eof();
}

bool blank(const std::string& line) {
    return std::all_of(line.begin(), line.end(), [](char ch) { return std::isspace(static_cast<unsigned char>(ch)); });
}

std::string lower(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

void require_edges(const std::string& path, const Graph& g) {
    if (g.undirected_edges() == 0)
        throw std::invalid_argument("graph file '" + path + "' has no edges (an empty graph; self-loops are dropped)");
}

} // namespace

EdgeList read_snap(const std::string& path) {
    std::ifstream in = open_or_throw(path);
    Edges edges;
    uint64_t max_id = 0;
    uint64_t number = 0;
    for (std::string line; std::getline(in, line);) {
        check_stop(++number, "reading the graph file");
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (blank(line) || line.find_first_not_of(" \t") == line.find_first_of("#%")) continue;
        const auto f = fields_of(line);
        if (f.size() != 2)
            bad_line(path, number, "expected two vertex IDs separated by whitespace, got '" + excerpt(line) + "'");
        uint64_t ids[2];
        for (unsigned i = 0; i < 2; ++i) {
            if (!parse_id(f[i], ids[i]))
                bad_line(path, number, "'" + excerpt(f[i]) + "' is not a vertex ID (a non-negative integer)");
            if (ids[i] > kMaxVertexId)
                bad_line(path, number,
                         "vertex ID " + f[i] + " out of range (at most " + std::to_string(kMaxVertexId) + ")");
        }
        max_id = std::max({max_id, ids[0], ids[1]});
        edges.emplace_back(static_cast<uint32_t>(ids[0]), static_cast<uint32_t>(ids[1]));
    }
    if (edges.empty()) throw std::invalid_argument("graph file '" + path + "' has no edges (an empty graph)");
    return EdgeList{static_cast<uint32_t>(max_id + 1), std::move(edges), path};
}

EdgeList read_matrix_market(const std::string& path) {
    std::ifstream in = open_or_throw(path);
    uint64_t number = 0;
    std::string line;
    if (!std::getline(in, line)) throw std::invalid_argument("graph file '" + path + "' is empty (an empty graph)");
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto header = fields_of(lower(line));
    if (header.size() != 5 || header[0] != "%%matrixmarket" || header[1] != "matrix")
        bad_line(path, number, "expected a Matrix Market header '%%MatrixMarket matrix coordinate <field> <symmetry>'");
    if (header[2] != "coordinate")
        bad_line(path, number,
                 "only coordinate (sparse) Matrix Market files are graphs, not '" + excerpt(header[2]) + "'");
    const std::string& field = header[3];
    if (field != "pattern" && field != "integer" && field != "real" && field != "double")
        bad_line(path, number, "field '" + excerpt(field) + "' is not supported (pattern, integer or real)");
    // Edges are undirected either way; any other symmetry (skew-symmetric,
    // hermitian) describes values a graph does not have.
    const std::string& symmetry = header[4];
    if (symmetry != "general" && symmetry != "symmetric")
        bad_line(path, number, "symmetry '" + excerpt(symmetry) + "' is not supported (general or symmetric)");
    const unsigned columns = field == "pattern" ? 2 : 3;
    // The size line: rows, columns, entries.
    uint64_t rows = 0, cols = 0, entries = 0;
    bool sized = false;
    Edges edges;
    uint64_t seen = 0;
    while (std::getline(in, line)) {
        check_stop(++number, "reading the graph file");
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (blank(line) || line.find_first_not_of(" \t") == line.find('%')) continue;
        const auto f = fields_of(line);
        if (!sized) {
            if (f.size() != 3 || !parse_id(f[0], rows) || !parse_id(f[1], cols) || !parse_id(f[2], entries))
                bad_line(path, number, "expected the size line 'rows columns entries', got '" + excerpt(line) + "'");
            if (rows != cols) bad_line(path, number, "a graph's matrix is square; this one is " + f[0] + " x " + f[1]);
            if (rows == 0 || rows > uint64_t(kMaxVertexId) + 1)
                bad_line(path, number,
                         "vertex count " + f[0] + " out of range (1.." + std::to_string(uint64_t(kMaxVertexId) + 1) +
                             ")");
            sized = true;
            edges.reserve(std::min<uint64_t>(entries, uint64_t(1) << 26));
            continue;
        }
        if (f.size() != columns)
            bad_line(path, number,
                     "expected " + std::string(columns == 2 ? "'row column'" : "'row column value'") + " for a " +
                         field + " matrix, got '" + excerpt(line) + "'");
        uint64_t ij[2];
        for (unsigned i = 0; i < 2; ++i) {
            if (!parse_id(f[i], ij[i]))
                bad_line(path, number, "'" + excerpt(f[i]) + "' is not a row or column index (a positive integer)");
            if (ij[i] < 1 || ij[i] > rows)
                bad_line(path, number, "vertex " + excerpt(f[i]) + " out of range (1.." + std::to_string(rows) + ")");
        }
        if (columns == 3 && !is_number(f[2])) bad_line(path, number, "'" + excerpt(f[2]) + "' is not a number");
        if (++seen > entries)
            bad_line(path, number, "more entries than the " + std::to_string(entries) + " the size line declares");
        edges.emplace_back(static_cast<uint32_t>(ij[0] - 1), static_cast<uint32_t>(ij[1] - 1));
    }
    if (!sized) throw std::invalid_argument("graph file '" + path + "' has no size line (an empty graph)");
    if (seen < entries)
        throw std::invalid_argument(path + ":" + std::to_string(number) + ": the file ends after " +
                                    std::to_string(seen) + " of the " + std::to_string(entries) +
                                    " entries its size line declares");
    if (edges.empty()) throw std::invalid_argument("graph file '" + path + "' has no edges (an empty graph)");
    return EdgeList{static_cast<uint32_t>(rows), std::move(edges), path};
}

Graph build_graph(EdgeList list) {
    const std::string path = list.source;
    Graph g = Graph::from_edges(list.vertices, std::move(list.edges), std::move(list.source));
    require_edges(path, g);
    return g;
}

Graph load_snap(const std::string& path) { return build_graph(read_snap(path)); }

Graph load_matrix_market(const std::string& path) { return build_graph(read_matrix_market(path)); }

EdgeList read_graph_file(const std::string& path, const std::string& format) {
    std::string f = format;
    if (f.empty()) f = ends_with(lower(path), ".mtx") ? "mtx" : "snap";
    if (f == "mtx") return read_matrix_market(path);
    if (f == "snap") return read_snap(path);
    throw std::invalid_argument("workload.graph_format must be snap or mtx, got '" + format + "'");
}

Graph load_graph(const std::string& path, const std::string& format) {
    return build_graph(read_graph_file(path, format));
}

} // namespace syncron
