// The data structures' functional checks: a log replayed on a plain C++
// container must catch a wrong answer, a lost update and a structure whose
// contents in memory differ from the replay.
#include <catch2/catch.hpp>

#include "testbenches/workloads/data_structures/sequence_log.h"
#include "testbenches/workloads/data_structures/set_log.h"

using namespace syncron;
using Catch::Matchers::Contains;

TEST_CASE("set log: a correct history passes", "[workloads][check]") {
    SetLog log;
    log.start({2, 4});
    log.insert(0, 3, true);
    log.insert(1, 3, false); // already there
    log.remove(2, 4, true);
    log.lookup(0, 4, false, log.now());
    log.lookup(1, 2, true, log.now());
    CheckResult r;
    log.check("set", {2, 3}, r);
    INFO((r.failures.empty() ? "" : r.failures.front()));
    CHECK(r.ok);
}

TEST_CASE("set log: a wrong update result names the operation", "[workloads][check]") {
    SetLog log;
    log.start({2, 4});
    log.insert(5, 4, true); // 4 is present: a correct set returns false
    CheckResult r;
    log.check("linked_list", {2, 4}, r);
    REQUIRE_FALSE(r.ok);
    CHECK_THAT(r.failures.front(), Contains("linked_list: insert(4) by core 5") && Contains("returns false"));
}

TEST_CASE("set log: a lookup is checked against its window", "[workloads][check]") {
    SECTION("a key removed during a lock-free lookup may be seen either way") {
        SetLog log;
        log.start({7});
        const uint64_t since = log.now();
        log.remove(1, 7, true);
        log.lookup(0, 7, true, since); // started before the removal
        CheckResult r;
        log.check("skip_list", {}, r);
        CHECK(r.ok);
    }
    SECTION("a key absent throughout cannot be found") {
        SetLog log;
        log.start({7});
        log.remove(1, 7, true);
        log.lookup(0, 7, true, log.now()); // started after the removal
        CheckResult r;
        log.check("skip_list", {}, r);
        REQUIRE_FALSE(r.ok);
        CHECK_THAT(r.failures.front(), Contains("lookup(7)") && Contains("absent throughout"));
    }
}

TEST_CASE("set log: contents in memory must equal the replay", "[workloads][check]") {
    SetLog log;
    log.start({1, 2, 3});
    log.remove(0, 2, true);
    CheckResult r;
    log.check("hash_table", {1, 2, 3}, r); // the removal never reached memory
    REQUIRE_FALSE(r.ok);
    CHECK_THAT(r.failures.front(),
               Contains("holds 3 keys") && Contains("first key in memory but not in the replay: 2"));
}

TEST_CASE("sequence log: LIFO, FIFO and min-first replays", "[workloads][check]") {
    SECTION("stack") {
        SequenceLog log;
        log.start(SequenceLog::Discipline::lifo, {{30, 20, 10}}); // top first
        log.push(0, 0, 40);
        log.pop(1, 0, 40);
        log.pop(1, 0, 30);
        CheckResult r;
        log.check("stack", {{20, 10}}, r);
        CHECK(r.ok);
        SequenceLog lost;
        lost.start(SequenceLog::Discipline::lifo, {{30, 20, 10}});
        lost.push(0, 0, 40);
        lost.push(1, 0, 50);
        CheckResult bad;
        lost.check("stack", {{50, 30, 20, 10}}, bad); // the push of 40 was lost
        REQUIRE_FALSE(bad.ok);
        CHECK_THAT(bad.failures.front(), Contains("partition 0 holds 4 elements") && Contains("replay 40"));
    }
    SECTION("queue") {
        SequenceLog log;
        log.start(SequenceLog::Discipline::fifo, {{1, 2}}); // front first
        log.push(0, 0, 3);
        log.pop(0, 0, 2); // the front is 1
        CheckResult r;
        log.check("queue", {{3}}, r);
        REQUIRE_FALSE(r.ok);
        CHECK_THAT(r.failures.front(),
                   Contains("pop on partition 0 by core 0") && Contains("returned 2") && Contains("returns 1"));
    }
    SECTION("priority queue: each key once, the minimum first; an empty container") {
        SequenceLog log;
        log.start(SequenceLog::Discipline::min_first, {{9, 4, 6}});
        log.pop(0, 0, 4);
        log.pop(1, 0, 6);
        log.pop(2, 0, 9);
        log.pop(3, 0, std::nullopt);
        log.peek(3, 0, std::nullopt);
        CheckResult r;
        log.check("priority_queue", {{}}, r);
        CHECK(r.ok);
        SequenceLog twice;
        twice.start(SequenceLog::Discipline::min_first, {{9, 4, 6}});
        twice.pop(0, 0, 4);
        twice.pop(1, 0, 4); // the same key returned twice
        CheckResult bad;
        twice.check("priority_queue", {{9}}, bad);
        REQUIRE_FALSE(bad.ok);
        CHECK_THAT(bad.failures.front(), Contains("deleteMin") && Contains("returned 4") && Contains("returns 6"));
    }
}
