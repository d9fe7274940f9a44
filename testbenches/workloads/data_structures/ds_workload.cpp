#include "testbenches/workloads/data_structures/ds_workload.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace syncron {

DataStructureWorkload::DataStructureWorkload(const WorkloadParams& p)
    : m_shape(data_structure_shape(p.name)), m_elements(p.elements.value_or(m_shape.elements)),
      m_update(p.update_percent.value_or(m_shape.update_percent)),
      m_insert(p.insert_percent.value_or(m_shape.insert_percent)), m_ops(p.ops.value_or(m_shape.default_ops)),
      m_seed(p.seed), m_op_work(p.op_work == "measured") {
    const std::string w = "workload " + m_shape.name + ": ";
    if (m_elements == 0) throw std::invalid_argument(w + "workload.elements must be at least 1");
    if (m_elements > (uint64_t(1) << 40))
        throw std::invalid_argument(w + "workload.elements (" + std::to_string(m_elements) + ") exceeds 2^40");
    if (m_update > 100)
        throw std::invalid_argument(w + "workload.update_percent must be in 0..100, got " + std::to_string(m_update));
    if (m_insert > 100)
        throw std::invalid_argument(w + "workload.insert_percent must be in 0..100, got " + std::to_string(m_insert));
    if (m_ops == 0) throw std::invalid_argument(w + "workload.ops must be at least 1");
    if (p.op_work != "none" && p.op_work != "measured")
        throw std::invalid_argument(w + "workload.op_work must be none or measured, got '" + p.op_work + "'");
}

void DataStructureWorkload::setup(Driver& d) {
    m_units = d.units();
    m_cores = d.client_cores();
    m_done = 0;
    m_count = {};
    m_succeeded = {};
    // A size the memory cannot hold is refused before any key is generated.
    uint64_t free = 0;
    for (unsigned u = 0; u < m_units; ++u) free += d.free_bytes(u);
    const uint64_t per_element = std::max<uint64_t>(1, bytes_per_element());
    if (m_elements > free / per_element)
        throw std::invalid_argument("workload " + m_shape.name + ": " + std::to_string(m_elements) + " elements of " +
                                    std::to_string(per_element) + " bytes do not fit in the " + std::to_string(free) +
                                    " bytes free in the units' memory; use a smaller "
                                    "workload.elements or more memory (memory.unit_bytes)");
    build(d);
}

unsigned DataStructureWorkload::partition_of(uint64_t key) const {
    // Keys 1..key_range() in `units` contiguous, equal ranges.
    return static_cast<unsigned>((key - 1) * m_units / key_range());
}

std::vector<uint64_t> DataStructureWorkload::initial_keys() const {
    std::mt19937_64 rng(m_seed * 0x9E3779B97F4A7C15ull + 17);
    std::uniform_int_distribution<uint64_t> pick(1, key_range());
    std::unordered_set<uint64_t> chosen;
    chosen.reserve(m_elements * 2);
    std::vector<uint64_t> keys;
    keys.reserve(m_elements);
    while (keys.size() < m_elements) {
        const uint64_t k = pick(rng);
        if (chosen.insert(k).second) keys.push_back(k);
    }
    std::sort(keys.begin(), keys.end());
    return keys;
}

uint64_t DataStructureWorkload::max_inserts() const {
    if (m_update == 0 || m_insert == 0) return 0;
    return uint64_t(m_cores) * m_ops;
}

void DataStructureWorkload::run(CoreApi& c) {
    // Each core draws its operations and keys from its own seeded stream.
    std::mt19937_64 rng(m_seed * 1000003u + c.global_id());
    std::uniform_int_distribution<unsigned> percent(0, 99);
    std::uniform_int_distribution<uint64_t> key(1, key_range());
    for (unsigned k = 0; k < m_ops; ++k) {
        Op op = Op::lookup;
        if (percent(rng) < m_update) op = percent(rng) < m_insert ? Op::insert : Op::remove;
        const uint64_t kv = key(rng);
        const bool ok = execute(c, op, kv);
        if (m_op_work) charge(c, measured_work().of(op, ok).outside);
        ++m_count[static_cast<unsigned>(op)];
        if (ok) ++m_succeeded[static_cast<unsigned>(op)];
        ++m_done;
    }
}

CheckResult DataStructureWorkload::check(Driver& d) {
    CheckResult r;
    const uint64_t expected = uint64_t(m_cores) * m_ops;
    if (m_done != expected)
        r.fail(m_shape.name + ": " + std::to_string(m_done) + " operations completed, expected " +
               std::to_string(expected));
    // A corrupt pointer may lead outside memory: a failed check, not a crash.
    try {
        verify(d, r);
    } catch (const std::exception& e) {
        r.fail(m_shape.name + ": reading the structure back failed: " + e.what());
    }
    return r;
}

SyncVar DataStructureWorkload::create_lock(Driver& d, unsigned unit, const char* what) const {
    try {
        return d.create_syncvar(unit);
    } catch (const std::exception& e) {
        throw std::invalid_argument("workload " + m_shape.name + ": the " + what + " do not fit in unit " +
                                    std::to_string(unit) + "'s memory (" + e.what() +
                                    "); use a smaller workload.elements or workload.ops, or more memory");
    }
}

void DataStructureWorkload::report_stats(const StatContext&, nlohmann::json& out) const {
    out["structure"] = m_shape.name;
    out["elements"] = m_elements;
    out["update_percent"] = m_update;
    out["insert_percent"] = m_insert;
    out["ops_per_core"] = m_ops;
    const char* names[] = {"inserts", "removes", "lookups"};
    for (unsigned i = 0; i < 3; ++i) {
        out[names[i]] = m_count[i];
        out[std::string(names[i]) + "_succeeded"] = m_succeeded[i];
    }
}

} // namespace syncron
