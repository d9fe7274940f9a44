#pragma once
// The common frame of the graph applications (docs/workloads.md), in the
// push style of the Crono suite: the graph (a file or R-MAT), its vertices
// partitioned over the units that have client cores, each unit holding its
// vertices' rows of the graph (read-only, L1-cacheable), their per-vertex
// data and one lock per vertex (homed in the owning unit). A core works on a
// contiguous share of its unit's vertices and pushes updates to neighbours
// under the neighbour's lock; iterations end at a barrier across units, after
// which every core reads the iteration's "something changed" word to decide
// whether to go on. The check compares the result read back from simulated
// memory with a plain C++ reference on the host (graph_reference.h).
// With workload.use_se_atomics a kernel makes its per-vertex update with one
// CoreApi::atomic_rmw on the vertex's word instead (model extension of §6:
// SynCron's SEs execute it at the word's Master SE); the locks stay allocated
// so that both versions have the same memory layout.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "models/core/workload.h"
#include "testbenches/workloads/graph/graph.h"

namespace syncron {

/// Refuses (std::invalid_argument) a graph of `vertices` vertices and
/// `edge_ends` neighbour entries (twice its undirected edges) that cannot fit
/// the platform's memory, before it is partitioned or written: a lower bound
/// of what GraphWorkload::setup() allocates (per vertex an offset, one 8-byte
/// array and a lock of 64 B; 4 B per edge end), spread as evenly as possible
/// over every unit, against memory.unit_bytes. `what` names the graph,
/// `advice` ends the message.
void check_graph_fits_platform(uint64_t vertices, uint64_t edge_ends, const SimParams& p, const std::string& what,
                               const std::string& advice);

class GraphWorkload : public Workload {
public:
    explicit GraphWorkload(const WorkloadParams& p);

    std::string name() const override { return m_name; }
    uint64_t operations() const override { return m_lock_acquisitions + m_barrier_waits + m_rmws; }
    void setup(Driver& d) final;
    void run(CoreApi& c) final;
    CheckResult check(Driver& d) final;
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;

protected:
    static constexpr uint64_t kInfinity = ~uint64_t(0);
    /// A per-vertex array of 8-byte words; declare in the constructor.
    struct VertexArray {
        std::string name;
        Sharing sharing;
        std::vector<uint64_t> base; ///< per unit
    };
    /// The neighbours of a vertex as a core sees them: where its row is.
    struct Row {
        unsigned unit = 0;
        uint64_t begin = 0, end = 0; ///< positions in the unit's neighbour array
        uint64_t degree() const { return end - begin; }
    };

    /// Declares a per-vertex array (before setup); returns its handle.
    unsigned add_array(const std::string& name, Sharing sharing);
    /// Also store an edge weight beside every neighbour (SSSP).
    void with_edge_weights() { m_weighted = true; }

    /// Writes the arrays' initial contents (debug access, not timed).
    virtual void initialise(Driver& d) = 0;
    /// The program of a core over `mine` (its share of its unit's vertices).
    virtual void program(CoreApi& c, const std::vector<uint32_t>& mine) = 0;
    /// Compares what is in simulated memory with the host reference.
    virtual void verify(Driver& d, CheckResult& r) = 0;
    /// Extra entries of workload_stats.
    virtual void report_extra(nlohmann::json& /*out*/) const {}

    const Graph& graph() const { return m_graph; }
    const WorkloadParams& params() const { return m_p; }
    unsigned client_cores() const { return m_cores; }
    /// The vertex BFS and SSSP start from: the one of highest degree (lowest ID on ties).
    uint32_t source() const { return m_source; }

    // Simulated accesses, counted as local or remote to the core's unit.
    uint64_t load(CoreApi& c, unsigned array, uint32_t v);
    void store(CoreApi& c, unsigned array, uint32_t v, uint64_t value);
    Row row(CoreApi& c, uint32_t v);
    uint32_t neighbour(CoreApi& c, const Row& r, uint64_t i);
    uint32_t weight(CoreApi& c, const Row& r, uint64_t i);
    void lock(CoreApi& c, uint32_t v);
    void unlock(CoreApi& c, uint32_t v);
    /// workload.use_se_atomics: updates go through rmw() instead of lock().
    bool use_rmw() const { return m_p.use_se_atomics; }
    /// workload.test_before_lock: an unlocked read of the neighbour's word
    /// decides whether to synchronize at all (words that only ever move one
    /// way, so a stale read can only send a core to the lock needlessly).
    bool test_first() const { return m_p.test_before_lock; }
    /// CoreApi::atomic_rmw on v's word of `array`, counted as one access to
    /// v's unit (where the word is read and written); returns the old value.
    uint64_t rmw(CoreApi& c, unsigned array, uint32_t v, RmwOp op, uint64_t operand, uint64_t expected = 0);
    /// The barrier across all client cores that ends an iteration.
    void barrier(CoreApi& c);
    /// One variable for the whole graph: a lock and a shared word, homed with
    /// the iteration flags (CRONO's pagerank_lock.cc guards its sum of the
    /// dangling pages with one global lock). Create it in initialise().
    struct Global {
        SyncVar lock = 0;
        uint64_t word = 0;
    };
    Global add_global(Driver& d);
    void lock(CoreApi& c, const Global& g);
    void unlock(CoreApi& c, const Global& g);
    uint64_t load(CoreApi& c, const Global& g);
    void store(CoreApi& c, const Global& g, uint64_t value);
    uint64_t rmw(CoreApi& c, const Global& g, RmwOp op, uint64_t operand, uint64_t expected = 0);
    /// The core that does a kernel's one-core steps: the first client core
    /// of the first unit with client cores (CRONO's thread 0).
    bool leader(const CoreApi& c) const { return c.unit() == m_workers.front() && c.local_id() == 0; }
    /// Records that iteration `k` changed something (one store by the core).
    void mark_changed(CoreApi& c, uint64_t k);
    /// After the barrier of iteration `k`: whether any core changed something.
    bool changed(CoreApi& c, uint64_t k);
    /// Counts iterations for the statistics (the largest any core reached).
    void note_iteration(uint64_t k) { m_iterations = std::max(m_iterations, k); }

    uint64_t read(Driver& d, unsigned array, uint32_t v) const;
    void write(Driver& d, unsigned array, uint32_t v, uint64_t value) const;

private:
    uint64_t vertex_addr(unsigned array, uint32_t v) const;
    void count(CoreApi& c, unsigned home);

    std::string m_name;
    WorkloadParams m_p;
    Graph m_graph;
    bool m_weighted = false;
    std::vector<VertexArray> m_arrays;
    uint32_t m_source = 0;
    unsigned m_units = 0, m_cores = 0;
    std::vector<unsigned> m_workers;                    ///< units with client cores
    std::vector<unsigned> m_unit_cores;                 ///< per unit: its client cores
    std::vector<unsigned> m_owner;                      ///< per vertex: its unit
    std::vector<uint32_t> m_index;                      ///< per vertex: its index among its unit's vertices
    std::vector<std::vector<uint32_t>> m_local;         ///< per unit: its vertices
    std::vector<uint64_t> m_offsets, m_nbrs, m_weights; ///< per unit: row offsets, neighbours, weights
    std::vector<SyncVar> m_locks;                       ///< per vertex
    SyncVar m_barrier = 0;
    unsigned m_flag_unit = 0;
    uint64_t m_flags = 0, m_flag_count = 0;
    uint64_t m_lock_acquisitions = 0, m_barrier_waits = 0, m_iterations = 0, m_rmws = 0;
    uint64_t m_local_accesses = 0, m_remote_accesses = 0;
    uint64_t m_cut_edges = 0;
};

} // namespace syncron
