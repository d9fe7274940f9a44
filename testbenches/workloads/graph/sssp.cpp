// Single-source shortest paths (Crono's sssp, push style Bellman-Ford) from
// the source (the vertex of highest degree), edge weights 1..15 (a seeded
// hash of the edge, graph_reference.h; stored beside the neighbours). In
// iteration k a core takes each of its vertices whose distance changed in
// iteration k - 1 and relaxes every edge whose candidate is below the
// distance it reads (CRONO's test before the lock) under the neighbour's lock,
// recording that the neighbour changed in k. A barrier ends each iteration;
// the run stops after one that changed nothing.
// Cost: as cc, plus 1 load of the weight per edge.
// workload.use_se_atomics: as cc's, an atomic_rmw min of the candidate
// distance, then the store of k into changed_in where it lowered the distance.
// workload.test_before_lock=false: as cc's, every edge locked (or sent the
// rmw), the former protocol.
#include "testbenches/workloads/applications.h"
#include "testbenches/workloads/graph/check_values.h"
#include "testbenches/workloads/graph/graph_reference.h"
#include "testbenches/workloads/graph/graph_workload.h"

namespace syncron {
namespace {

class Sssp final : public GraphWorkload {
public:
    explicit Sssp(const WorkloadParams& p)
        : GraphWorkload(p), m_dist(add_array("distance", Sharing::shared)),
          m_changed(add_array("changed_in", Sharing::shared)) {
        with_edge_weights();
    }

protected:
    void initialise(Driver& d) override {
        for (uint32_t v = 0; v < graph().vertices; ++v) {
            write(d, m_dist, v, v == source() ? 0 : kInfinity);
            write(d, m_changed, v, v == source() ? 0 : kInfinity);
        }
    }

    void program(CoreApi& c, const std::vector<uint32_t>& mine) override {
        for (uint64_t k = 1;; ++k) {
            note_iteration(k);
            bool set = false;
            for (uint32_t v : mine) {
                c.compute(2);
                if (load(c, m_changed, v) != k - 1) continue;
                const uint64_t dist = load(c, m_dist, v);
                const Row r = row(c, v);
                for (uint64_t i = 0; i < r.degree(); ++i) {
                    const uint32_t w = neighbour(c, r, i);
                    const uint64_t candidate = dist + weight(c, r, i);
                    c.compute(3);
                    if (test_first() && !(candidate < load(c, m_dist, w))) continue;
                    if (use_rmw()) {
                        if (candidate < rmw(c, m_dist, w, RmwOp::min, candidate)) {
                            store(c, m_changed, w, k);
                            set = true;
                        }
                        continue;
                    }
                    lock(c, w);
                    if (candidate < load(c, m_dist, w)) {
                        store(c, m_dist, w, candidate);
                        store(c, m_changed, w, k);
                        set = true;
                    }
                    unlock(c, w);
                }
            }
            if (set) mark_changed(c, k);
            barrier(c);
            if (!changed(c, k)) break;
        }
    }

    void verify(Driver& d, CheckResult& r) override {
        const auto expected = shortest_distances(graph(), source(), params().seed);
        compare_per_vertex(
            "sssp distances", graph().vertices, [&](uint32_t v) { return read(d, m_dist, v) == expected[v]; },
            [&](uint32_t v) {
                return "vertex " + std::to_string(v) + " has distance " + text(read(d, m_dist, v)) + ", expected " +
                       text(expected[v]);
            },
            r);
    }

private:
    static std::string text(uint64_t x) { return x == kInfinity ? "unreached" : std::to_string(x); }
    unsigned m_dist, m_changed;
};

} // namespace

std::unique_ptr<Workload> make_sssp(const WorkloadParams& p) { return std::make_unique<Sssp>(p); }

} // namespace syncron
