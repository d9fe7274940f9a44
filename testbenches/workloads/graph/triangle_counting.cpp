// Triangle counting (Crono's tc, push style): a core takes each of its
// vertices v, reads its neighbours once, and for every neighbour u > v
// walks u's neighbours w > u, looking each up in v's (sorted) neighbours;
// for every triangle {v, u, w} found it increments the counts of v, u and w,
// each under that vertex's lock. A barrier ends the pass. The check compares
// each vertex's count and the total (sum / 3) with the host reference.
// Cost: per vertex 2 + deg(v) loads; per neighbour u > v 2 + (neighbours of u)
// loads; per triangle three lock/unlock pairs, each with 1 load and 1 store.
// workload.use_se_atomics: per triangle three atomic_rmw fetch_add of 1
// instead (the counts are integers; the old values are not needed).
#include <algorithm>

#include "testbenches/workloads/applications.h"
#include "testbenches/workloads/graph/check_values.h"
#include "testbenches/workloads/graph/graph_reference.h"
#include "testbenches/workloads/graph/graph_workload.h"

namespace syncron {
namespace {

class Triangles final : public GraphWorkload {
public:
    explicit Triangles(const WorkloadParams& p) : GraphWorkload(p), m_count(add_array("triangles", Sharing::shared)) {}

protected:
    void initialise(Driver& d) override {
        m_triangles = 0;
        for (uint32_t v = 0; v < graph().vertices; ++v) write(d, m_count, v, 0);
    }

    void program(CoreApi& c, const std::vector<uint32_t>& mine) override {
        note_iteration(1);
        std::vector<uint32_t> adjacent; // v's neighbours, kept by the core
        for (uint32_t v : mine) {
            const Row rv = row(c, v);
            adjacent.clear();
            for (uint64_t i = 0; i < rv.degree(); ++i) adjacent.push_back(neighbour(c, rv, i));
            for (uint32_t u : adjacent) {
                if (u <= v) continue;
                const Row ru = row(c, u);
                for (uint64_t j = 0; j < ru.degree(); ++j) {
                    const uint32_t w = neighbour(c, ru, j);
                    c.compute(4); // the lookup in v's sorted neighbours
                    if (w <= u || !std::binary_search(adjacent.begin(), adjacent.end(), w)) continue;
                    ++m_triangles;
                    for (uint32_t x : {v, u, w}) {
                        if (use_rmw()) {
                            rmw(c, m_count, x, RmwOp::fetch_add, 1);
                            continue;
                        }
                        lock(c, x);
                        store(c, m_count, x, load(c, m_count, x) + 1);
                        unlock(c, x);
                    }
                }
            }
        }
        barrier(c);
    }

    void verify(Driver& d, CheckResult& r) override {
        const auto expected = triangles(graph());
        uint64_t got_total = 0, expected_total = 0;
        for (uint32_t v = 0; v < graph().vertices; ++v) {
            got_total += read(d, m_count, v);
            expected_total += expected[v];
        }
        if (got_total != expected_total)
            r.fail("tc: " + std::to_string(got_total / 3) + " triangles counted, expected " +
                   std::to_string(expected_total / 3));
        compare_per_vertex(
            "tc counts", graph().vertices, [&](uint32_t v) { return read(d, m_count, v) == expected[v]; },
            [&](uint32_t v) {
                return "vertex " + std::to_string(v) + " is in " + std::to_string(read(d, m_count, v)) +
                       " triangles, expected " + std::to_string(expected[v]);
            },
            r);
    }

    void report_extra(nlohmann::json& out) const override { out["triangles"] = m_triangles; }

private:
    unsigned m_count;
    uint64_t m_triangles = 0;
};

} // namespace

std::unique_ptr<Workload> make_tc(const WorkloadParams& p) { return std::make_unique<Triangles>(p); }

} // namespace syncron
