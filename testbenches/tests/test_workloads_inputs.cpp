// The applications' inputs: the SNAP and Matrix Market loaders, the R-MAT
// generator, the time-series loader and random walk, and their errors (file
// and line for a bad line, out-of-range IDs, empty inputs, missing files).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "models/common/params.h"
#include "testbenches/tests/sim_binary.h"
#include "testbenches/workloads/graph/graph_loader.h"
#include "testbenches/workloads/graph/graph_workload.h"
#include "testbenches/workloads/graph/rmat.h"
#include "testbenches/workloads/timeseries/series.h"

using namespace syncron;
using Catch::Matchers::Contains;

namespace {

const std::string kInputs = std::string(SYNCRON_SOURCE_DIR) + "/testbenches/inputs/";

/// A file with `text` in the temporary directory, removed at scope exit.
struct TempFile {
    std::string path;
    TempFile(const std::string& name, const std::string& text)
        : path(syncron::test::temp_path("syncron-inputs-test-", name)) {
        std::ofstream(path) << text;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

bool symmetric(const Graph& g) {
    for (uint32_t v = 0; v < g.vertices; ++v)
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i)
            if (g.neighbours[i] == v || !g.adjacent(g.neighbours[i], v)) return false;
    return true;
}

} // namespace

TEST_CASE("inputs: the shipped SNAP edge list loads as an undirected graph", "[workloads][inputs]") {
    const Graph g = load_graph(kInputs + "small.snap", "");
    CHECK(g.vertices == 48);            // IDs 0..47, vertex 40 without edges
    CHECK(g.undirected_edges() == 106); // 107 lines, one edge listed in both directions
    CHECK(g.degree(40) == 0);
    CHECK(g.adjacent(0, 1));
    CHECK(g.adjacent(1, 0)); // both directions
    CHECK(symmetric(g));
}

TEST_CASE("inputs: the shipped Matrix Market file loads (1-based, symmetric)", "[workloads][inputs]") {
    const Graph g = load_graph(kInputs + "small.mtx", "");
    CHECK(g.vertices == 30);
    CHECK(g.undirected_edges() == 69);
    CHECK(g.adjacent(0, 1)); // entry "2 1"
    CHECK(g.adjacent(0, 6)); // entry "7 1": the diagonal of the first square
    CHECK(symmetric(g));
}

TEST_CASE("inputs: the format follows the extension unless given", "[workloads][inputs]") {
    TempFile mtx_as_txt("mtx.txt", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n");
    CHECK_THROWS_WITH(load_graph(mtx_as_txt.path, ""), Contains("mtx.txt:2") && Contains("two vertex IDs"));
    const Graph g = load_graph(mtx_as_txt.path, "mtx");
    CHECK(g.vertices == 3);
    CHECK(g.undirected_edges() == 2);
    TempFile snap("edges.mtx", "0 1\n1 2\n");
    CHECK(load_graph(snap.path, "snap").undirected_edges() == 2);
    CHECK_THROWS_WITH(load_graph(snap.path, "csv"), Contains("graph_format"));
}

TEST_CASE("inputs: repeated edges, both directions and self-loops count once", "[workloads][inputs]") {
    TempFile f("dups.snap", "# c\n% also a comment\n\n0 1\n1 0\n0 1\n2 2\n1\t2\r\n");
    const Graph g = load_snap(f.path);
    CHECK(g.vertices == 3);
    CHECK(g.undirected_edges() == 2);
    CHECK(g.degree(2) == 1);
}

TEST_CASE("inputs: SNAP errors name the file and the line", "[workloads][inputs]") {
    SECTION("missing file") {
        CHECK_THROWS_WITH(load_snap("/nonexistent/graph.txt"),
                          Contains("'/nonexistent/graph.txt'") && Contains("cannot be opened"));
    }
    SECTION("a line with one ID") {
        TempFile f("one.snap", "# header\n0 1\n2\n");
        CHECK_THROWS_WITH(load_snap(f.path), Contains(f.path + ":3:") && Contains("two vertex IDs"));
    }
    SECTION("a word instead of an ID") {
        TempFile f("word.snap", "0 1\n1 x2\n");
        CHECK_THROWS_WITH(load_snap(f.path), Contains(f.path + ":2:") && Contains("'x2' is not a vertex ID"));
    }
    SECTION("a negative ID") {
        TempFile f("neg.snap", "0 -1\n");
        CHECK_THROWS_WITH(load_snap(f.path), Contains(f.path + ":1:") && Contains("'-1'"));
    }
    SECTION("an ID out of range") {
        TempFile f("big.snap", "0 1\n0 4294967296\n");
        CHECK_THROWS_WITH(load_snap(f.path), Contains(f.path + ":2:") && Contains("out of range"));
    }
    SECTION("no edges") {
        TempFile f("empty.snap", "# nothing here\n\n");
        CHECK_THROWS_WITH(load_snap(f.path), Contains("no edges") && Contains("empty graph"));
    }
    SECTION("only self-loops") {
        TempFile f("loops.snap", "1 1\n2 2\n");
        CHECK_THROWS_WITH(load_snap(f.path), Contains("no edges"));
    }
}

TEST_CASE("inputs: Matrix Market errors name the file and the line", "[workloads][inputs]") {
    SECTION("missing file") {
        CHECK_THROWS_WITH(load_matrix_market("/nonexistent/g.mtx"), Contains("cannot be opened"));
    }
    SECTION("a symmetry a graph does not have") {
        TempFile f("herm.mtx", "%%MatrixMarket matrix coordinate pattern hermitian\n3 3 1\n1 2\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains(f.path + ":1:") && Contains("symmetry 'hermitian'"));
    }
    SECTION("a folder") {
        CHECK_THROWS_WITH(load_matrix_market(syncron::test::temp_dir()), Contains("is a folder, not a file"));
        CHECK_THROWS_WITH(load_snap(syncron::test::temp_dir()), Contains("is a folder, not a file"));
        CHECK_THROWS_WITH(load_series(syncron::test::temp_dir(), 1), Contains("is a folder, not a file"));
    }
    SECTION("no header") {
        TempFile f("nohead.mtx", "3 3 1\n1 2\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains(f.path + ":1:") && Contains("header"));
    }
    SECTION("a dense array") {
        TempFile f("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains(":1:") && Contains("coordinate"));
    }
    SECTION("a complex matrix") {
        TempFile f("complex.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains("complex"));
    }
    SECTION("a non-square matrix") {
        TempFile f("rect.mtx", "%%MatrixMarket matrix coordinate pattern general\n% c\n3 4 1\n1 2\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains(f.path + ":3:") && Contains("square"));
    }
    SECTION("a vertex out of range") {
        TempFile f("range.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path),
                          Contains(f.path + ":4:") && Contains("vertex 4 out of range (1..3)"));
    }
    SECTION("index 0 (the format is 1-based)") {
        TempFile f("zero.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 1\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains(f.path + ":3:") && Contains("out of range"));
    }
    SECTION("a missing value in a real matrix") {
        TempFile f("real.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0.5\n3 1\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains(f.path + ":4:") && Contains("row column value"));
    }
    SECTION("fewer entries than declared") {
        TempFile f("short.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains("1 of the 3 entries"));
    }
    SECTION("more entries than declared") {
        TempFile f("long.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains(f.path + ":4:") && Contains("more entries"));
    }
    SECTION("an empty matrix") {
        TempFile f("none.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 0\n");
        CHECK_THROWS_WITH(load_matrix_market(f.path), Contains("no edges"));
    }
}

TEST_CASE("inputs: R-MAT is seeded, undirected and skewed", "[workloads][inputs]") {
    RmatParams p;
    p.scale = 10;
    p.edge_factor = 8;
    const Graph a = rmat_graph(p), b = rmat_graph(p);
    CHECK(a.vertices == 1024);
    CHECK(a.neighbours == b.neighbours);
    CHECK(a.offsets == b.offsets);
    CHECK(symmetric(a));
    // 8192 edges drawn; repeats and self-loops dropped, most survive.
    CHECK(a.undirected_edges() > 6000);
    CHECK(a.undirected_edges() <= 8192);
    // Graph500's a = 0.57 concentrates edges: the top vertex has many times the mean degree.
    uint64_t top = 0;
    for (uint32_t v = 0; v < a.vertices; ++v) top = std::max(top, a.degree(v));
    CHECK(top > 8 * (2 * a.undirected_edges() / a.vertices));
    p.seed = 2;
    CHECK(rmat_graph(p).neighbours != a.neighbours);
    p.scale = 0;
    CHECK_THROWS_WITH(rmat_graph(p), Contains("scale"));
}

TEST_CASE("inputs: a series loads from lines or a CSV column", "[workloads][inputs]") {
    const Series lines = load_series(kInputs + "series.txt", 1);
    const Series csv = load_series(kInputs + "series.csv", 2); // after the header "time,value"
    REQUIRE(lines.values.size() == 96);
    CHECK(csv.values == lines.values);
    CHECK(load_series(kInputs + "series.csv", 1).values.at(5) == 5.0);
    const Series walk = random_walk(100, 3);
    CHECK(walk.values.size() == 100);
    CHECK(walk.values == random_walk(100, 3).values);
    CHECK(walk.values != random_walk(100, 4).values);
    for (size_t i = 1; i < walk.values.size(); ++i) CHECK(std::abs(walk.values[i] - walk.values[i - 1]) <= 1.0);
}

TEST_CASE("inputs: series errors name the file and the line", "[workloads][inputs]") {
    CHECK_THROWS_WITH(load_series("/nonexistent/s.txt", 1), Contains("cannot be opened"));
    TempFile bad("bad.txt", "1.5\n2\nabc\n");
    CHECK_THROWS_WITH(load_series(bad.path, 1), Contains(bad.path + ":3:") && Contains("'abc' is not a number"));
    TempFile column("col.csv", "a,b\n1,2\n3\n");
    CHECK_THROWS_WITH(load_series(column.path, 2), Contains(column.path + ":3:") && Contains("1 column(s)"));
    TempFile empty("empty.txt", "# only a comment\n");
    CHECK_THROWS_WITH(load_series(empty.path, 1), Contains("no values"));
    TempFile inf("inf.txt", "1\ninf\n");
    CHECK_THROWS_WITH(load_series(inf.path, 1), Contains(inf.path + ":2:") && Contains("not finite"));
}

TEST_CASE("inputs: an R-MAT graph larger than the host's memory is refused before it is generated",
          "[workloads][inputs]") {
    RmatParams p;
    p.scale = 26;
    p.edge_factor = 1024; // 69 billion edges: 1.5 TiB for the generation alone
    CHECK(rmat_build_bytes(p) == 24 * (uint64_t(1024) << 26) + 12 * (uint64_t(1) << 26));
    CHECK_THROWS_WITH(rmat_graph(p), Catch::Contains("building the graph needs at least 1.5 TiB of memory") &&
                                         Catch::Contains("workload.rmat_edge_factor=1024"));
    p.scale = 10;
    p.edge_factor = 8; // small: generated as always
    CHECK_NOTHROW(check_rmat_fits(p));
    CHECK(rmat_graph(p).vertices == 1024);
}

TEST_CASE("inputs: a graph whose vertices cannot fit a unit's memory is refused from its vertex count",
          "[workloads][inputs]") {
    SimParams sim;
    sim.workload.name = "bfs";
    sim.platform.units = 4;
    sim.memory.unit_bytes = 1ull << 20; // 1 MiB per unit: 4 MiB in all
    // 80 B per vertex and 4 B per edge end spread over 4 units: 52,428 vertices fill them.
    CHECK_NOTHROW(check_graph_fits_platform(52428, 0, sim, "g", "advice"));
    CHECK_THROWS_WITH(check_graph_fits_platform(52429, 0, sim, "g", "advice"),
                      Contains("workload bfs: g has 52429 vertices: at least 1.0 MiB per unit over 4 units") &&
                          Contains("more than memory.unit_bytes = 1.0 MiB; advice"));
    CHECK_THROWS_WITH(check_graph_fits_platform(52428, 64, sim, "g", "advice"), Contains("and 64 edge ends"));
    // A SNAP file with one large vertex ID: read (not built) and refused by its vertex count.
    TempFile sparse("sparse.txt", "0 1\n1 268435455\n");
    const EdgeList list = read_graph_file(sparse.path, "");
    CHECK(list.vertices == 268435456u);
    CHECK(list.edges.size() == 2);
    sim.memory.unit_bytes = 1ull << 30;
    CHECK_THROWS_WITH(check_graph_fits_platform(list.vertices, 0, sim, "graph file", "advice"),
                      Contains("at least 5.0 GiB per unit"));
}
