// Teenage followers (Crono's tf): every vertex has an age (10..29, a seeded
// hash, graph_reference.h; a read-only array); a core takes each of its
// vertices that is a teenager (13..19) and increments the follower count of
// every neighbour under the neighbour's lock. One pass, no barrier.
// Cost: per vertex 1 load (age); per teenager 2 loads (row) and per
// neighbour 1 load, a lock/unlock pair, 1 load and 1 store.
// workload.use_se_atomics: per neighbour one atomic_rmw fetch_add of 1 instead.
#include "testbenches/workloads/applications.h"
#include "testbenches/workloads/graph/check_values.h"
#include "testbenches/workloads/graph/graph_reference.h"
#include "testbenches/workloads/graph/graph_workload.h"

namespace syncron {
namespace {

class TeenageFollowers final : public GraphWorkload {
public:
    explicit TeenageFollowers(const WorkloadParams& p)
        : GraphWorkload(p), m_age(add_array("age", Sharing::read_only)),
          m_count(add_array("teen_followers", Sharing::shared)) {}

protected:
    void initialise(Driver& d) override {
        for (uint32_t v = 0; v < graph().vertices; ++v) {
            write(d, m_age, v, vertex_age(v, params().seed));
            write(d, m_count, v, 0);
        }
    }

    void program(CoreApi& c, const std::vector<uint32_t>& mine) override {
        note_iteration(1);
        for (uint32_t v : mine) {
            c.compute(3);
            if (!is_teen(static_cast<uint32_t>(load(c, m_age, v)))) continue;
            const Row r = row(c, v);
            for (uint64_t i = 0; i < r.degree(); ++i) {
                const uint32_t w = neighbour(c, r, i);
                c.compute(2);
                if (use_rmw()) {
                    rmw(c, m_count, w, RmwOp::fetch_add, 1);
                    continue;
                }
                lock(c, w);
                store(c, m_count, w, load(c, m_count, w) + 1);
                unlock(c, w);
            }
        }
    }

    void verify(Driver& d, CheckResult& r) override {
        const auto expected = teen_followers(graph(), params().seed);
        compare_per_vertex(
            "tf counts", graph().vertices, [&](uint32_t v) { return read(d, m_count, v) == expected[v]; },
            [&](uint32_t v) {
                return "vertex " + std::to_string(v) + " has " + std::to_string(read(d, m_count, v)) +
                       " teenage followers, expected " + std::to_string(expected[v]);
            },
            r);
    }

private:
    unsigned m_age, m_count;
};

} // namespace

std::unique_ptr<Workload> make_tf(const WorkloadParams& p) { return std::make_unique<TeenageFollowers>(p); }

} // namespace syncron
