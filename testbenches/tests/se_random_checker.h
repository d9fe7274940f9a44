#pragma once
// The randomized reference checker of the SE functional core: cores run
// random programs of locks, semaphores, condition variables and barriers
// against a network of SeCores that delivers messages in a chosen order
// (FIFO per channel); every grant is checked against each primitive's
// semantics (mutual exclusion, barrier epochs, semaphore counts) and a run
// that stops with a core still waiting is a lost wake-up or a deadlock.
// Used by test_se_random.cpp (seeded) and the SE fuzz target
// (testbenches/fuzz/fuzz_se_core.cpp), whose input bytes steer the choices.
#include <cstdlib>
#include <random>
#include <set>
#include <sstream>

#include "testbenches/tests/se_test_network.h"

namespace syncron::test {

/// Random choices for the checker: the steering bytes first (each decides
/// the top byte of one draw, so a fuzzer controls the early choices), then a
/// seeded generator. With no bytes it is exactly std::mt19937_64(seed).
class ChoiceRng {
public:
    using result_type = uint64_t;
    explicit ChoiceRng(uint64_t seed, std::vector<uint8_t> steer = {}) : m_gen(seed), m_steer(std::move(steer)) {}
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }
    result_type operator()() {
        const result_type r = m_gen();
        if (m_pos >= m_steer.size()) return r;
        return (result_type(m_steer[m_pos++]) << 56) | (r >> 8);
    }

private:
    std::mt19937_64 m_gen;
    std::vector<uint8_t> m_steer;
    size_t m_pos = 0;
};

enum class Kind { lock_cs, sem_region, barrier_all, barrier_subset, barrier_unit, cond_consume, cond_produce };

struct Step {
    Kind kind;
    unsigned var; // index into the scenario's variables of that kind
};

struct CoreSim {
    unsigned unit = 0, core = 0, gid = 0;
    std::vector<Step> program;
    size_t pc = 0;
    int phase = 0;        // progress inside the current step
    bool waiting = false; // an ACK is outstanding
    Opcode expect{};
    uint64_t expect_addr = 0;
    // Abort policy: the last acquire-type request (re-sent after a retry or
    // sent to the fallback server), whether the server is serving it, and
    // the locks acquired in software whose decrease is owed after release.
    Message last{};
    bool resend = false;
    bool in_software = false;
    std::set<uint64_t> soft_locks;
    bool done() const { return pc >= program.size(); }
};

struct Scenario {
    unsigned units, cores;
    SeParams se;
    uint64_t seed;
    bool barriers; // barrier scenario (all cores take part in every barrier) or lock/sem/condvar
    SeOrganization organization = SeOrganization::hierarchical;
    OverflowPolicy overflow = OverflowPolicy::integrated;
    bool central_server = true;   // abort policy: one fallback server (unit 0), else the home unit's
    unsigned units_per_group = 0; // three levels (docs/protocol.md "Three levels"); 0 = two
};

inline SeTopology topology_of(const Scenario& sc) {
    SeTopology t = SeNetwork::topology(sc.units, sc.cores);
    t.organization = sc.organization;
    t.overflow = sc.overflow;
    t.units_per_group = sc.units_per_group;
    if (sc.central_server)
        t.fallback_server = [](uint64_t) { return 0u; };
    else
        t.fallback_server = SeNetwork::home_of;
    return t;
}

class Checker {
public:
    explicit Checker(const Scenario& sc, std::vector<uint8_t> steer = {})
        : m_sc(sc), m_net(topology_of(sc), std::vector<SeParams>(sc.units, sc.se)), m_rng(sc.seed, std::move(steer)) {
        m_net.serve_software = sc.overflow == OverflowPolicy::abort;
        // The delivery log only feeds the traces of a failure: growing it on
        // every run was a large part of the fuzzer's allocations.
        m_net.keep_log = std::getenv("SE_RANDOM_TRACE") || std::getenv("SE_RANDOM_DUMP");
        std::uniform_int_distribution<unsigned> unit(0, sc.units - 1);
        for (unsigned i = 0; i < 3; ++i) locks.push_back(SeNetwork::var(unit(m_rng), i));
        for (unsigned i = 0; i < 2; ++i) sems.push_back(SeNetwork::var(unit(m_rng), 10 + i));
        for (unsigned i = 0; i < 2; ++i) {
            // A condition variable and its lock anywhere: the same Master SE
            // or not (then a hierarchical SE releases the lock only once the
            // condvar's Master SE confirmed the registration; flat: the SE
            // that registers the waiter sends the release itself).
            conds.push_back(SeNetwork::var(unit(m_rng), 20 + i));
            cond_locks.push_back(SeNetwork::var(unit(m_rng), 30 + i));
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
                if (r < 45)
                    cs.program.push_back({Kind::lock_cs, r % 3});
                else if (r < 80)
                    cs.program.push_back({Kind::sem_region, r % 2});
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
            cs.last = Message{addr, op, static_cast<uint16_t>(cs.core), static_cast<uint16_t>(cs.unit), info};
        }
    }

    // Abort policy: a core whose operation was diverted tells its own SE
    // once it is finished in software, unless that SE is the Master SE.
    void owe_decrease(CoreSim& cs, uint64_t addr) {
        if (SeNetwork::home_of(addr) != cs.unit)
            m_net.send(cs.unit, cs.core, Opcode::decrease_indexing_counter, addr, 1);
    }
    // The core no longer holds lock `l` (released by itself or by a cond_wait).
    void lock_left(CoreSim& cs, uint64_t l) {
        if (cs.soft_locks.erase(l)) owe_decrease(cs, l);
    }
    void release_lock(CoreSim& cs, uint64_t l) {
        send(cs, Opcode::lock_release_local, l, 0, {});
        lock_left(cs, l);
    }

    // Advances a core that is not waiting by one action.
    void act(CoreSim& cs) {
        if (cs.resend) { // retry after an abort with kRetry
            cs.resend = false;
            send(cs, cs.last.op, cs.last.addr, cs.last.info, cs.expect);
            return;
        }
        const Step& s = cs.program[cs.pc];
        const auto next = [&] {
            ++cs.pc;
            cs.phase = 0;
        };
        switch (s.kind) {
        case Kind::lock_cs:
            if (cs.phase == 0) {
                send(cs, Opcode::lock_acquire_local, locks[s.var], 0, Opcode::lock_grant_local);
                cs.phase = 1;
            } else {
                holder[s.var] = -1;
                release_lock(cs, locks[s.var]);
                next();
            }
            break;
        case Kind::sem_region:
            if (cs.phase == 0) {
                send(cs, Opcode::sem_wait_local, sems[s.var], kSemInit, Opcode::sem_grant_local);
                cs.phase = 1;
            } else {
                --sem_in[s.var];
                send(cs, Opcode::sem_post_local, sems[s.var], 0, {});
                next();
            }
            break;
        case Kind::barrier_all:
        case Kind::barrier_subset:
        case Kind::barrier_unit: {
            const uint64_t b = barrier_addr(s);
            const unsigned n = barrier_n(s);
            auto& epoch = cs_epoch[{cs.gid, b}];
            ++arrivals[{b, epoch}];
            send(cs,
                 s.kind == Kind::barrier_unit ? Opcode::barrier_wait_local_within_unit
                                              : Opcode::barrier_wait_local_across_units,
                 b, n, Opcode::barrier_depart_local);
            cs.phase = 1;
            break;
        }
        case Kind::cond_produce: {
            const unsigned li = static_cast<unsigned>(locks.size()) + s.var;
            if (cs.phase == 0) {
                send(cs, Opcode::lock_acquire_local, cond_locks[s.var], 0, Opcode::lock_grant_local);
                cs.phase = 1;
            } else if (cs.phase == 1) {
                ++tokens[s.var];
                send(cs, (cs.pc + cs.gid) % 4 == 0 ? Opcode::cond_broad_local : Opcode::cond_signal_local, conds[s.var],
                     0, {});
                cs.phase = 2;
            } else {
                holder[li] = -1;
                release_lock(cs, cond_locks[s.var]);
                next();
            }
            break;
        }
        case Kind::cond_consume: {
            const unsigned li = static_cast<unsigned>(locks.size()) + s.var;
            if (cs.phase == 0 || cs.phase == 3) {
                send(cs, Opcode::lock_acquire_local, cond_locks[s.var], 0, Opcode::lock_grant_local);
                cs.phase = 1;
            } else if (cs.phase == 1) { // holding the lock: check the predicate
                if (tokens[s.var] > 0) {
                    --tokens[s.var];
                    cs.phase = 4;
                } else {
                    holder[li] = -1;
                    send(cs, Opcode::cond_wait_local, conds[s.var], cond_locks[s.var], Opcode::cond_grant_local);
                    cs.phase = 2;
                }
            } else if (cs.phase == 4) {
                holder[li] = -1;
                release_lock(cs, cond_locks[s.var]);
                next();
            } else if (cs.phase == 5) { // aborted cond_wait, lock still held: release, re-acquire
                holder[li] = -1;
                release_lock(cs, cond_locks[s.var]);
                cs.phase = 3;
            }
            break;
        }
        }
    }

    // Abort policy: the SE aborted the core's outstanding request.
    void on_abort(CoreSim& cs, const Message& m) {
        const Opcode aborted = abort_info::aborted(m.info);
        if (!cs.waiting || m.addr != cs.expect_addr || grant_of(aborted) != cs.expect ||
            primitive_of(aborted) != primitive_of(cs.last.op)) {
            fail("core " + std::to_string(cs.gid) + " got unexpected " + to_string(m));
            return;
        }
        cs.waiting = false;
        ++aborts;
        if (aborted == Opcode::cond_wait_local) { // a spurious wake-up
            ++spurious;
            const Step& s = cs.program[cs.pc];
            const unsigned li = static_cast<unsigned>(locks.size()) + s.var;
            if (m.info & abort_info::kLockReleased) {
                lock_left(cs, cond_locks[s.var]);
                cs.phase = 3; // re-acquire
            } else {          // never released: the core still holds it
                if (holder[li] != -1) fail("lock granted while a core aborted in cond_wait still held it");
                holder[li] = static_cast<int>(cs.gid);
                cs.phase = 5; // release and re-acquire, so a signaller can get in
            }
            return;
        }
        if (m.info & abort_info::kRetry) {
            ++retries;
            cs.resend = true;
            return;
        }
        ++diverted;
        cs.in_software = true;
        cs.waiting = true;
        m_net.send_to_server(cs.unit, cs.core, cs.last.op, cs.last.addr, cs.last.info);
    }

    // A reply reached a core.
    void on_reply(CoreSim& cs, const Message& m) {
        if (m.op == Opcode::abort_local) {
            on_abort(cs, m);
            return;
        }
        if (!cs.waiting || m.op != cs.expect || m.addr != cs.expect_addr) {
            std::ostringstream os;
            os << "core " << cs.gid << " got unexpected " << to_string(m);
            fail(os.str());
            return;
        }
        cs.waiting = false;
        const bool soft = cs.in_software;
        cs.in_software = false;
        if (soft) { // finished in software: lock after its release, the others now
            if (m.op == Opcode::lock_grant_local)
                cs.soft_locks.insert(m.addr);
            else
                owe_decrease(cs, m.addr);
        }
        const Step& s = cs.program[cs.pc];
        switch (s.kind) {
        case Kind::lock_cs: check_lock(s.var, cs); break;
        case Kind::cond_produce:
        case Kind::cond_consume:
            if (m.op == Opcode::lock_grant_local) check_lock(static_cast<unsigned>(locks.size()) + s.var, cs);
            if (m.op == Opcode::cond_grant_local) { // woken: re-acquire the lock
                lock_left(cs, cond_locks[s.var]);
                cs.phase = 3;
            }
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
        return s.kind == Kind::barrier_all      ? barrier_all
               : s.kind == Kind::barrier_subset ? barrier_subset
                                                : barrier_unit[s.var];
    }
    unsigned barrier_n(const Step& s) const {
        return s.kind == Kind::barrier_all      ? m_sc.units * m_sc.cores
               : s.kind == Kind::barrier_subset ? subset_n
                                                : m_sc.cores;
    }

    void run() {
        std::vector<size_t> ready_cores; // reused: no allocation per step
        ready_cores.reserve(cores.size());
        for (uint64_t steps = 0;; ++steps) {
            ready_cores.clear();
            for (size_t i = 0; i < cores.size(); ++i)
                if (!cores[i].done() && !cores[i].waiting) ready_cores.push_back(i);
            const auto& channels = m_net.ready_channels(); // changes on delivery: copy the pick
            if (ready_cores.empty() && channels.empty()) break;
            if (steps > 2000000) {
                fail("no progress after 2M steps (livelock)");
                if (std::getenv("SE_RANDOM_DUMP")) dump();
                break;
            }
            const size_t choice =
                std::uniform_int_distribution<size_t>(0, ready_cores.size() + channels.size() - 1)(m_rng);
            if (choice < ready_cores.size()) {
                act(cores[ready_cores[choice]]);
            } else {
                const auto ch = channels[choice - ready_cores.size()];
                m_net.deliver(ch.first, ch.second);
                if (is_core_ep(ch.second)) {
                    const unsigned u = static_cast<unsigned>((ch.second - 1000) / 100),
                                   c = static_cast<unsigned>((ch.second - 1000) % 100);
                    for (Message m; m_net.take_one(ch.second, m);) on_reply(cores[u * m_sc.cores + c], m);
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

    void dump() {
        for (const auto& cs : cores) {
            std::ostringstream os;
            os << "core " << cs.gid << " pc " << cs.pc << "/" << cs.program.size() << " phase " << cs.phase
               << " waiting " << cs.waiting << " resend " << cs.resend << " soft " << cs.in_software << " last "
               << to_string(cs.last);
            failures.push_back(os.str());
        }
        for (const auto& se : m_net.ses) {
            for (const auto& e : se.table().entries())
                if (e.occupied) {
                    std::ostringstream os;
                    os << "SE " << se.unit() << " entry " << std::hex << e.addr << std::dec << " kind "
                       << int(e.state.kind) << " local " << e.state.local << " global " << e.state.global << " info "
                       << std::hex << e.state.info << std::dec << " pending " << e.state.pending;
                    failures.push_back(os.str());
                }
        }
        const size_t n = m_net.log.size();
        for (size_t i = n > 60 ? n - 60 : 0; i < n; ++i)
            failures.push_back(std::to_string(m_net.log[i].from) + "->" + std::to_string(m_net.log[i].to) + " " +
                               to_string(m_net.log[i].msg));
    }

    static constexpr unsigned kSemInit = 2;
    const Scenario m_sc;
    SeNetwork m_net;
    ChoiceRng m_rng;
    std::vector<uint64_t> locks, sems, conds, cond_locks, barrier_unit;
    uint64_t barrier_all = 0, barrier_subset = 0;
    unsigned subset_n = 0;
    std::vector<int> holder, sem_in;
    std::vector<unsigned> tokens;
    std::map<std::pair<uint64_t, unsigned>, unsigned> arrivals;
    std::map<std::pair<unsigned, uint64_t>, unsigned> cs_epoch;
    std::vector<CoreSim> cores;
    std::vector<std::string> failures;
    unsigned aborts = 0, spurious = 0, retries = 0, diverted = 0;
};

} // namespace syncron::test
