// PageRank in the push style (workload.pr_style=push, the default; pull:
// pagerank_pull.cpp), workload.ops iterations (default
// 10), damping 0.85, from 1/n. In each iteration a core pushes rank/degree
// of each of its vertices into every neighbour's accumulator under the
// neighbour's lock; after a barrier it sets each of its vertices' rank to
// (1 - d)/n + d * accumulator and clears the accumulator; a second barrier
// ends the iteration. Ranks are doubles stored as their bit patterns.
// Check: each rank within a relative 1e-9 of the host reference (the sums
// are added in another order than on the host, so they may differ in the
// last bits; 1e-9 is far above that and far below any real error).
// Cost per iteration: per vertex 3 loads (rank, row), per neighbour 1 load,
// a lock/unlock pair, 1 load and 1 store; per vertex 1 load and 2 stores in
// the second phase; two barriers.
// workload.use_se_atomics: the accumulator is a double, which no RmwOp adds,
// so the push is a compare-and-swap loop on its bits: 1 load, then an
// atomic_rmw cas of (seen + share) expecting `seen` until the word held
// `seen`; each retry costs 2 more instructions (the add and the compare).
// Fixed point would allow one fetch_add but change the ranks the check
// compares with the host's doubles.
#include "testbenches/workloads/applications.h"
#include "testbenches/workloads/double_bits.h"
#include "testbenches/workloads/graph/graph_reference.h"
#include "testbenches/workloads/graph/graph_workload.h"
#include "testbenches/workloads/graph/ranks.h"

namespace syncron {
namespace {

class PageRank final : public GraphWorkload {
public:
    explicit PageRank(const WorkloadParams& p)
        : GraphWorkload(p), m_rank(add_array("rank", Sharing::shared)), m_sum(add_array("sum", Sharing::shared)),
          m_iterations(p.ops.value_or(kApplicationOps)) {}

protected:
    void initialise(Driver& d) override {
        for (uint32_t v = 0; v < graph().vertices; ++v) {
            write(d, m_rank, v, bits(1.0 / graph().vertices));
            write(d, m_sum, v, bits(0.0));
        }
    }

    void program(CoreApi& c, const std::vector<uint32_t>& mine) override {
        const double n = graph().vertices;
        for (unsigned k = 1; k <= m_iterations; ++k) {
            note_iteration(k);
            for (uint32_t v : mine) {
                const double rank = real(load(c, m_rank, v));
                const Row r = row(c, v);
                if (r.degree() == 0) continue;
                const double share = rank / double(r.degree());
                c.compute(4);
                for (uint64_t i = 0; i < r.degree(); ++i) {
                    const uint32_t w = neighbour(c, r, i);
                    c.compute(2);
                    if (use_rmw()) {
                        push_rmw(c, w, share);
                        continue;
                    }
                    lock(c, w);
                    store(c, m_sum, w, bits(real(load(c, m_sum, w)) + share));
                    unlock(c, w);
                }
            }
            barrier(c);
            for (uint32_t v : mine) {
                c.compute(3);
                store(c, m_rank, v, bits((1.0 - kPageRankDamping) / n + kPageRankDamping * real(load(c, m_sum, v))));
                store(c, m_sum, v, bits(0.0));
            }
            barrier(c);
        }
    }

    void verify(Driver& d, CheckResult& r) override {
        check_ranks(
            pagerank(graph(), m_iterations), [&](uint32_t v) { return real(read(d, m_rank, v)); }, r);
    }

    void report_extra(nlohmann::json& out) const override {
        out["pagerank_iterations"] = m_iterations;
        out["tolerance_relative"] = kRankTolerance;
        if (use_rmw()) out["cas_retries"] = m_retries;
    }

private:
    /// Adds `share` to w's accumulator with a compare-and-swap loop.
    void push_rmw(CoreApi& c, uint32_t w, double share) {
        m_retries += cas_add(
            c, share, [&] { return load(c, m_sum, w); },
            [&](uint64_t desired, uint64_t expected) { return rmw(c, m_sum, w, RmwOp::cas, desired, expected); });
    }

    unsigned m_rank, m_sum, m_iterations;
    uint64_t m_retries = 0;
};

} // namespace

std::unique_ptr<Workload> make_pr(const WorkloadParams& p) {
    if (p.pr_style == "pull") return make_pr_pull(p);
    return std::make_unique<PageRank>(p);
}

} // namespace syncron
