// workload.op_work=measured: every data-structure operation executes the
// cited code's other instructions (docs/workloads.md, "Work per edge / per
// operation, measured"), the part ASCYLIB executes inside its locks while the
// operation holds a lock and the rest with none held; `none` adds nothing.
// One operation per core on the host rig (host_rig.h), its kind and outcome
// read from the workload's own counters.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

using Work = DataStructureWorkload::Work;

/// A cell of docs/workloads.md's table: "—", "A", "A + B" or "A + N/lock".
Work parse_cell(const std::string& cell) {
    Work w;
    if (cell == "—") return w;
    std::istringstream in(cell);
    in >> w.outside;
    std::string plus, rest;
    if (in >> plus >> rest) {
        REQUIRE(plus == "+");
        const auto slash = rest.find("/lock");
        (slash == std::string::npos ? w.inside : w.per_lock) = unsigned(std::stoul(rest.substr(0, slash)));
    }
    REQUIRE_FALSE((in.fail() && !in.eof()));
    return w;
}

/// The rows of the table "| structure | lookup hit | ..." in docs/workloads.md.
std::vector<std::vector<std::string>> documented_work() {
    std::ifstream in(std::string(SYNCRON_SOURCE_DIR) + "/docs/workloads.md");
    REQUIRE(in);
    std::vector<std::vector<std::string>> rows;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("| structure | lookup hit |", 0) == 0) {
            inside = true;
            continue;
        }
        if (!inside) continue;
        if (line.empty() || line[0] != '|') break;
        if (line.rfind("|---", 0) == 0) continue;
        std::vector<std::string> cells;
        std::istringstream cols(line.substr(1));
        for (std::string c; std::getline(cols, c, '|');) {
            c.erase(0, c.find_first_not_of(' '));
            c.erase(c.find_last_not_of(' ') + 1);
            cells.push_back(c);
        }
        rows.push_back(cells);
    }
    return rows;
}

bool same(const Work& a, const Work& b) {
    return a.outside == b.outside && a.inside == b.inside && a.per_lock == b.per_lock;
}

} // namespace

TEST_CASE("op_work=measured: the table of docs/workloads.md is the structures' own", "[workloads][data_structures]") {
    const auto rows = documented_work();
    std::vector<std::string> names;
    for (const auto& row : rows) {
        REQUIRE(row.size() == 7);
        const std::string& name = row[0];
        names.push_back(name);
        INFO(name);
        WorkloadParams p;
        p.name = name;
        auto w = WorkloadRegistry::instance().make(p);
        const auto code = dynamic_cast<DataStructureWorkload&>(*w).measured_work();
        const Work* columns[] = {&code.lookup_hit,  &code.lookup_miss, &code.insert_ok,
                                 &code.insert_fail, &code.remove_ok,   &code.remove_fail};
        for (size_t i = 0; i < 6; ++i) {
            INFO("column " << i + 2 << ": " << row[i + 1]);
            CHECK(same(parse_cell(row[i + 1]), *columns[i]));
        }
    }
    // Every data structure has its row.
    CHECK(names == std::vector<std::string>{"stack", "queue", "array_map", "hash_table", "skip_list", "linked_list",
                                            "bst_drachsler", "priority_queue", "bst_fg"});
}

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
        CHECK(rig.computed(true) == expected.inside + expected.per_lock * rig.count(HostRig::Call::acquire));
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
