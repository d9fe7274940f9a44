// The MESI directory's function (models/coherence/core/directory.h) and the
// coherence checker, without SystemC: every row of docs/coherence.md's
// directory table, queueing on a busy line, the put races, and the checker
// catching each kind of broken invariant.
#include <catch2/catch.hpp>

#include <map>

#include "models/coherence/core/coherence_checker.h"
#include "models/coherence/core/directory.h"

using namespace syncron;

namespace {

constexpr uint64_t kLine = 0x10040;

Directory::Request req(CoherenceMsg m, unsigned cache, void* handle = nullptr) { return {m, kLine, cache, handle}; }

/// Runs one transaction whose probes all answer `present`, `dirty`;
/// returns the outcome and the probes it sent.
std::pair<Directory::Outcome, std::vector<Directory::Probe>> serve(Directory& d, CoherenceMsg m, unsigned cache,
                                                                   bool present = true, bool dirty = false) {
    const auto plan = d.begin(req(m, cache));
    REQUIRE(plan);
    for (const auto& p : plan->probes) d.answered(kLine, p.cache, present, dirty && p.msg != CoherenceMsg::inv);
    (void)d.needs_memory(kLine);
    return {d.finish(kLine), plan->probes};
}

} // namespace

TEST_CASE("directory: get_s on an idle line grants E from memory", "[coherence]") {
    Directory d(8);
    const auto plan = d.begin(req(CoherenceMsg::get_s, 3));
    REQUIRE(plan);
    CHECK(plan->probes.empty());
    CHECK(d.needs_memory(kLine));
    const auto o = d.finish(kLine);
    CHECK(o.granted == MesiState::E);
    CHECK(o.with_data);
    CHECK(d.state(kLine) == Directory::State::EM);
    CHECK(d.permits(kLine, 3, MesiState::M));
    CHECK_FALSE(d.permits(kLine, 4, MesiState::S));
    CHECK(d.stats().memory_reads == 1);
}

TEST_CASE("directory: get_s while another cache owns the line forwards to it", "[coherence]") {
    Directory d(8);
    serve(d, CoherenceMsg::get_m, 1);
    const auto [o, probes] = serve(d, CoherenceMsg::get_s, 2, /*present=*/true, /*dirty=*/true);
    REQUIRE(probes.size() == 1);
    CHECK(probes[0].msg == CoherenceMsg::fwd_get_s);
    CHECK(probes[0].cache == 1);
    CHECK(o.granted == MesiState::S);
    CHECK(o.write_back); // the dirty owner's data reaches memory
    CHECK(d.state(kLine) == Directory::State::S);
    CHECK(d.permits(kLine, 1, MesiState::S));
    CHECK(d.permits(kLine, 2, MesiState::S));
    CHECK(d.stats().owner_data == 1);
}

TEST_CASE("directory: a forward to an owner that no longer has the line falls back to memory", "[coherence]") {
    Directory d(8);
    serve(d, CoherenceMsg::get_s, 1); // E at 1, later dropped
    const auto plan = d.begin(req(CoherenceMsg::get_s, 2));
    REQUIRE(plan);
    REQUIRE(plan->probes.size() == 1);
    d.answered(kLine, 1, /*present=*/false, false);
    CHECK(d.needs_memory(kLine));
    const auto o = d.finish(kLine);
    CHECK(o.granted == MesiState::E); // nobody else holds it
    CHECK_FALSE(d.permits(kLine, 1, MesiState::S));
}

TEST_CASE("directory: get_m invalidates every other sharer, and an upgrade carries no data", "[coherence]") {
    Directory d(8);
    serve(d, CoherenceMsg::get_s, 0); // E
    serve(d, CoherenceMsg::get_s, 1); // 0 and 1 share
    serve(d, CoherenceMsg::get_s, 2);
    REQUIRE(d.state(kLine) == Directory::State::S);
    const auto plan = d.begin(req(CoherenceMsg::get_m, 1));
    REQUIRE(plan);
    std::map<unsigned, CoherenceMsg> sent;
    for (const auto& p : plan->probes) sent[p.cache] = p.msg;
    CHECK(sent == std::map<unsigned, CoherenceMsg>{{0, CoherenceMsg::inv}, {2, CoherenceMsg::inv}});
    CHECK(d.pending(kLine) == 2);
    d.answered(kLine, 0, true, false);
    d.answered(kLine, 2, false, false); // dropped silently: still acknowledged
    CHECK_FALSE(d.needs_memory(kLine)); // 1 keeps its copy
    const auto o = d.finish(kLine);
    CHECK(o.granted == MesiState::M);
    CHECK_FALSE(o.with_data);
    CHECK(d.permits(kLine, 1, MesiState::M));
    CHECK_FALSE(d.permits(kLine, 0, MesiState::S));
    CHECK(d.stats().probes[static_cast<unsigned>(CoherenceMsg::inv)] == 2);
}

TEST_CASE("directory: get_m from an owner's rival moves ownership with the data", "[coherence]") {
    Directory d(8);
    serve(d, CoherenceMsg::get_m, 4);
    const auto [o, probes] = serve(d, CoherenceMsg::get_m, 5, true, true);
    REQUIRE(probes.size() == 1);
    CHECK(probes[0].msg == CoherenceMsg::fwd_get_m);
    CHECK(o.granted == MesiState::M);
    CHECK(o.with_data);
    CHECK_FALSE(o.write_back); // the dirty line moves on, memory is not updated
    CHECK(d.permits(kLine, 5, MesiState::M));
    CHECK_FALSE(d.permits(kLine, 4, MesiState::S));
}

TEST_CASE("directory: puts from the owner free the line, and a put that lost a race is stale", "[coherence]") {
    Directory d(8);
    serve(d, CoherenceMsg::get_m, 1);
    auto [o, probes] = serve(d, CoherenceMsg::put_m, 1);
    CHECK(probes.empty());
    CHECK(o.write_back);
    CHECK(d.lines() == 0); // an idle line in I is forgotten

    serve(d, CoherenceMsg::get_s, 1); // E at 1
    serve(d, CoherenceMsg::get_m, 2); // forwarded to 1: now M at 2
    std::tie(o, probes) = serve(d, CoherenceMsg::put_e, 1);
    CHECK_FALSE(o.write_back);
    CHECK(d.stats().stale_puts == 1);
    CHECK(d.permits(kLine, 2, MesiState::M)); // the stale put changed nothing
}

TEST_CASE("directory: requests for a busy line wait in order", "[coherence]") {
    Directory d(8);
    int first_handle = 0, second = 0, third = 0;
    serve(d, CoherenceMsg::get_m, 0);
    const auto first = d.begin(req(CoherenceMsg::get_m, 1, &first_handle));
    REQUIRE(first);
    CHECK_FALSE(d.begin(req(CoherenceMsg::get_s, 2, &second)));
    CHECK_FALSE(d.begin(req(CoherenceMsg::get_m, 3, &third)));
    CHECK(d.busy(kLine));
    CHECK(d.stats().queued == 2);
    CHECK_FALSE(d.next_waiting(kLine)); // still busy
    d.answered(kLine, 0, true, true);
    d.finish(kLine);
    const auto next = d.next_waiting(kLine);
    REQUIRE(next);
    CHECK(next->handle == &second);
    REQUIRE(d.begin(*next));
    CHECK(d.current(kLine).cache == 2);
    CHECK(d.stats().busy_max == 1);
}

TEST_CASE("directory: bad requests are refused with a message", "[coherence]") {
    Directory d(4);
    CHECK_THROWS_WITH(d.begin(req(CoherenceMsg::inv, 0)), Catch::Contains("is a probe"));
    CHECK_THROWS_WITH(d.begin(req(CoherenceMsg::get_s, 4)), Catch::Contains("out of range"));
    CHECK_THROWS_AS(d.finish(kLine), std::logic_error);
    CHECK_THROWS_AS(Directory(0), std::invalid_argument);
}

TEST_CASE("coherence checker: catches two writers, a writer beside a reader, and a holder the directory does not list",
          "[coherence]") {
    Directory d(3);
    std::map<std::pair<unsigned, uint64_t>, MesiState> l1;
    CoherenceChecker c(
        3,
        [&](unsigned cache, uint64_t line) {
            auto it = l1.find({cache, line});
            return it == l1.end() ? MesiState::I : it->second;
        },
        [&](uint64_t) { return &d; });
    serve(d, CoherenceMsg::get_m, 0);
    l1[{0, kLine}] = MesiState::M;
    CHECK(c.check(kLine).empty());
    l1[{1, kLine}] = MesiState::E;
    CHECK_THAT(c.check(kLine), Catch::Contains("more than one cache may write"));
    l1[{1, kLine}] = MesiState::S;
    CHECK_THAT(c.check(kLine), Catch::Contains("writer beside readers"));
    l1.erase({0, kLine});
    CHECK_THAT(c.check(kLine), Catch::Contains("directory has EM owner 0"));
    CHECK(c.violations() == 3);
    CHECK_THAT(c.first_violation(), Catch::Contains("line 0x10040"));
}
