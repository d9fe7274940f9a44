// Connected components (Crono's label propagation, push style): every vertex
// starts with its own ID as label. In iteration k a core takes each of its
// vertices whose label changed in iteration k - 1 (all of them in the first)
// and pushes its label to every neighbour whose label it reads larger, under
// the neighbour's lock, where it is smaller, recording that the neighbour
// changed in k. A barrier ends
// each iteration; the run stops after one that changed nothing. The labels
// then are the smallest ID of each component.
// Cost: per vertex per iteration 1 load (when it changed); per active vertex
// 3 loads (label, row) and per neighbour 2 loads (ID, label); where larger a
// lock/unlock pair, 1 load and at most 2 stores; per iteration one barrier and 1 load of the flag.
// workload.use_se_atomics: the push is one atomic_rmw min of the label on the
// neighbour's label; where the old label was larger, the core then stores k
// into the neighbour's changed_in. The two words no longer change together,
// which the algorithm allows: every store of iteration k writes k and lands
// before its barrier, so the neighbour is pushed in k + 1 with a label no
// larger than the one that lowered it.
// The test before the lock (workload.test_before_lock, the default): labels
// only fall, so a stale read can only send the core to the lock needlessly;
// false = every neighbour locked (or sent the rmw), the former protocol.
#include "testbenches/workloads/applications.h"
#include "testbenches/workloads/graph/check_values.h"
#include "testbenches/workloads/graph/graph_reference.h"
#include "testbenches/workloads/graph/graph_workload.h"

namespace syncron {
namespace {

class Components final : public GraphWorkload {
public:
    explicit Components(const WorkloadParams& p)
        : GraphWorkload(p), m_label(add_array("label", Sharing::shared)),
          m_changed(add_array("changed_in", Sharing::shared)) {}

protected:
    void initialise(Driver& d) override {
        for (uint32_t v = 0; v < graph().vertices; ++v) {
            write(d, m_label, v, v);
            write(d, m_changed, v, 0);
        }
    }

    void program(CoreApi& c, const std::vector<uint32_t>& mine) override {
        for (uint64_t k = 1;; ++k) {
            note_iteration(k);
            bool set = false;
            for (uint32_t v : mine) {
                c.compute(2);
                if (load(c, m_changed, v) != k - 1) continue;
                const uint64_t label = load(c, m_label, v);
                const Row r = row(c, v);
                for (uint64_t i = 0; i < r.degree(); ++i) {
                    const uint32_t w = neighbour(c, r, i);
                    c.compute(2);
                    if (test_first() && !(label < load(c, m_label, w))) continue;
                    if (use_rmw()) {
                        if (label < rmw(c, m_label, w, RmwOp::min, label)) {
                            store(c, m_changed, w, k);
                            set = true;
                        }
                        continue;
                    }
                    lock(c, w);
                    if (label < load(c, m_label, w)) {
                        store(c, m_label, w, label);
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
        const auto expected = component_labels(graph());
        compare_per_vertex(
            "cc labels", graph().vertices, [&](uint32_t v) { return read(d, m_label, v) == expected[v]; },
            [&](uint32_t v) {
                return "vertex " + std::to_string(v) + " has label " + std::to_string(read(d, m_label, v)) +
                       ", expected " + std::to_string(expected[v]);
            },
            r);
    }

private:
    unsigned m_label, m_changed;
};

} // namespace

std::unique_ptr<Workload> make_cc(const WorkloadParams& p) { return std::make_unique<Components>(p); }

} // namespace syncron
