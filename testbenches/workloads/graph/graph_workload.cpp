#include "testbenches/workloads/graph/graph_workload.h"

#include <algorithm>
#include <stdexcept>

#include "models/common/host_memory.h"
#include "testbenches/workloads/graph/graph_loader.h"
#include "testbenches/workloads/graph/graph_reference.h"
#include "testbenches/workloads/graph/partition.h"
#include "testbenches/workloads/graph/rmat.h"

namespace syncron {
namespace {

constexpr unsigned kId = 4;

} // namespace

void check_graph_fits_platform(uint64_t vertices, uint64_t edge_ends, const SimParams& p, const std::string& what,
                               const std::string& advice) {
    // The largest unit holds at least its even share; setup() checks the
    // exact need per unit later (its partition, its arrays, what is free).
    constexpr uint64_t kVertexBytes = kWordBytes /* offset */ + kWordBytes /* one array */ + 64 /* lock */;
    const uint64_t units = std::max(1u, p.platform.units);
    const uint64_t total = vertices * kVertexBytes + edge_ends * kId;
    const uint64_t share = (total + units - 1) / units;
    if (share <= p.memory.unit_bytes) return;
    const std::string ends = edge_ends ? " and " + std::to_string(edge_ends) + " edge ends" : std::string();
    throw std::invalid_argument(
        "workload " + p.workload.name + ": " + what + " has " + std::to_string(vertices) + " vertices" + ends +
        ": at least " + format_bytes(double(share)) + " per unit over " + std::to_string(units) + " units (" +
        std::to_string(kVertexBytes) + " B per vertex, " + std::to_string(kId) +
        " B per edge end), more than memory.unit_bytes = " + format_bytes(double(p.memory.unit_bytes)) + "; " + advice);
}

GraphWorkload::GraphWorkload(const WorkloadParams& p) : m_name(p.name), m_p(p) {}

unsigned GraphWorkload::add_array(const std::string& name, Sharing sharing) {
    m_arrays.push_back(VertexArray{name, sharing, {}});
    return static_cast<unsigned>(m_arrays.size() - 1);
}

void GraphWorkload::setup(Driver& d) {
    const std::string w = "workload " + m_name + ": ";
    if (!m_p.graph.empty()) {
        m_graph = load_graph(m_p.graph, m_p.graph_format);
    } else {
        RmatParams r;
        r.scale = m_p.rmat_scale;
        r.edge_factor = m_p.rmat_edge_factor;
        r.seed = m_p.seed;
        m_graph = rmat_graph(r);
    }
    const Graph& g = m_graph;
    m_units = d.units();
    m_cores = d.client_cores();
    m_workers.clear();
    for (unsigned u = 0; u < m_units; ++u)
        if (d.client_cores_in_unit(u) > 0) m_workers.push_back(u);
    if (m_workers.empty()) throw std::invalid_argument(w + "no client cores");

    // Owners, and each unit's vertices in ascending order.
    const std::vector<unsigned> part = partition_vertices(g, static_cast<unsigned>(m_workers.size()), m_p.partition);
    m_owner.assign(g.vertices, 0);
    m_index.assign(g.vertices, 0);
    m_local.assign(m_units, {});
    m_unit_cores.assign(m_units, 0);
    for (unsigned u = 0; u < m_units; ++u) m_unit_cores[u] = d.client_cores_in_unit(u);
    for (uint32_t v = 0; v < g.vertices; ++v) {
        m_owner[v] = m_workers[part[v]];
        m_index[v] = static_cast<uint32_t>(m_local[m_owner[v]].size());
        m_local[m_owner[v]].push_back(v);
    }
    m_cut_edges = 0;
    for (uint32_t v = 0; v < g.vertices; ++v)
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i)
            m_cut_edges += m_owner[g.neighbours[i]] != m_owner[v];
    m_cut_edges /= 2;
    m_source = 0;
    for (uint32_t v = 1; v < g.vertices; ++v)
        if (g.degree(v) > g.degree(m_source)) m_source = v;

    // Refuse what cannot fit before writing anything.
    for (unsigned u : m_workers) {
        uint64_t edges = 0;
        for (uint32_t v : m_local[u]) edges += g.degree(v);
        const uint64_t n = m_local[u].size();
        const uint64_t need = (n + 1) * kWordBytes + edges * kId * (m_weighted ? 2 : 1) +
                              n * kWordBytes * m_arrays.size() + n * 64 /* a lock per vertex */ +
                              uint64_t(64) * 8 /* alignment */;
        if (need > d.free_bytes(u))
            throw std::invalid_argument(w + "unit " + std::to_string(u) + " needs " + std::to_string(need) +
                                        " bytes for its " + std::to_string(n) + " vertices and " +
                                        std::to_string(edges) + " edge ends, " + std::to_string(d.free_bytes(u)) +
                                        " are free; use a smaller graph or more memory (memory.unit_bytes)");
    }
    m_offsets.assign(m_units, 0);
    m_nbrs.assign(m_units, 0);
    m_weights.assign(m_units, 0);
    for (auto& a : m_arrays) a.base.assign(m_units, 0);
    for (unsigned u : m_workers) {
        const auto& local = m_local[u];
        uint64_t edges = 0;
        for (uint32_t v : local) edges += g.degree(v);
        m_offsets[u] = d.allocate(u, (local.size() + 1) * kWordBytes, Sharing::read_only);
        m_nbrs[u] = d.allocate(u, std::max<uint64_t>(1, edges) * kId, Sharing::read_only);
        if (m_weighted) m_weights[u] = d.allocate(u, std::max<uint64_t>(1, edges) * kId, Sharing::read_only);
        for (auto& a : m_arrays) a.base[u] = d.allocate(u, std::max<size_t>(1, local.size()) * kWordBytes, a.sharing);
        uint64_t pos = 0;
        for (size_t i = 0; i < local.size(); ++i) {
            const uint32_t v = local[i];
            d.write(m_offsets[u] + i * kWordBytes, pos, kWordBytes);
            for (uint64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e, ++pos) {
                d.write(m_nbrs[u] + pos * kId, g.neighbours[e], kId);
                if (m_weighted) d.write(m_weights[u] + pos * kId, edge_weight(v, g.neighbours[e], m_p.seed), kId);
            }
        }
        d.write(m_offsets[u] + local.size() * kWordBytes, pos, kWordBytes);
    }
    m_locks.assign(g.vertices, 0);
    for (uint32_t v = 0; v < g.vertices; ++v) m_locks[v] = d.create_syncvar(m_owner[v]);
    m_flag_unit = m_workers.front();
    m_barrier = d.create_syncvar(m_flag_unit);
    m_flag_count = uint64_t(g.vertices) + 2; // no application iterates more often than it has vertices
    m_flags = d.allocate(m_flag_unit, m_flag_count * kWordBytes, Sharing::shared);
    m_lock_acquisitions = m_barrier_waits = m_iterations = m_rmws = 0;
    m_local_accesses = m_remote_accesses = 0;
    initialise(d);
}

void GraphWorkload::run(CoreApi& c) {
    // This core's contiguous share of its unit's vertices (client cores of a
    // unit have local IDs 0..k-1).
    const auto& local = m_local[c.unit()];
    const uint64_t in_unit = std::max(1u, m_unit_cores[c.unit()]);
    const uint64_t lo = c.local_id() * local.size() / in_unit;
    const uint64_t hi = (c.local_id() + 1) * local.size() / in_unit;
    const std::vector<uint32_t> mine(local.begin() + static_cast<std::ptrdiff_t>(lo),
                                     local.begin() + static_cast<std::ptrdiff_t>(hi));
    program(c, mine);
}

CheckResult GraphWorkload::check(Driver& d) {
    CheckResult r;
    try {
        verify(d, r);
    } catch (const std::exception& e) {
        r.fail(m_name + ": reading the result back failed: " + e.what());
    }
    return r;
}

uint64_t GraphWorkload::vertex_addr(unsigned array, uint32_t v) const {
    return m_arrays[array].base[m_owner[v]] + uint64_t(m_index[v]) * kWordBytes;
}

void GraphWorkload::count(CoreApi& c, unsigned home) {
    if (home == c.unit())
        ++m_local_accesses;
    else
        ++m_remote_accesses;
}

uint64_t GraphWorkload::load(CoreApi& c, unsigned array, uint32_t v) {
    count(c, m_owner[v]);
    return c.load(vertex_addr(array, v), kWordBytes);
}

void GraphWorkload::store(CoreApi& c, unsigned array, uint32_t v, uint64_t value) {
    count(c, m_owner[v]);
    c.store(vertex_addr(array, v), value, kWordBytes);
}

GraphWorkload::Row GraphWorkload::row(CoreApi& c, uint32_t v) {
    Row r;
    r.unit = m_owner[v];
    const uint64_t at = m_offsets[r.unit] + uint64_t(m_index[v]) * kWordBytes;
    count(c, r.unit);
    r.begin = c.load(at, kWordBytes);
    count(c, r.unit);
    r.end = c.load(at + kWordBytes, kWordBytes);
    return r;
}

uint32_t GraphWorkload::neighbour(CoreApi& c, const Row& r, uint64_t i) {
    count(c, r.unit);
    if (m_p.edge_instructions > 0) c.compute(m_p.edge_instructions);
    return static_cast<uint32_t>(c.load(m_nbrs[r.unit] + (r.begin + i) * kId, kId));
}

uint32_t GraphWorkload::weight(CoreApi& c, const Row& r, uint64_t i) {
    count(c, r.unit);
    return static_cast<uint32_t>(c.load(m_weights[r.unit] + (r.begin + i) * kId, kId));
}

void GraphWorkload::lock(CoreApi& c, uint32_t v) {
    c.lock_acquire(m_locks[v]);
    ++m_lock_acquisitions;
}

void GraphWorkload::unlock(CoreApi& c, uint32_t v) { c.lock_release(m_locks[v]); }

uint64_t GraphWorkload::rmw(CoreApi& c, unsigned array, uint32_t v, RmwOp op, uint64_t operand, uint64_t expected) {
    count(c, m_owner[v]);
    ++m_rmws;
    return c.atomic_rmw(vertex_addr(array, v), op, operand, expected);
}

void GraphWorkload::barrier(CoreApi& c) {
    c.barrier_wait_across_units(m_barrier, m_cores);
    ++m_barrier_waits;
}

GraphWorkload::Global GraphWorkload::add_global(Driver& d) {
    Global g;
    g.lock = d.create_syncvar(m_flag_unit);
    g.word = d.allocate(m_flag_unit, kWordBytes, Sharing::shared);
    return g;
}

void GraphWorkload::lock(CoreApi& c, const Global& g) {
    c.lock_acquire(g.lock);
    ++m_lock_acquisitions;
}

void GraphWorkload::unlock(CoreApi& c, const Global& g) { c.lock_release(g.lock); }

uint64_t GraphWorkload::load(CoreApi& c, const Global& g) {
    count(c, m_flag_unit);
    return c.load(g.word, kWordBytes);
}

void GraphWorkload::store(CoreApi& c, const Global& g, uint64_t value) {
    count(c, m_flag_unit);
    c.store(g.word, value, kWordBytes);
}

uint64_t GraphWorkload::rmw(CoreApi& c, const Global& g, RmwOp op, uint64_t operand, uint64_t expected) {
    count(c, m_flag_unit);
    ++m_rmws;
    return c.atomic_rmw(g.word, op, operand, expected);
}

void GraphWorkload::mark_changed(CoreApi& c, uint64_t k) {
    if (k >= m_flag_count) throw std::logic_error(m_name + ": iteration " + std::to_string(k) + " beyond the flags");
    count(c, m_flag_unit);
    c.store(m_flags + k * kWordBytes, 1, kWordBytes);
}

bool GraphWorkload::changed(CoreApi& c, uint64_t k) {
    if (k >= m_flag_count) throw std::logic_error(m_name + ": iteration " + std::to_string(k) + " beyond the flags");
    count(c, m_flag_unit);
    return c.load(m_flags + k * kWordBytes, kWordBytes) != 0;
}

uint64_t GraphWorkload::read(Driver& d, unsigned array, uint32_t v) const {
    return d.read(vertex_addr(array, v), kWordBytes);
}

void GraphWorkload::write(Driver& d, unsigned array, uint32_t v, uint64_t value) const {
    d.write(vertex_addr(array, v), value, kWordBytes);
}

void GraphWorkload::report_stats(const StatContext&, nlohmann::json& out) const {
    out["application"] = m_name;
    out["graph"] = m_graph.source;
    out["vertices"] = m_graph.vertices;
    out["edges"] = m_graph.undirected_edges();
    out["partition"] = m_p.partition;
    out["partition_units"] = m_workers.size();
    out["cut_edges"] = m_cut_edges;
    out["cut_edge_fraction"] =
        m_graph.undirected_edges() ? double(m_cut_edges) / double(m_graph.undirected_edges()) : 0.0;
    out["iterations"] = m_iterations;
    out["lock_acquisitions"] = m_lock_acquisitions;
    out["barrier_waits"] = m_barrier_waits;
    // Only with the key, so that the statistics of the lock versions stay as they were.
    if (m_p.use_se_atomics) out["atomic_rmws"] = m_rmws;
    out["local_accesses"] = m_local_accesses;
    out["remote_accesses"] = m_remote_accesses;
    const uint64_t all = m_local_accesses + m_remote_accesses;
    out["remote_access_fraction"] = all ? double(m_remote_accesses) / double(all) : 0.0;
    report_extra(out);
}

} // namespace syncron
