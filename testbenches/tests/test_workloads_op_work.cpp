// workload.op_work=measured: every data-structure operation executes the
// cited code's other instructions (docs/workloads.md, "Work per edge / per
// operation, measured"), the part ASCYLIB executes inside its locks while the
// operation holds a lock and the rest with none held; `none` adds nothing.
// One operation per core on the host rig (host_rig.h), its kind and outcome
// read from the workload's own counters.
#include <catch2/catch.hpp>

#include <string>

#include "platforms/workload_registry.h"
#include "testbenches/tests/host_rig.h"
#include "testbenches/workloads/data_structures/ds_workload.h"

using namespace syncron;
using test::HostRig;

namespace {

using Op = DataStructureWorkload::Op;

/// The kind and outcome of the operation a core just ran, from the counters.
struct Outcome {
    Op op;
    bool ok;
};
Outcome last_op(const nlohmann::json& before, const nlohmann::json& after) {
    for (const auto& [name, op] : {std::pair{"inserts", Op::insert}, {"removes", Op::remove}, {"lookups", Op::lookup}})
        if (after[name] != before[name])
            return {op, after[std::string(name) + "_succeeded"] != before[std::string(name) + "_succeeded"]};
    throw std::logic_error("no operation counted");
}

} // namespace

TEST_CASE("op_work=measured: each operation computes the cited code's work, its inside part with a lock held",
          "[workloads][data_structures]") {
    const std::string name = GENERATE("stack", "queue", "array_map", "hash_table", "skip_list", "bst_drachsler",
                                      "linked_list", "priority_queue", "bst_fg");
    const unsigned update = GENERATE(0u, 100u);
    INFO(name << ", " << update << "% updates");
    constexpr unsigned kCores = 120;
    WorkloadParams p;
    p.name = name;
    p.ops = 1;
    p.elements = 32; // keys of 1..64: about half the operations find theirs
    p.update_percent = update;
    p.insert_percent = 50;
    p.op_work = "measured";
    auto w = WorkloadRegistry::instance().make(p);
    auto& ds = dynamic_cast<DataStructureWorkload&>(*w);
    HostRig rig(2, kCores);
    w->setup(rig);
    const StatContext ctx{};
    nlohmann::json before;
    w->report_stats(ctx, before);
    unsigned charged = 0;
    for (unsigned core = 0; core < kCores; ++core) {
        rig.run_core(*w, core);
        nlohmann::json after;
        w->report_stats(ctx, after);
        const Outcome o = last_op(before, after);
        before = after;
        const DataStructureWorkload::Work expected = ds.measured_work().of(o.op, o.ok);
        INFO("core " << core << ": op " << int(o.op) << (o.ok ? " succeeded" : " failed"));
        CHECK(rig.computed(false) == expected.outside);
        if (name == "linked_list") // per lock taken: 3 for a lookup, 4 for an update
            CHECK(rig.computed(true) == (o.op == Op::lookup ? 3u : 4u) * rig.count(HostRig::Call::acquire));
        else
            CHECK(rig.computed(true) == expected.inside);
        charged += rig.count(HostRig::Call::compute) > 0 ? 1 : 0;
    }
    // ASCYLIB has no counterpart of ours for these two: nothing is charged.
    if (name == "priority_queue" || name == "bst_fg")
        CHECK(charged == 0);
    else if (!(update == 0 && (name == "stack" || name == "queue"))) // a peek is not measured
        CHECK(charged > 0);
    const CheckResult r = w->check(rig);
    INFO((r.failures.empty() ? std::string() : r.failures.front()));
    CHECK(r.ok);
}

TEST_CASE("op_work=none (the default) adds no computation to any data structure", "[workloads][data_structures]") {
    const std::string name = GENERATE("stack", "queue", "array_map", "hash_table", "skip_list", "bst_drachsler",
                                      "linked_list", "priority_queue", "bst_fg");
    INFO(name);
    WorkloadParams p;
    p.name = name;
    p.ops = 1;
    p.elements = 32;
    p.update_percent = 50;
    p.insert_percent = 50;
    CHECK(p.op_work == "none");
    auto w = WorkloadRegistry::instance().make(p);
    HostRig rig(2, 60);
    w->setup(rig);
    for (unsigned core = 0; core < 60; ++core) {
        rig.run_core(*w, core);
        CHECK(rig.count(HostRig::Call::compute) == 0);
    }
}
