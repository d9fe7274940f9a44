// The locks each data-structure operation takes, per kind of operation, where
// the protocol follows the cited code (docs/workloads.md, "Lock protocols
// against the cited code"). The workload runs one operation at a time on a
// host rig (host_rig.h), which records every call of each operation.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "models/common/params.h"
#include "testbenches/tests/host_rig.h"
#include "testbenches/workloads/data_structures/data_structures.h"

using namespace syncron;

namespace {

using test::HostRig;

WorkloadParams one_op_per_core(const std::string& name, uint64_t elements, unsigned insert_percent) {
    WorkloadParams p;
    p.name = name;
    p.ops = 1;
    p.elements = elements;
    p.update_percent = 100;
    p.insert_percent = insert_percent;
    return p;
}

} // namespace

TEST_CASE("bst_drachsler: a failing update takes no lock, an insert 2, a delete 4 to 6 (ASCYLIB's default build)",
          "[workloads][data_structures]") {
    const bool inserts = GENERATE(false, true);
    INFO((inserts ? "inserts" : "deletes"));
    // 64 keys of 1..128: about half the operations find their key.
    constexpr unsigned kCores = 400;
    HostRig rig(4, kCores);
    auto w = make_bst_drachsler(one_op_per_core("bst_drachsler", 64, inserts ? 100 : 0));
    w->setup(rig);
    unsigned failed = 0, succeeded = 0;
    std::map<unsigned, unsigned> locks_per_success;
    for (unsigned core = 0; core < kCores; ++core) {
        rig.run_core(*w, core);
        const unsigned locks = rig.count(HostRig::Call::acquire);
        INFO("core " << core << ": " << locks << " locks, " << rig.count(HostRig::Call::store) << " stores");
        CHECK(rig.count(HostRig::Call::release) == locks);
        if (rig.count(HostRig::Call::store) == 0) { // failed: decided by the lock-free walk
            ++failed;
            CHECK(locks == 0);
        } else {
            ++succeeded;
            ++locks_per_success[locks];
            if (inserts)
                CHECK(locks == 2); // the predecessor's succ lock, the new parent's tree lock
            else
                CHECK((locks >= 4 && locks <= 6)); // 2 succ locks; node, parent (successor and its parent)
        }
    }
    CHECK(failed > 0);
    CHECK(succeeded > 0);
    // Deletes of nodes with two children (5 or 6 locks) happen in this tree.
    if (!inserts) CHECK(locks_per_success.size() >= 2);
    const CheckResult r = w->check(rig);
    INFO((r.failures.empty() ? std::string() : r.failures.front()));
    CHECK(r.ok);
}

TEST_CASE("queue: an enqueue takes the tail lock, a dequeue or peek the head lock (two-lock queue)",
          "[workloads][data_structures]") {
    constexpr unsigned kUnits = 2, kCores = 200;
    HostRig rig(kUnits, kCores);
    WorkloadParams p = one_op_per_core("queue", 8, 50);
    p.update_percent = 80; // pops, pushes and peeks
    auto w = make_queue(p);
    w->setup(rig);
    std::set<SyncVar> enqueue_locks, dequeue_locks;
    unsigned enqueues = 0, dequeues = 0;
    for (unsigned core = 0; core < kCores; ++core) {
        rig.run_core(*w, core);
        REQUIRE(rig.count(HostRig::Call::acquire) == 1);
        REQUIRE(rig.calls.size() >= 2);
        // An enqueue fills its private node before it locks; a dequeue or a
        // peek touches memory only under its lock.
        const bool enqueue = rig.calls.front().kind == HostRig::Call::store;
        SyncVar lock = 0;
        for (const auto& c : rig.calls)
            if (c.kind == HostRig::Call::acquire) lock = c.addr;
        (enqueue ? enqueue_locks : dequeue_locks).insert(lock);
        ++(enqueue ? enqueues : dequeues);
    }
    CHECK(enqueues > 0);
    CHECK(dequeues > 0);
    // One tail lock and one head lock per unit's queue, never the same.
    CHECK(enqueue_locks.size() == kUnits);
    CHECK(dequeue_locks.size() == kUnits);
    for (const SyncVar l : enqueue_locks) CHECK(dequeue_locks.count(l) == 0);
    const CheckResult r = w->check(rig);
    INFO((r.failures.empty() ? std::string() : r.failures.front()));
    CHECK(r.ok);
}
