#pragma once
// The common frame of the paper's data-structure workloads (docs/workloads.md):
// the resolved size and mix (Table 6 unless set), the keys, the partitioning
// across units, the per-core operation loop and the statistics. A structure
// implements build (before the run, through debug access: not timed),
// execute (one operation on a core, through loads, stores and Table 2 calls)
// and verify (read back from simulated memory, compare with the replay).
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "models/core/workload.h"
#include "testbenches/workloads/data_structures/table6.h"

namespace syncron {

class DataStructureWorkload : public Workload {
public:
    enum class Op { insert, remove, lookup };

    /// Instructions besides loads, stores and Table 2 calls that the cited
    /// code executes in one operation (workload.op_work=measured;
    /// docs/workloads.md, "Work per edge / per operation, measured"):
    /// `outside` its locks, charged after the operation, and `inside` them,
    /// charged by the structure while it holds its locks.
    struct Work {
        unsigned outside = 0, inside = 0;
        unsigned per_lock = 0; ///< also inside, per lock taken (a lock-coupling walk)
    };
    /// A structure's measured work by kind of operation and outcome (a
    /// container's push is an insert, its pop a remove); zero where the
    /// cited code was not measured.
    struct MeasuredWork {
        Work lookup_hit, lookup_miss, insert_ok, insert_fail, remove_ok, remove_fail;
        Work of(Op op, bool ok) const {
            switch (op) {
            case Op::insert: return ok ? insert_ok : insert_fail;
            case Op::remove: return ok ? remove_ok : remove_fail;
            case Op::lookup: break;
            }
            return ok ? lookup_hit : lookup_miss;
        }
    };

    explicit DataStructureWorkload(const WorkloadParams& p);

    std::string name() const override { return m_shape.name; }
    uint64_t operations() const override { return m_done; }
    void setup(Driver& d) final;
    void run(CoreApi& c) final;
    CheckResult check(Driver& d) final;
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    /// The cited code's measured work (workload.op_work=measured); none
    /// where a structure has no measured counterpart.
    virtual MeasuredWork measured_work() const { return {}; }

protected:
    /// Builds the structure with its initial keys in simulated memory.
    virtual void build(Driver& d) = 0;
    /// Simulated memory one element takes (node, its locks); setup refuses
    /// sizes that cannot fit before anything is generated.
    virtual uint64_t bytes_per_element() const = 0;
    /// One operation; returns whether it succeeded (inserted, removed, found;
    /// a pop that found an element).
    virtual bool execute(CoreApi& c, Op op, uint64_t key) = 0;
    /// Reads the structure back and checks it against the replay of the log.
    virtual void verify(Driver& d, CheckResult& r) = 0;

    /// workload.op_work=measured.
    bool op_work() const { return m_op_work; }
    /// Executes the inside part of the measured work of `op` with outcome
    /// `ok`; a structure calls it while holding the operation's locks.
    void work_inside(CoreApi& c, Op op, bool ok) const {
        if (m_op_work) charge(c, measured_work().of(op, ok).inside);
    }
    static void charge(CoreApi& c, unsigned instructions) {
        if (instructions > 0) c.compute(instructions);
    }

    uint64_t elements() const { return m_elements; }
    unsigned update_percent() const { return m_update; }
    unsigned insert_percent() const { return m_insert; }
    unsigned ops_per_core() const { return m_ops; }
    unsigned units() const { return m_units; }
    unsigned cores() const { return m_cores; }
    uint64_t seed() const { return m_seed; }
    /// Keys are drawn from [1, key_range()] = twice the initial size, as in
    /// ASCYLIB, so about half the lookups of a set find their key.
    uint64_t key_range() const { return 2 * m_elements; }
    /// Keys are partitioned across units in contiguous ranges.
    unsigned partition_of(uint64_t key) const;
    /// `elements()` distinct keys from [1, key_range()], ascending, seeded.
    std::vector<uint64_t> initial_keys() const;
    /// At most this many inserts can happen during the run (size node pools with it).
    uint64_t max_inserts() const;
    /// A lock for `what` (e.g. "node locks") in `unit`, created before the
    /// run; a clear error naming the parameters when the locks do not fit.
    SyncVar create_lock(Driver& d, unsigned unit, const char* what) const;
    /// A value no other push of the run uses (stack, queue).
    static uint64_t unique_value(unsigned core, uint64_t k) { return (uint64_t(core) + 1) << 40 | (k + 1); }

private:
    DataStructureShape m_shape;
    uint64_t m_elements;
    unsigned m_update, m_insert, m_ops;
    uint64_t m_seed;
    bool m_op_work;
    unsigned m_units = 1, m_cores = 0;
    uint64_t m_done = 0;
    std::array<uint64_t, 3> m_count{}, m_succeeded{};
};

} // namespace syncron
