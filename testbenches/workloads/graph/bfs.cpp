// Breadth-first search (Crono's bfs, push style): level-synchronous from the
// source (the vertex of highest degree). In iteration L a core scans its
// vertices; for each one at level L it reads each neighbour's level and, where
// none is set (CRONO's test before the lock), pushes L + 1 under the
// neighbour's lock, setting it only where no level is set yet. A barrier ends
// each level; the run stops after a level that set nothing.
// Cost: per vertex per level 1 load (its level); per frontier vertex 2 loads
// (its row) and per neighbour 1 load (its ID) and 1 load (its level); where
// unset a lock/unlock pair, 1 load and at most 1 store; per level one barrier
// and 1 load of the level's flag.
// workload.use_se_atomics: per neighbour one atomic_rmw cas of L + 1
// expecting "no level" instead; it set the level where the old value was
// "no level".
// workload.test_before_lock=false: no load first; every neighbour is locked
// (or sent the rmw), the protocol before the cited code was read.
#include "testbenches/workloads/applications.h"
#include "testbenches/workloads/graph/check_values.h"
#include "testbenches/workloads/graph/graph_reference.h"
#include "testbenches/workloads/graph/graph_workload.h"

namespace syncron {
namespace {

class Bfs final : public GraphWorkload {
public:
    explicit Bfs(const WorkloadParams& p) : GraphWorkload(p), m_level(add_array("level", Sharing::shared)) {}

protected:
    void initialise(Driver& d) override {
        for (uint32_t v = 0; v < graph().vertices; ++v) write(d, m_level, v, v == source() ? 0 : kInfinity);
    }

    void program(CoreApi& c, const std::vector<uint32_t>& mine) override {
        for (uint64_t level = 0;; ++level) {
            note_iteration(level + 1);
            bool set = false;
            for (uint32_t v : mine) {
                c.compute(2);
                if (load(c, m_level, v) != level) continue;
                const Row r = row(c, v);
                for (uint64_t i = 0; i < r.degree(); ++i) {
                    const uint32_t w = neighbour(c, r, i);
                    c.compute(2);
                    if (test_first() && load(c, m_level, w) != kInfinity) continue;
                    if (use_rmw()) {
                        if (rmw(c, m_level, w, RmwOp::cas, level + 1, kInfinity) == kInfinity) set = true;
                        continue;
                    }
                    lock(c, w);
                    if (load(c, m_level, w) == kInfinity) {
                        store(c, m_level, w, level + 1);
                        set = true;
                    }
                    unlock(c, w);
                }
            }
            if (set) mark_changed(c, level);
            barrier(c);
            if (!changed(c, level)) break;
        }
    }

    void verify(Driver& d, CheckResult& r) override {
        const auto expected = bfs_levels(graph(), source());
        compare_per_vertex(
            "bfs levels", graph().vertices, [&](uint32_t v) { return read(d, m_level, v) == expected[v]; },
            [&](uint32_t v) {
                return "vertex " + std::to_string(v) + " has level " + text(read(d, m_level, v)) + ", expected " +
                       text(expected[v]);
            },
            r);
    }

private:
    static std::string text(uint64_t x) { return x == kInfinity ? "unreached" : std::to_string(x); }
    unsigned m_level;
};

} // namespace

std::unique_ptr<Workload> make_bfs(const WorkloadParams& p) { return std::make_unique<Bfs>(p); }

} // namespace syncron
