// PageRank as CRONO's apps/pagerank/pagerank_lock.cc synchronizes it
// (workload.pr_style=pull): each core pulls, for each of its vertices, the
// rank/degree of every neighbour, with no lock; the dangling vertices (no
// edges) add their rank to one global sum under one global lock, one
// acquisition per dangling vertex. Per iteration, as the cited code: the
// leader clears the sum; barrier; the dangling phase; barrier; each vertex's
// new rank (1 - d)/n + d * (sum over neighbours + dangling/n) into `next`;
// barrier; `next` copied into `rank`; barrier. One barrier before the first
// iteration. Ranks are doubles stored as their bit patterns.
// Check: each rank within a relative 1e-9 of the host reference
// (pagerank_pull: the same sums in the same order but for the dangling sum,
// added in lock order).
// Cost per iteration: the leader 1 store (clearing the sum); per vertex 1
// load (degree); per dangling vertex a lock pair, 2 loads (its rank, the
// sum), 1 store; per core 1 load (the sum); per vertex 2 loads (row)
// and 1 store; per neighbour 3 loads (its ID, rank, degree) and 2
// instructions; per vertex 1 load and 1 store to copy; four barriers.
// workload.use_se_atomics: the dangling add is a compare-and-swap loop on
// the global word's bits, as pr's push is on its accumulators.
#include "testbenches/workloads/applications.h"
#include "testbenches/workloads/double_bits.h"
#include "testbenches/workloads/graph/graph_reference.h"
#include "testbenches/workloads/graph/graph_workload.h"
#include "testbenches/workloads/graph/ranks.h"

namespace syncron {
namespace {

class PageRankPull final : public GraphWorkload {
public:
    explicit PageRankPull(const WorkloadParams& p)
        : GraphWorkload(p), m_rank(add_array("rank", Sharing::shared)), m_next(add_array("next", Sharing::shared)),
          m_degree(add_array("degree", Sharing::read_only)), m_iterations(p.ops.value_or(kApplicationOps)) {}

protected:
    void initialise(Driver& d) override {
        for (uint32_t v = 0; v < graph().vertices; ++v) {
            write(d, m_rank, v, bits(1.0 / graph().vertices));
            write(d, m_degree, v, graph().degree(v));
        }
        m_dangling = add_global(d);
        m_dangling_vertices = 0;
        for (uint32_t v = 0; v < graph().vertices; ++v) m_dangling_vertices += graph().degree(v) == 0;
    }

    void program(CoreApi& c, const std::vector<uint32_t>& mine) override {
        const double n = graph().vertices;
        barrier(c);
        for (unsigned k = 1; k <= m_iterations; ++k) {
            note_iteration(k);
            if (leader(c)) store(c, m_dangling, bits(0.0));
            barrier(c);
            for (uint32_t v : mine)
                if (load(c, m_degree, v) == 0) add_dangling(c, v);
            barrier(c);
            const double dangling = real(load(c, m_dangling));
            for (uint32_t v : mine) {
                const Row r = row(c, v);
                double sum = 0;
                for (uint64_t i = 0; i < r.degree(); ++i) {
                    const uint32_t u = neighbour(c, r, i);
                    c.compute(2);
                    sum += real(load(c, m_rank, u)) / double(load(c, m_degree, u));
                }
                c.compute(3);
                store(c, m_next, v, bits((1.0 - kPageRankDamping) / n + kPageRankDamping * (sum + dangling / n)));
            }
            barrier(c);
            for (uint32_t v : mine) store(c, m_rank, v, load(c, m_next, v));
            barrier(c);
        }
    }

    void verify(Driver& d, CheckResult& r) override {
        check_ranks(
            pagerank_pull(graph(), m_iterations), [&](uint32_t v) { return real(read(d, m_rank, v)); }, r);
    }

    void report_extra(nlohmann::json& out) const override {
        out["pagerank_iterations"] = m_iterations;
        out["pr_style"] = "pull";
        out["dangling_vertices"] = m_dangling_vertices;
        out["tolerance_relative"] = kRankTolerance;
        if (use_rmw()) out["cas_retries"] = m_retries;
    }

private:
    /// Adds dangling vertex v's rank to the global sum: under the global
    /// lock (v's rank read inside it, as the cited code reads it), or with a
    /// compare-and-swap loop (workload.use_se_atomics).
    void add_dangling(CoreApi& c, uint32_t v) {
        if (!use_rmw()) {
            lock(c, m_dangling);
            const double rank = real(load(c, m_rank, v));
            store(c, m_dangling, bits(real(load(c, m_dangling)) + rank));
            unlock(c, m_dangling);
            return;
        }
        const double rank = real(load(c, m_rank, v));
        m_retries += cas_add(
            c, rank, [&] { return load(c, m_dangling); },
            [&](uint64_t desired, uint64_t expected) { return rmw(c, m_dangling, RmwOp::cas, desired, expected); });
    }

    unsigned m_rank, m_next, m_degree, m_iterations;
    Global m_dangling;
    uint64_t m_dangling_vertices = 0, m_retries = 0;
};

} // namespace

std::unique_ptr<Workload> make_pr_pull(const WorkloadParams& p) { return std::make_unique<PageRankPull>(p); }

} // namespace syncron
