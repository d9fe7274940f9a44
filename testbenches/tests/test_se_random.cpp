// Randomized test of the SE functional core against a reference model of each
// primitive's semantics: cores run random programs, the network delivers
// messages in a random order (FIFO per channel), and every grant is checked
// (mutual exclusion, barrier epochs, semaphore counts) while any run that
// stops with a core still waiting is a lost wake-up or a deadlock.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>

#include "testbenches/tests/se_test_network.h"

using namespace syncron;
using namespace syncron::test;

namespace {

enum class Kind { lock_cs, sem_region, barrier_all, barrier_subset, barrier_unit, cond_consume, cond_produce };

struct Step {
    Kind kind;
    unsigned var; // index into the scenario's variables of that kind
};

struct CoreSim {
    unsigned unit = 0, core = 0, gid = 0;
    std::vector<Step> program;
    size_t pc = 0;
    int phase = 0;             // progress inside the current step
    bool waiting = false;      // an ACK is outstanding
    Opcode expect{};
    uint64_t expect_addr = 0;
    bool done() const { return pc >= program.size(); }
};

struct Scenario {
    unsigned units, cores;
    SeParams se;
    uint64_t seed;
    bool barriers; // barrier scenario (all cores take part in every barrier) or lock/sem/condvar
};

class Checker {
public:
    Checker(const Scenario& sc) : m_sc(sc), m_net(sc.units, sc.cores, sc.se), m_rng(sc.seed) {
        std::uniform_int_distribution<unsigned> unit(0, sc.units - 1);
        for (unsigned i = 0; i < 3; ++i) locks.push_back(SeNetwork::var(unit(m_rng), i));
        for (unsigned i = 0; i < 2; ++i) sems.push_back(SeNetwork::var(unit(m_rng), 10 + i));
        for (unsigned i = 0; i < 2; ++i) {
            // A condition variable lives with its lock (same Master SE).
            const unsigned u = unit(m_rng);
            conds.push_back(SeNetwork::var(u, 20 + i));
            cond_locks.push_back(SeNetwork::var(u, 30 + i));
        }
        barrier_all = SeNetwork::var(unit(m_rng), 40);
        barrier_subset = SeNetwork::var(unit(m_rng), 41);
        for (unsigned u = 0; u < sc.units; ++u) barrier_unit.push_back(SeNetwork::var(unit(m_rng), 50 + u));
        holder.assign(locks.size() + cond_locks.size(), -1);
        sem_in.assign(sems.size(), 0);
        tokens.assign(conds.size(), 0);
        build_programs();
    }

    void build_programs() {
        const unsigned total = m_sc.units * m_sc.cores;
        std::uniform_int_distribution<unsigned> pick(0, 99);
        for (unsigned u = 0; u < m_sc.units; ++u)
            for (unsigned c = 0; c < m_sc.cores; ++c) {
                CoreSim cs;
                cs.unit = u;
                cs.core = c;
                cs.gid = u * m_sc.cores + c;
                cores.push_back(cs);
            }
        subset_n = 0;
        for (auto& cs : cores) cs.program.clear();
        if (m_sc.barriers) {
            for (unsigned round = 0; round < 6; ++round) {
                for (auto& cs : cores) {
                    if (pick(m_rng) < 40) cs.program.push_back({Kind::lock_cs, pick(m_rng) % 3});
                    cs.program.push_back({Kind::barrier_all, 0});
                    if (cs.gid % 3 == 0) cs.program.push_back({Kind::barrier_subset, 0});
                    cs.program.push_back({Kind::barrier_unit, cs.unit});
                }
            }
            for (unsigned g = 0; g < total; ++g) subset_n += g % 3 == 0;
            return;
        }
        for (auto& cs : cores) {
            for (unsigned i = 0; i < 8; ++i) {
                const unsigned r = pick(m_rng);
                if (r < 45) cs.program.push_back({Kind::lock_cs, r % 3});
                else if (r < 80) cs.program.push_back({Kind::sem_region, r % 2});
            }
            // Balanced producers and consumers per condition variable.
            for (unsigned i = 0; i < 3; ++i)
                cs.program.push_back({cs.gid % 2 ? Kind::cond_produce : Kind::cond_consume, (cs.gid / 2 + i) % 2});
            std::shuffle(cs.program.begin(), cs.program.end(), m_rng);
        }
        // Each consumer step needs a matching producer step on the same variable.
        std::vector<int> balance(conds.size(), 0);
        for (auto& cs : cores)
            for (auto& s : cs.program) {
                if (s.kind == Kind::cond_produce) ++balance[s.var];
                if (s.kind == Kind::cond_consume) --balance[s.var];
            }
        for (unsigned v = 0; v < conds.size(); ++v)
            for (; balance[v] < 0; ++balance[v]) cores[1].program.push_back({Kind::cond_produce, v});
    }

    void fail(const std::string& what) {
        if (failures.size() < 5 || std::getenv("SE_RANDOM_TRACE")) failures.push_back(what);
    }

    void send(CoreSim& cs, Opcode op, uint64_t addr, uint64_t info, Opcode reply) {
        m_net.send(cs.unit, cs.core, op, addr, info);
        if (is_sync_request(op)) {
            cs.waiting = true;
            cs.expect = reply;
            cs.expect_addr = addr;
        }
    }

    // Advances a core that is not waiting by one action.
    void act(CoreSim& cs) {
        const Step& s = cs.program[cs.pc];
        const auto next = [&] { ++cs.pc; cs.phase = 0; };
        switch (s.kind) {
        case Kind::lock_cs:
            if (cs.phase == 0) { send(cs, Opcode::lock_acquire_local, locks[s.var], 0, Opcode::lock_grant_local); cs.phase = 1; }
            else { holder[s.var] = -1; send(cs, Opcode::lock_release_local, locks[s.var], 0, {}); next(); }
            break;
        case Kind::sem_region:
            if (cs.phase == 0) { send(cs, Opcode::sem_wait_local, sems[s.var], kSemInit, Opcode::sem_grant_local); cs.phase = 1; }
            else { --sem_in[s.var]; send(cs, Opcode::sem_post_local, sems[s.var], 0, {}); next(); }
            break;
        case Kind::barrier_all:
        case Kind::barrier_subset:
        case Kind::barrier_unit: {
            const uint64_t b = barrier_addr(s);
            const unsigned n = barrier_n(s);
            auto& epoch = cs_epoch[{cs.gid, b}];
            ++arrivals[{b, epoch}];
            send(cs, s.kind == Kind::barrier_unit ? Opcode::barrier_wait_local_within_unit
                                                  : Opcode::barrier_wait_local_across_units,
                 b, n, Opcode::barrier_depart_local);
            cs.phase = 1;
            break;
        }
        case Kind::cond_produce: {
            const unsigned li = static_cast<unsigned>(locks.size()) + s.var;
            if (cs.phase == 0) { send(cs, Opcode::lock_acquire_local, cond_locks[s.var], 0, Opcode::lock_grant_local); cs.phase = 1; }
            else if (cs.phase == 1) {
                ++tokens[s.var];
                send(cs, (cs.pc + cs.gid) % 4 == 0 ? Opcode::cond_broad_local : Opcode::cond_signal_local, conds[s.var], 0, {});
                cs.phase = 2;
            } else { holder[li] = -1; send(cs, Opcode::lock_release_local, cond_locks[s.var], 0, {}); next(); }
            break;
        }
        case Kind::cond_consume: {
            const unsigned li = static_cast<unsigned>(locks.size()) + s.var;
            if (cs.phase == 0 || cs.phase == 3) {
                send(cs, Opcode::lock_acquire_local, cond_locks[s.var], 0, Opcode::lock_grant_local);
                cs.phase = 1;
            } else if (cs.phase == 1) { // holding the lock: check the predicate
                if (tokens[s.var] > 0) { --tokens[s.var]; cs.phase = 4; }
                else { holder[li] = -1; send(cs, Opcode::cond_wait_local, conds[s.var], cond_locks[s.var], Opcode::cond_grant_local); cs.phase = 2; }
            } else if (cs.phase == 4) { holder[li] = -1; send(cs, Opcode::lock_release_local, cond_locks[s.var], 0, {}); next(); }
            break;
        }
        }
    }

    // A reply reached a core.
    void on_reply(CoreSim& cs, const Message& m) {
        if (!cs.waiting || m.op != cs.expect || m.addr != cs.expect_addr) {
            std::ostringstream os;
            os << "core " << cs.gid << " got unexpected " << to_string(m);
            fail(os.str());
            return;
        }
        cs.waiting = false;
        const Step& s = cs.program[cs.pc];
        switch (s.kind) {
        case Kind::lock_cs: check_lock(s.var, cs); break;
        case Kind::cond_produce:
        case Kind::cond_consume:
            if (m.op == Opcode::lock_grant_local) check_lock(static_cast<unsigned>(locks.size()) + s.var, cs);
            if (m.op == Opcode::cond_grant_local) cs.phase = 3; // woken: re-acquire the lock
            break;
        case Kind::sem_region:
            if (++sem_in[s.var] > static_cast<int>(kSemInit)) fail("semaphore admitted more than its resources");
            break;
        default: { // barrier departure: every participant of this epoch must have arrived
            const uint64_t b = barrier_addr(s);
            auto& epoch = cs_epoch[{cs.gid, b}];
            if (arrivals[{b, epoch}] != barrier_n(s))
                fail("core " + std::to_string(cs.gid) + " left barrier epoch " + std::to_string(epoch) + " after " +
                     std::to_string(arrivals[{b, epoch}]) + " of " + std::to_string(barrier_n(s)) + " arrivals");
            ++epoch;
            ++cs.pc;
            cs.phase = 0;
        }
        }
    }

    void check_lock(unsigned li, CoreSim& cs) {
        if (holder[li] != -1)
            fail("lock " + std::to_string(li) + " granted to core " + std::to_string(cs.gid) + " while core " +
                 std::to_string(holder[li]) + " holds it");
        holder[li] = static_cast<int>(cs.gid);
    }

    uint64_t barrier_addr(const Step& s) const {
        return s.kind == Kind::barrier_all ? barrier_all : s.kind == Kind::barrier_subset ? barrier_subset : barrier_unit[s.var];
    }
    unsigned barrier_n(const Step& s) const {
        return s.kind == Kind::barrier_all ? m_sc.units * m_sc.cores : s.kind == Kind::barrier_subset ? subset_n : m_sc.cores;
    }

    void run() {
        for (;;) {
            std::vector<size_t> ready_cores;
            for (size_t i = 0; i < cores.size(); ++i)
                if (!cores[i].done() && !cores[i].waiting) ready_cores.push_back(i);
            const auto channels = m_net.ready();
            if (ready_cores.empty() && channels.empty()) break;
            const size_t choice = std::uniform_int_distribution<size_t>(0, ready_cores.size() + channels.size() - 1)(m_rng);
            if (choice < ready_cores.size()) {
                act(cores[ready_cores[choice]]);
            } else {
                const auto& ch = channels[choice - ready_cores.size()];
                m_net.deliver(ch.first, ch.second);
                if (ch.second >= 1000) {
                    const unsigned u = static_cast<unsigned>((ch.second - 1000) / 100), c = static_cast<unsigned>((ch.second - 1000) % 100);
                    for (const auto& m : m_net.take(u, c)) on_reply(cores[u * m_sc.cores + c], m);
                }
            }
        }
        for (const auto& cs : cores)
            if (!cs.done()) {
                fail("core " + std::to_string(cs.gid) + " stuck at step " + std::to_string(cs.pc) +
                     (cs.waiting ? std::string(" waiting for ") + std::string(to_string(cs.expect)) : std::string()));
                break;
            }
        for (const auto& e : m_net.errors) fail(e);
        if (!failures.empty() && std::getenv("SE_RANDOM_TRACE")) {
            for (const auto& d : m_net.log)
                failures.push_back(std::to_string(d.from) + "->" + std::to_string(d.to) + " " + to_string(d.msg));
        }
    }

    static constexpr unsigned kSemInit = 2;
    const Scenario m_sc;
    SeNetwork m_net;
    std::mt19937_64 m_rng;
    std::vector<uint64_t> locks, sems, conds, cond_locks, barrier_unit;
    uint64_t barrier_all = 0, barrier_subset = 0;
    unsigned subset_n = 0;
    std::vector<int> holder, sem_in;
    std::vector<unsigned> tokens;
    std::map<std::pair<uint64_t, unsigned>, unsigned> arrivals;
    std::map<std::pair<unsigned, uint64_t>, unsigned> cs_epoch;
    std::vector<CoreSim> cores;
    std::vector<std::string> failures;
};

SeParams se_params(unsigned st, unsigned counters) {
    SeParams p;
    p.st_entries = st;
    p.indexing_counters = counters;
    return p;
}

void run_scenarios(bool barriers) {
    const std::vector<std::pair<unsigned, unsigned>> shapes = {{2, 2}, {4, 3}, {3, 4}};
    const std::vector<std::pair<unsigned, unsigned>> tables = {{64, 256}, {0, 256}, {1, 4}, {2, 1}, {3, 256}};
    unsigned runs = 0;
    for (const auto& [units, cores] : shapes)
        for (const auto& [st, counters] : tables)
            for (uint64_t seed = 1; seed <= 6; ++seed) {
                SeParams sp = se_params(st, counters);
                sp.lock_fairness_threshold = seed % 3; // off, 1 and 2 in turn
                Scenario sc{units, cores, sp, seed * 7919 + st, barriers};
                Checker ck(sc);
                ck.run();
                INFO("units=" << units << " cores=" << cores << " st=" << st << " counters=" << counters
                              << " seed=" << sc.seed);
                std::string all;
                for (const auto& f : ck.failures) all += f + "\n";
                INFO(all);
                REQUIRE(ck.failures.empty());
                // Nothing left behind once every core is done.
                CHECK(ck.m_net.counters_zero());
                CHECK(ck.m_net.tables_empty());
                ++runs;
            }
    CHECK(runs == 90);
}

} // namespace

TEST_CASE("random programs of locks, semaphores and condition variables match the reference",
          "[se][random]") {
    run_scenarios(false);
}

TEST_CASE("random programs of barriers (all, subset, within unit) and locks match the reference",
          "[se][random]") {
    run_scenarios(true);
}
