// CoreApi::atomic_rmw on the whole platform, under every scheme, LT and AT
// (docs/schemes.md): one core's seeded sequence of all five operations on a
// word homed in another unit, and one on a word of its own unit, each old
// value and the final word against a host reference of the same sequence;
// all 60 cores' concurrent fetch-and-adds on one counter end at the exact
// sum; a compare-and-swap retry loop by every core ends at the exact count.
// One small simulation per test case.
#include <catch2/catch.hpp>

#include <random>

#include "models/schemes/scheme_factory.h"
#include "platforms/simulation.h"
#include "testbenches/tests/platform_test_helpers.h"
#include "testbenches/tests/rmw_reference.h"

using namespace syncron;
using syncron::test::host_apply;

namespace {

constexpr unsigned kSequence = 24; // operations of each reference sequence
constexpr unsigned kAdds = 3;      // fetch-and-adds per core
constexpr unsigned kCasIncrements = 2;

class RmwCheck final : public Workload {
public:
    std::string name() const override { return "rmw_check"; }
    void setup(Driver& d) override {
        m_cores = d.client_cores();
        m_remote = d.allocate(2, 64, Sharing::shared); // homed apart from core 0's unit
        m_own = d.allocate(3, 64, Sharing::shared);
        m_counter = d.allocate(1, 64, Sharing::shared);
        m_cas = d.allocate(0, 64, Sharing::shared);
    }
    void run(CoreApi& c) override {
        if (c.global_id() == 0) sequence(c, m_remote, 1, m_remote_ref);
        if (c.unit() == 3 && c.local_id() == 0) sequence(c, m_own, 2, m_own_ref);
        for (unsigned i = 0; i < kAdds; ++i) c.atomic_rmw(m_counter, RmwOp::fetch_add, 1 + c.global_id());
        for (unsigned i = 0; i < kCasIncrements; ++i) {
            uint64_t seen = c.atomic_rmw(m_cas, RmwOp::fetch_add, 0);
            for (uint64_t was; (was = c.atomic_rmw(m_cas, RmwOp::cas, seen + 1, seen)) != seen;) seen = was;
        }
    }
    CheckResult check(Driver& d) override {
        CheckResult r;
        for (const std::string& f : m_failures) r.fail(f);
        if (d.read(m_remote, 8) != m_remote_ref) r.fail("remote word differs from the reference");
        if (d.read(m_own, 8) != m_own_ref) r.fail("own-unit word differs from the reference");
        const uint64_t sum = uint64_t(kAdds) * m_cores * (m_cores + 1) / 2;
        if (d.read(m_counter, 8) != sum)
            r.fail("counter " + std::to_string(d.read(m_counter, 8)) + ", expected " + std::to_string(sum));
        if (d.read(m_cas, 8) != uint64_t(kCasIncrements) * m_cores) r.fail("compare-and-swap count");
        return r;
    }
    uint64_t operations() const override { return 0; }

private:
    /// Each old value against the host's; `ref` ends as the word's value.
    void sequence(CoreApi& c, uint64_t word, uint64_t seed, uint64_t& ref) {
        std::mt19937_64 rng(seed);
        ref = 0;
        for (unsigned i = 0; i < kSequence; ++i) {
            const auto op = static_cast<RmwOp>(i % kRmwOpCount);
            const uint64_t operand = rng() % 64, expected = rng() % 2 ? ref : rng() % 64;
            const uint64_t old = c.atomic_rmw(word, op, operand, expected);
            if (old != ref)
                m_failures.push_back(std::string(to_string(op)) + " #" + std::to_string(i) + " returned " +
                                     std::to_string(old) + ", expected " + std::to_string(ref));
            ref = host_apply(op, ref, operand, op == RmwOp::cas ? expected : 0);
        }
    }

    unsigned m_cores = 0;
    uint64_t m_remote = 0, m_own = 0, m_counter = 0, m_cas = 0;
    uint64_t m_remote_ref = 0, m_own_ref = 0;
    std::vector<std::string> m_failures;
};

void run_rmw(const std::string& scheme, Timing timing) {
    SimParams p = syncron::test::bench("lock", 64, 1, timing);
    p.platform.scheme = *scheme_from_string(scheme);
    const SimulationResult r = simulate(p, std::make_unique<RmwCheck>());
    INFO(scheme << " " << (timing == Timing::at ? "AT" : "LT") << ": " << r.error);
    REQUIRE(r.ok);
    for (const auto& f : r.check.failures) FAIL_CHECK(f);
    CHECK(r.check.ok);
    if (timing == Timing::at) CHECK(r.stats["protocol_violations"] == 0);
    const bool ses = scheme == "syncron" || scheme == "flat" || scheme.rfind("syncron_", 0) == 0;
    if (ses) CHECK(syncron::test::total(r.stats, "rejected_messages") == 0);
    // The message schemes carried it as rmw messages; the others sent none.
    const bool messages = ses || scheme == "central" || scheme == "hier";
    const uint64_t replies = r.stats["messages_by_kind"].value("rmw_reply_local", uint64_t(0));
    CHECK((replies > 0) == messages);
}

/// A workload whose core 5 asks for an rmw on a bad address.
class BadRmw final : public Workload {
public:
    explicit BadRmw(uint64_t offset) : m_offset(offset) {}
    std::string name() const override { return "bad_rmw"; }
    void setup(Driver& d) override { m_word = d.allocate(1, 64, Sharing::shared); }
    void run(CoreApi& c) override {
        if (c.global_id() == 5) c.atomic_rmw(m_offset > 64 ? m_offset : m_word + m_offset, RmwOp::fetch_add, 1);
    }
    CheckResult check(Driver&) override { return {}; }
    uint64_t operations() const override { return 0; }

private:
    uint64_t m_offset;
    uint64_t m_word = 0;
};

} // namespace

TEST_CASE("rmw: syncron LT", "[platform][rmw]") { run_rmw("syncron", Timing::lt); }
TEST_CASE("rmw: syncron AT", "[platform][rmw]") { run_rmw("syncron", Timing::at); }
TEST_CASE("rmw: flat LT", "[platform][rmw]") { run_rmw("flat", Timing::lt); }
TEST_CASE("rmw: flat AT", "[platform][rmw]") { run_rmw("flat", Timing::at); }
TEST_CASE("rmw: central LT", "[platform][rmw]") { run_rmw("central", Timing::lt); }
TEST_CASE("rmw: central AT", "[platform][rmw]") { run_rmw("central", Timing::at); }
TEST_CASE("rmw: hier LT", "[platform][rmw]") { run_rmw("hier", Timing::lt); }
TEST_CASE("rmw: hier AT", "[platform][rmw]") { run_rmw("hier", Timing::at); }
TEST_CASE("rmw: ideal LT", "[platform][rmw]") { run_rmw("ideal", Timing::lt); }
TEST_CASE("rmw: ideal AT", "[platform][rmw]") { run_rmw("ideal", Timing::at); }
TEST_CASE("rmw: remote_atomics LT", "[platform][rmw]") { run_rmw("remote_atomics", Timing::lt); }
TEST_CASE("rmw: remote_atomics AT", "[platform][rmw]") { run_rmw("remote_atomics", Timing::at); }
TEST_CASE("rmw: syncron_central_ovrfl LT", "[platform][rmw]") { run_rmw("syncron_central_ovrfl", Timing::lt); }
TEST_CASE("rmw: syncron_central_ovrfl AT", "[platform][rmw]") { run_rmw("syncron_central_ovrfl", Timing::at); }
TEST_CASE("rmw: syncron_distrib_ovrfl LT", "[platform][rmw]") { run_rmw("syncron_distrib_ovrfl", Timing::lt); }
TEST_CASE("rmw: syncron_distrib_ovrfl AT", "[platform][rmw]") { run_rmw("syncron_distrib_ovrfl", Timing::at); }
TEST_CASE("rmw: mesi_lock LT", "[platform][rmw]") { run_rmw("mesi_lock", Timing::lt); }
TEST_CASE("rmw: mesi_lock AT", "[platform][rmw]") { run_rmw("mesi_lock", Timing::at); }

TEST_CASE("rmw: an unaligned word is reported, naming it", "[platform][rmw][errors]") {
    SimParams p;
    const SimulationResult r = simulate(p, std::make_unique<BadRmw>(4));
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.error, Catch::Contains("atomic_rmw fetch_add") && Catch::Contains("not aligned to 8 bytes"));
}

TEST_CASE("rmw: a word outside memory is reported, naming it", "[platform][rmw][errors]") {
    SimParams p;
    p.platform.scheme = Scheme::remote_atomics;
    const SimulationResult r = simulate(p, std::make_unique<BadRmw>(uint64_t(1) << 62));
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.error, Catch::Contains("0x4000000000000000 is outside memory"));
}
