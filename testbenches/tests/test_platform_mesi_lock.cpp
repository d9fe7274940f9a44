// The mesi_lock scheme (docs/schemes.md, "mesi_lock"): its client against a
// scripted core (the loads, stores and atomics each primitive issues, the
// libslock back-off sequence, errors that write nothing), then whole runs:
// barriers reused over many episodes, many locks, the parameters. The
// microbenchmark matrix is in test_platform_schemes.cpp, condvar_apart in
// test_platform_condvar_apart.cpp, the data structures and applications
// iterate over scheme_names().
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "models/core/core_services.h"
#include "models/schemes/mesi_lock_client.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/platform_test_helpers.h"

using namespace syncron;

namespace {

constexpr uint64_t kVar = 0x4000; // a syncronVar: word 0 at kVar, word 1 at kVar + 8

/// A core for the client alone: a word memory, a log of what was issued, and
/// hooks standing for the other cores (run before each load or atomic).
class ScriptedCore final : public CoreServices {
public:
    struct Op {
        std::string kind; ///< load, store, cas, swap, faa, compute
        uint64_t addr;
        uint64_t value; ///< stored value, operand, or instructions
    };

    explicit ScriptedCore(unsigned id = 3) : m_id(id), m_map(4, 16, MemoryParams{}) {}

    std::map<uint64_t, uint64_t> mem;
    std::vector<Op> log;
    std::function<void(uint64_t addr)> before_load, before_atomic;

    unsigned count(const std::string& kind) const {
        unsigned n = 0;
        for (const auto& o : log) n += o.kind == kind;
        return n;
    }
    std::vector<uint64_t> computes() const {
        std::vector<uint64_t> out;
        for (const auto& o : log)
            if (o.kind == "compute") out.push_back(o.value);
        return out;
    }

    const char* name() const override { return "scripted_core"; }
    unsigned unit() const override { return m_id / 16; }
    unsigned local_id() const override { return m_id % 16; }
    unsigned global_id() const override { return m_id; }
    const AddressMap& address_map() const override { return m_map; }
    void compute(uint64_t n) override { log.push_back({"compute", 0, n}); }
    uint64_t load(uint64_t addr, unsigned) override {
        if (before_load) before_load(addr);
        log.push_back({"load", addr, 0});
        return mem[addr];
    }
    void store(uint64_t addr, uint64_t v, unsigned) override {
        log.push_back({"store", addr, v});
        mem[addr] = v;
    }
    void access(bool, uint64_t, uint8_t*, unsigned) override { FAIL("access"); }
    uint64_t instant_rmw(RmwOp, uint64_t, uint64_t, uint64_t) override {
        FAIL("instant_rmw");
        return 0;
    }
    uint64_t atomic(AtomicOp op, uint64_t addr, uint64_t operand, uint64_t compare, unsigned) override {
        if (before_atomic) before_atomic(addr);
        const uint64_t old = mem[addr];
        switch (op) {
        case AtomicOp::cas:
            log.push_back({"cas", addr, operand});
            if (old == compare) mem[addr] = operand;
            break;
        case AtomicOp::swap:
            log.push_back({"swap", addr, operand});
            mem[addr] = operand;
            break;
        case AtomicOp::faa:
            log.push_back({"faa", addr, operand});
            mem[addr] = old + operand;
            break;
        }
        return old;
    }
    Message message(Opcode, uint64_t, uint64_t) const override { return {}; }
    bool post(uint64_t, const Message&) override { return false; }
    std::optional<Message> exchange(uint64_t, const Message&, Opcode, Opcode) override { return std::nullopt; }
    void expect(uint64_t, Opcode, Opcode) override {}
    std::optional<Message> await_reply(const sc_core::sc_time&) override { return std::nullopt; }
    std::optional<Message> reply_if_arrived(const sc_core::sc_time&) override { return std::nullopt; }
    void deliver(const Message&, const sc_core::sc_time&, const Endpoint&) override {}
    sc_core::sc_time local_time() const override { return sc_core::SC_ZERO_TIME; }
    Received receive() override { return {}; }

private:
    unsigned m_id;
    AddressMap m_map;
};

std::string report_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const sc_core::sc_report& r) {
        return r.what();
    }
    return "(no report)";
}

} // namespace

TEST_CASE("mesi_lock client: a free lock costs a load and a cas, its release a load and a store",
          "[platform][mesi_lock]") {
    ScriptedCore core(3);
    MesiLockClient client(MesiLockParams{}, 1, 3);
    client.request(core, Opcode::lock_acquire_local, kVar, 0);
    CHECK(core.mem[kVar] == 4); // global ID 3 + 1
    REQUIRE(core.log.size() == 2);
    CHECK(core.log[0].kind == "load");
    CHECK(core.log[1].kind == "cas");
    core.log.clear();
    client.request(core, Opcode::lock_release_local, kVar, 0);
    CHECK(core.mem[kVar] == 0);
    REQUIRE(core.log.size() == 2);
    CHECK(core.log[0].kind == "load");
    CHECK(core.log[1].kind == "store");
    const auto& s = client.stats();
    CHECK(s.loads == 2);
    CHECK(s.stores == 1);
    CHECK(s.cas == 1);
    CHECK(s.failed_attempts == 0);
    CHECK(s.spin_loads == 0);
}

TEST_CASE("mesi_lock client: a waiter spins on loads until the lock reads free, then takes it",
          "[platform][mesi_lock]") {
    ScriptedCore core(3);
    MesiLockParams params;
    params.spin_instructions = 7;
    MesiLockClient client(params, 1, 3);
    core.mem[kVar] = 10; // held by core 9
    unsigned loads = 0;
    core.before_load = [&](uint64_t) {
        if (++loads == 6) core.mem[kVar] = 0; // core 9 releases before the 6th load
    };
    client.request(core, Opcode::lock_acquire_local, kVar, 0);
    CHECK(core.mem[kVar] == 4);
    CHECK(core.count("load") == 6);
    CHECK(core.count("cas") == 1); // no atomic while the lock reads taken
    CHECK(core.computes() == std::vector<uint64_t>(5, 7));
    CHECK(client.stats().spin_loads == 5);
    CHECK(client.stats().failed_attempts == 0);
}

TEST_CASE("mesi_lock client: a lost test-and-set backs off as libslock's ttas_lock, the limit kept across calls",
          "[platform][mesi_lock]") {
    const uint64_t seed = 5;
    const unsigned id = 3;
    ScriptedCore core(id);
    MesiLockClient client(MesiLockParams{}, seed, id);
    // Another core wins the first `steals` test-and-sets and releases at once.
    unsigned steals = 14;
    core.before_atomic = [&](uint64_t) {
        if (steals) {
            --steals;
            core.mem[kVar] = 21;
        }
    };
    core.before_load = [&](uint64_t) {
        if (core.mem[kVar] == 21) core.mem[kVar] = 0;
    };
    client.request(core, Opcode::lock_acquire_local, kVar, 0);
    CHECK(core.mem[kVar] == id + 1);
    CHECK(core.count("cas") == 15);
    CHECK(client.stats().failed_attempts == 14);
    // delay = random % limit; limit 1, 2, 4, ... capped at MAX_DELAY (1000).
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + id);
    std::vector<uint64_t> want;
    uint64_t limit = 1, total = 0;
    for (unsigned k = 0; k < 14; ++k) {
        const uint64_t d = rng() % limit;
        CHECK(d < std::min<uint64_t>(uint64_t(1) << k, 1000));
        if (d) want.push_back(d);
        total += d;
        limit = std::min<uint64_t>(2 * limit, 1000);
    }
    CHECK(core.computes() == want); // no spin: every load saw the lock free
    CHECK(client.stats().backoff_cycles == total);
    // The limit is not reset by the success: the next failure draws below 1000.
    client.request(core, Opcode::lock_release_local, kVar, 0);
    core.log.clear();
    steals = 1;
    client.request(core, Opcode::lock_acquire_local, kVar, 0);
    const uint64_t d = rng() % 1000;
    CHECK(core.computes() == (d ? std::vector<uint64_t>{d} : std::vector<uint64_t>{}));
}

TEST_CASE("mesi_lock client: a release of a lock not held is reported and writes nothing", "[platform][mesi_lock]") {
    ScriptedCore core(3);
    MesiLockClient client(MesiLockParams{}, 1, 3);
    // Free.
    std::string what = report_of([&] { client.request(core, Opcode::lock_release_local, kVar, 0); });
    CHECK_THAT(what, Catch::Contains("release of a lock not held by core 3") && Catch::Contains("(it is free)"));
    CHECK(core.mem[kVar] == 0);
    // Held by another core: it keeps it (mutual exclusion is not broken).
    core.mem[kVar] = 8;
    core.log.clear();
    what = report_of([&] { client.request(core, Opcode::lock_release_local, kVar, 0); });
    CHECK_THAT(what, Catch::Contains("release of a lock not held by core 3") && Catch::Contains("(held by core 7)"));
    CHECK(core.mem[kVar] == 8);
    CHECK(core.count("store") + core.count("cas") + core.count("swap") + core.count("faa") == 0);
    // A second acquire by the holder.
    core.mem[kVar] = 4;
    what = report_of([&] { client.request(core, Opcode::lock_acquire_local, kVar, 0); });
    CHECK_THAT(what, Catch::Contains("already holds"));
    CHECK(core.mem[kVar] == 4);
}

TEST_CASE("mesi_lock client: the sense-reversing barrier over many episodes", "[platform][mesi_lock]") {
    ScriptedCore core(3);
    MesiLockClient client(MesiLockParams{}, 1, 3);
    // Alone (1 participant): every arrival is the last; the sense alternates.
    for (unsigned e = 1; e <= 1001; ++e) {
        client.request(core, Opcode::barrier_wait_local_across_units, kVar, 1);
        CHECK(core.mem[kVar] == 0);
        CHECK(core.mem[kVar + 8] == e % 2);
    }
    CHECK(client.stats().faa == 1001);
    CHECK(client.stats().stores == 2002);
    CHECK(client.stats().spin_loads == 0);

    // Two participants on a fresh barrier, alternating who arrives last.
    const uint64_t b = kVar + 64;
    ScriptedCore two(3);
    MesiLockClient c2(MesiLockParams{}, 1, 3);
    for (unsigned e = 1; e <= 100; ++e) {
        const bool last = e % 2 == 0;
        if (last) {
            two.mem[b] = 1; // the other core is already waiting
            two.before_load = nullptr;
        } else {
            unsigned loads = 0; // the other core arrives last during the 4th spin load
            two.before_load = [&two, b, e, loads](uint64_t addr) mutable {
                if (addr == b + 8 && ++loads == 4) {
                    two.mem[b] = 0;
                    two.mem[b + 8] = e % 2;
                }
            };
        }
        c2.request(two, Opcode::barrier_wait_local_within_unit, b, 2);
        CHECK(two.mem[b] == 0);
        CHECK(two.mem[b + 8] == e % 2);
    }
    CHECK(c2.stats().faa == 100);
    CHECK(c2.stats().stores == 100);     // 50 last arrivals, 2 stores each
    CHECK(c2.stats().spin_loads == 150); // 50 waits, 3 spin loads each
}

TEST_CASE("mesi_lock client: semaphore waits spin on the count and take it with a cas", "[platform][mesi_lock]") {
    ScriptedCore core(3);
    MesiLockClient client(MesiLockParams{}, 1, 3);
    // Two initial resources: two waits succeed at once, word 0 goes to -2.
    client.request(core, Opcode::sem_wait_local, kVar, 2);
    client.request(core, Opcode::sem_wait_local, kVar, 2);
    CHECK(static_cast<int64_t>(core.mem[kVar]) == -2);
    CHECK(client.stats().spin_loads == 0);
    // The third spins until a post.
    unsigned loads = 0;
    core.before_load = [&](uint64_t) {
        if (++loads == 3) core.mem[kVar] += 1; // another core posts
    };
    client.request(core, Opcode::sem_wait_local, kVar, 2);
    CHECK(static_cast<int64_t>(core.mem[kVar]) == -2);
    CHECK(client.stats().spin_loads == 2);
    CHECK(client.stats().cas == 3);
    core.before_load = nullptr;
    client.request(core, Opcode::sem_post_local, kVar, 2);
    CHECK(static_cast<int64_t>(core.mem[kVar]) == -1);
    CHECK(client.stats().faa == 1);
}

TEST_CASE("mesi_lock client: cond_wait releases the lock and spins until a signal, and no wake-up is lost",
          "[platform][mesi_lock]") {
    const uint64_t lock = kVar + 64;
    ScriptedCore core(3);
    MesiLockClient client(MesiLockParams{}, 1, 3);
    client.request(core, Opcode::lock_acquire_local, lock, 0);
    core.mem[kVar] = 41; // the sequence before the wait
    bool released_first = false;
    unsigned loads = 0;
    core.before_load = [&](uint64_t addr) {
        if (addr != kVar) return;
        if (core.mem[lock] == 0 && loads == 0) released_first = true;
        if (++loads == 3) core.mem[kVar] += 1; // a signal, after the release
    };
    client.request(core, Opcode::cond_wait_local, kVar, lock);
    CHECK(core.mem[lock] == 0);
    CHECK(core.mem[kVar] == 42);
    CHECK_FALSE(released_first); // the sequence was read before the release
    CHECK(client.stats().spin_loads == 1);
    // A signal that comes before the waiter spins is still seen.
    client.request(core, Opcode::lock_acquire_local, lock, 0);
    loads = 0;
    core.before_load = [&](uint64_t addr) {
        if (addr == kVar && ++loads == 2) core.mem[kVar] += 1;
    };
    client.request(core, Opcode::cond_wait_local, kVar, lock);
    CHECK(core.mem[kVar] == 43);
    core.before_load = nullptr;
    client.request(core, Opcode::cond_signal_local, kVar, 0);
    client.request(core, Opcode::cond_broad_local, kVar, 0);
    CHECK(core.mem[kVar] == 45);
}

// ---------------------------------------------------------------- whole runs

namespace {

SimParams mesi_bench(const std::string& workload, unsigned variables, Timing timing, unsigned ops) {
    SimParams p = syncron::test::bench(workload, 64, variables, timing, ops);
    p.platform.scheme = Scheme::mesi_lock;
    return p;
}

void expect_clean(const SimulationResult& r, const SimParams& p) {
    INFO(r.error);
    for (const auto& f : r.check.failures) UNSCOPED_INFO(f);
    REQUIRE(r.ok);
    CHECK(r.check.ok);
    CHECK(r.stats["scheme"] == "mesi_lock");
    CHECK(r.stats["sync_messages"] == 0);
    if (p.platform.timing == Timing::at) CHECK(r.stats["protocol_violations"] == 0);
    // The synchronization variables were coherent lines, checked at every step.
    const auto& c = r.stats["coherence"];
    CHECK(c["checker"]["violations"] == 0);
    CHECK(c["checker"]["checks"].get<uint64_t>() > 0);
    CHECK(c["core_atomics_in_l1"].get<uint64_t>() > 0);
    CHECK(c["invalidations"].get<uint64_t>() + c["forwards"].get<uint64_t>() > 0);
}

} // namespace

TEST_CASE("mesi_lock: one barrier reused for 200 episodes, LT", "[platform][mesi_lock]") {
    const SimParams p = mesi_bench("barrier", 1, Timing::lt, 200);
    const SimulationResult r = simulate(p);
    expect_clean(r, p);
    CHECK(r.operations == 60ull * 200);
    CHECK(r.stats["mesi_lock"]["faa"] == 60ull * 200);
    CHECK(r.stats["mesi_lock"]["stores"] == 2ull * 200); // the last arrival of each episode
    CHECK(r.stats["mesi_lock"]["spin_loads"].get<uint64_t>() > 0);
}

TEST_CASE("mesi_lock: three barriers used in turn for 60 episodes, AT", "[platform][mesi_lock][at]") {
    const SimParams p = mesi_bench("barrier", 3, Timing::at, 60);
    const SimulationResult r = simulate(p);
    expect_clean(r, p);
    CHECK(r.operations == 60ull * 60);
    CHECK(r.stats["mesi_lock"]["faa"] == 60ull * 60);
}

TEST_CASE("mesi_lock: 16 locks, exclusion checked in memory, LT", "[platform][mesi_lock]") {
    const SimParams p = mesi_bench("lock", 16, Timing::lt, 30);
    const SimulationResult r = simulate(p);
    expect_clean(r, p);
    CHECK(r.operations == 60ull * 30);
    const auto& m = r.stats["mesi_lock"];
    // Every acquisition is one successful cas; every release one store.
    CHECK(m["cas"].get<uint64_t>() - m["failed_attempts"].get<uint64_t>() == 60ull * 30);
    CHECK(m["stores"] == 60ull * 30);
}

TEST_CASE("mesi_lock: the spin and back-off parameters change the run, not its result", "[platform][mesi_lock]") {
    SimParams base = mesi_bench("lock", 1, Timing::lt, 20);
    SimParams slow = base;
    slow.mesi_lock.spin_instructions = 400;
    slow.mesi_lock.backoff_min = 1000;
    slow.mesi_lock.backoff_max = 100000;
    const auto a = syncron::in_child([base] { return simulate(base).stats; });
    const auto b = syncron::in_child([slow] { return simulate(slow).stats; });
    REQUIRE_RUN_OK(a);
    REQUIRE_RUN_OK(b);
    CHECK(a["check"]["ok"] == true);
    CHECK(b["check"]["ok"] == true);
    CHECK(a["operations"] == b["operations"]);
    CHECK(a["config"]["mesi_lock"]["backoff_max"] == 1000);
    CHECK(b["config"]["mesi_lock"]["backoff_max"] == 100000);
    CHECK(b["mesi_lock"]["spin_loads"].get<uint64_t>() < a["mesi_lock"]["spin_loads"].get<uint64_t>());
    CHECK(b["mesi_lock"]["backoff_cycles"].get<uint64_t>() > a["mesi_lock"]["backoff_cycles"].get<uint64_t>());
}
