// The MESI directory protocol on the platform (docs/coherence.md), LT and AT:
// many cores issue random loads, stores and atomics to a few coherent lines
// (coherence.shared_data) homed in every unit; the coherence checker runs
// after every L1 state change; every value a load or an atomic returned, and
// memory at the end, are compared with a sequentially consistent replay of
// the same operations in the order they were performed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>

#include "models/core/ndp_core.h"
#include "platforms/ndp_platform.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/child_result.h"

using namespace syncron;

namespace {

/// Random operations on `lines` coherent lines of 8 words, logged in the
/// order they were performed (each is atomic in the simulator's host order,
/// which is the coherence order the protocol allowed).
class RandomCoherence : public Workload {
public:
    enum class Op : uint8_t { load, store, faa, cas, swap };
    struct Entry {
        unsigned core;
        Op op;
        uint64_t addr;
        uint64_t operand, compare;
        uint64_t result; ///< value loaded / old value of an atomic
        uint64_t seq;    ///< when it was performed, among all cores' accesses
    };

    RandomCoherence(unsigned lines, unsigned ops, uint64_t seed) : m_lines(lines), m_ops(ops), m_seed(seed) {}

    std::string name() const override { return "random_coherence"; }
    /// Numbers every coherent access as the cores perform it (the order of
    /// the log is not that order: a core may yield before logging).
    void hook(NdpPlatform& p) {
        m_last.assign(p.client_cores(), 0);
        for (unsigned i = 0; i < p.client_cores(); ++i)
            p.core(i).set_perform_hook([this, i](uint64_t) { m_last[i] = ++m_performed; });
    }
    void setup(Driver& d) override {
        // One line per allocation, homed round-robin over the units.
        for (unsigned i = 0; i < m_lines; ++i) m_base.push_back(d.allocate(i % d.units(), 64, Sharing::shared));
    }
    void run(CoreApi& api) override {
        auto& core = dynamic_cast<NdpCore&>(api); // atomics are CoreServices
        std::mt19937_64 rng(m_seed * 1000003 + api.global_id());
        for (unsigned k = 0; k < m_ops; ++k) {
            api.compute(rng() % 40);
            Entry e{api.global_id(), static_cast<Op>(rng() % 5), m_base[rng() % m_lines] + 8 * (rng() % 8), 0, 0, 0, 0};
            e.operand = (uint64_t(api.global_id()) << 32) | k; // unique per store
            switch (e.op) {
            case Op::load: e.result = api.load(e.addr, 8); break;
            case Op::store: api.store(e.addr, e.operand, 8); break;
            case Op::faa:
                e.operand = 1 + rng() % 3;
                e.result = core.atomic(AtomicOp::faa, e.addr, e.operand, 0, 8);
                break;
            case Op::cas:
                // Half of them against the value just seen, so some succeed.
                e.compare = rng() % 2 ? api.load(e.addr, 8) : rng() % 4;
                e.result = core.atomic(AtomicOp::cas, e.addr, e.operand, e.compare, 8);
                break;
            case Op::swap: e.result = core.atomic(AtomicOp::swap, e.addr, e.operand, 0, 8); break;
            }
            e.seq = m_last[api.global_id()];
            m_log.push_back(e);
        }
    }
    CheckResult check(Driver& d) override {
        CheckResult r;
        std::sort(m_log.begin(), m_log.end(), [](const Entry& a, const Entry& b) { return a.seq < b.seq; });
        std::map<uint64_t, uint64_t> ref; // the sequentially consistent memory
        for (size_t i = 0; i < m_log.size(); ++i) {
            const Entry& e = m_log[i];
            uint64_t& word = ref[e.addr];
            const auto expect = [&](uint64_t got) {
                if (got != word && r.ok)
                    r.fail("operation " + std::to_string(i) + " of core " + std::to_string(e.core) + " at " +
                           std::to_string(e.addr) + " returned " + std::to_string(got) + ", the replay says " +
                           std::to_string(word));
            };
            switch (e.op) {
            case Op::load: expect(e.result); break;
            case Op::store: word = e.operand; break;
            case Op::faa:
                expect(e.result);
                word += e.operand;
                break;
            case Op::cas:
                expect(e.result);
                if (word == e.compare) word = e.operand;
                break;
            case Op::swap:
                expect(e.result);
                word = e.operand;
                break;
            }
        }
        for (const auto& [addr, value] : ref)
            if (d.read(addr, 8) != value && r.ok)
                r.fail("memory at " + std::to_string(addr) + " ends as " + std::to_string(d.read(addr, 8)) +
                       ", the replay says " + std::to_string(value));
        return r;
    }
    uint64_t operations() const override { return m_log.size(); }

private:
    unsigned m_lines, m_ops;
    uint64_t m_seed;
    std::vector<uint64_t> m_base;
    std::vector<Entry> m_log;
    std::vector<uint64_t> m_last; ///< per core: the number of its last performed access
    uint64_t m_performed = 0;
};

SimParams coherent_platform(Timing timing, unsigned units, unsigned cores) {
    SimParams p;
    p.platform.timing = timing;
    p.platform.units = units;
    p.platform.client_cores = cores;
    p.coherence.shared_data = true;
    p.check.coherence = true;
    p.check.protocol = timing == Timing::at;
    return p;
}

nlohmann::json run_random(Timing timing, unsigned units, unsigned cores, unsigned lines, uint64_t seed) {
    return in_child([=] {
        auto w = std::make_unique<RandomCoherence>(lines, 150, seed);
        RandomCoherence* wp = w.get();
        const SimulationResult r =
            simulate(coherent_platform(timing, units, cores), std::move(w), [wp](NdpPlatform& p) { wp->hook(p); });
        nlohmann::json j = r.stats;
        j["ok"] = r.ok;
        j["error"] = r.error;
        return j;
    });
}

void expect_coherent_run(const nlohmann::json& j) {
    REQUIRE_CHILD_OK(j);
    INFO(j.value("error", std::string()));
    REQUIRE(j.at("ok").get<bool>());
    const auto& c = j.at("coherence");
    CHECK(c.at("checker").at("violations") == 0);
    CHECK(c.at("checker").at("checks").get<uint64_t>() > 1000);
    CHECK(c.at("invalidations").get<uint64_t>() > 0);
    CHECK(c.at("forwards").get<uint64_t>() > 0);
    CHECK(c.at("core_atomics_in_l1").get<uint64_t>() > 0);
    CHECK(c.at("bytes_across_links").get<uint64_t>() > 0);
    CHECK(j.value("protocol_violations", 0) == 0);
}

} // namespace

TEST_CASE("coherence LT: random loads, stores and atomics match a sequentially consistent replay",
          "[coherence][platform]") {
    for (uint64_t seed : {1, 2, 3}) {
        INFO("seed " << seed);
        expect_coherent_run(run_random(Timing::lt, 4, 32, 3, seed));
    }
}

TEST_CASE("coherence AT: random loads, stores and atomics match a sequentially consistent replay",
          "[coherence][platform][at]") {
    for (uint64_t seed : {1, 2, 3}) {
        INFO("seed " << seed);
        expect_coherent_run(run_random(Timing::at, 4, 32, 3, seed));
    }
}

TEST_CASE("coherence AT: one hot line, every core, deferred forwards and queued requests",
          "[coherence][platform][at]") {
    const nlohmann::json j = run_random(Timing::at, 2, 30, 1, 7);
    expect_coherent_run(j);
    CHECK(j.at("coherence").at("queued_requests").get<uint64_t>() > 0);
}

TEST_CASE("coherence: evictions of coherent lines (a 2-line L1) put the line back", "[coherence][platform]") {
    for (Timing timing : {Timing::lt, Timing::at}) {
        const nlohmann::json j = in_child([timing] {
            SimParams p = coherent_platform(timing, 2, 8);
            p.core.l1_bytes = 128; // 1 set x 2 ways: every third line evicts
            p.core.l1_ways = 2;
            auto w = std::make_unique<RandomCoherence>(6, 150, 11);
            RandomCoherence* wp = w.get();
            const SimulationResult r = simulate(p, std::move(w), [wp](NdpPlatform& pl) { wp->hook(pl); });
            nlohmann::json s = r.stats;
            s["ok"] = r.ok;
            s["error"] = r.error;
            return s;
        });
        expect_coherent_run(j);
        const auto& req = j.at("coherence").at("core_requests");
        CHECK(req.value("put_m", 0) + req.value("put_e", 0) > 0);
        CHECK(j.at("coherence").at("write_backs").get<uint64_t>() > 0);
    }
}

TEST_CASE("coherence: without mesi_lock or shared_data there are no directories", "[coherence][platform]") {
    const nlohmann::json j = in_child([] {
        SimParams p;
        p.workload.name = "lock";
        p.workload.ops = 5;
        const SimulationResult r = simulate(p);
        nlohmann::json s = r.stats;
        s["ok"] = r.ok;
        return s;
    });
    REQUIRE_CHILD_OK(j);
    CHECK(j.at("ok").get<bool>());
    CHECK_FALSE(j.contains("coherence"));
}
