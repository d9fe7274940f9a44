// The Figure 10 microbenchmarks: client cores hammer synchronization
// variables (one by default, as in the paper; `variables` spreads them over
// the units) with `interval` instructions between synchronization points.
// Every benchmark checks its primitive's invariant on the host while it runs
// (the SE serializes grants, so host order is grant order) and, with
// memory_check, also in simulated memory after the run.
#include "testbenches/workloads/microbenchmarks.h"

#include <random>
#include <stdexcept>

namespace syncron {
namespace {

/// Per-core start offset so cores do not run in lock-step (seeded).
uint64_t start_jitter(uint64_t seed, unsigned core, unsigned interval) {
    std::mt19937_64 rng(seed * 1000003u + core);
    return interval ? rng() % interval : 0;
}

class MicroBenchmark : public Workload {
public:
    explicit MicroBenchmark(const WorkloadParams& p) : m_p(p), m_ops(p.ops.value_or(kMicrobenchmarkOps)) {}
    uint64_t operations() const override { return m_ops_done; }

protected:
    void setup_common(Driver& d) {
        m_cores = d.client_cores();
        m_units = d.units();
    }
    /// Variable i is homed in unit i mod units (a single variable in unit 0).
    unsigned home(unsigned i) const { return i % m_units; }
    /// One word per client core in that core's unit.
    void alloc_slots(Driver& d) {
        m_slots.clear();
        for (unsigned u = 0; u < d.units(); ++u) {
            const unsigned n = d.client_cores_in_unit(u);
            if (!n) continue;
            const uint64_t base = d.allocate(u, uint64_t(n) * kWordBytes, Sharing::shared);
            for (unsigned i = 0; i < n; ++i) m_slots.push_back(base + uint64_t(i) * kWordBytes);
        }
    }
    void failure(const std::string& what) {
        if (m_failures.size() < 10) m_failures.push_back(what);
    }
    CheckResult host_result() const {
        CheckResult r;
        for (const auto& f : m_failures) r.fail(f);
        return r;
    }
    void start(CoreApi& c) { c.compute(start_jitter(m_p.seed, c.global_id(), m_p.interval)); }

    WorkloadParams m_p;
    unsigned m_ops; ///< operations per core
    unsigned m_cores = 0, m_units = 1;
    std::vector<uint64_t> m_slots;
    uint64_t m_ops_done = 0;
    std::vector<std::string> m_failures;
};

/// Lock with an empty critical section; with memory_check a shared counter
/// is incremented (load + store) inside it, so any overlap loses an update.
class LockBench final : public MicroBenchmark {
public:
    using MicroBenchmark::MicroBenchmark;
    std::string name() const override { return "lock"; }
    void setup(Driver& d) override {
        setup_common(d);
        for (unsigned i = 0; i < m_p.variables; ++i) {
            m_locks.push_back(d.create_syncvar(home(i)));
            m_counters.push_back(d.allocate(home(i), kWordBytes, Sharing::shared));
        }
        m_holder.assign(m_p.variables, -1);
        m_acquired.assign(m_p.variables, 0);
    }
    void run(CoreApi& c) override {
        start(c);
        for (unsigned k = 0; k < m_ops; ++k) {
            const unsigned v = (c.global_id() + k) % m_p.variables;
            c.compute(m_p.interval);
            c.lock_acquire(m_locks[v]);
            if (m_holder[v] >= 0)
                failure("lock " + std::to_string(v) + " granted to core " + std::to_string(c.global_id()) +
                        " while core " + std::to_string(m_holder[v]) + " holds it");
            m_holder[v] = static_cast<int>(c.global_id());
            ++m_acquired[v];
            if (m_p.memory_check) c.store(m_counters[v], c.load(m_counters[v], kWordBytes) + 1, kWordBytes);
            m_holder[v] = -1;
            c.lock_release(m_locks[v]);
            ++m_ops_done;
        }
    }
    CheckResult check(Driver& d) override {
        CheckResult r = host_result();
        uint64_t total = 0;
        for (unsigned v = 0; v < m_p.variables; ++v) {
            total += m_acquired[v];
            if (!m_p.memory_check) continue;
            const uint64_t got = d.read(m_counters[v], kWordBytes);
            if (got != m_acquired[v])
                r.fail("lock " + std::to_string(v) + ": counter incremented in the critical section is " +
                       std::to_string(got) + " after " + std::to_string(m_acquired[v]) + " acquisitions");
        }
        if (total != uint64_t(m_cores) * m_ops)
            r.fail("lock: " + std::to_string(total) + " acquisitions, expected " +
                   std::to_string(uint64_t(m_cores) * m_ops));
        return r;
    }

private:
    std::vector<SyncVar> m_locks;
    std::vector<uint64_t> m_counters, m_acquired;
    std::vector<int> m_holder;
};

/// Barrier across all units (the variables are used in turn). No core may
/// leave epoch e before every core has arrived at it; with memory_check each
/// core also publishes its epoch and checks its neighbour's after departing.
class BarrierBench final : public MicroBenchmark {
public:
    using MicroBenchmark::MicroBenchmark;
    std::string name() const override { return "barrier"; }
    void setup(Driver& d) override {
        setup_common(d);
        alloc_slots(d);
        for (unsigned i = 0; i < m_p.variables; ++i) m_barriers.push_back(d.create_syncvar(home(i)));
        m_violations = d.allocate(0, kWordBytes, Sharing::shared);
        m_arrived.assign(m_ops + 1, 0);
    }
    void run(CoreApi& c) override {
        const unsigned me = c.global_id();
        const unsigned next = (me + 1) % m_cores;
        start(c);
        for (unsigned e = 1; e <= m_ops; ++e) {
            c.compute(m_p.interval);
            if (m_p.memory_check) c.store(m_slots[me], e, kWordBytes);
            ++m_arrived[e];
            c.barrier_wait_across_units(m_barriers[e % m_p.variables], m_cores);
            if (m_arrived[e] != m_cores)
                failure("core " + std::to_string(me) + " left barrier epoch " + std::to_string(e) + " after " +
                        std::to_string(m_arrived[e]) + " of " + std::to_string(m_cores) + " arrivals");
            if (m_p.memory_check && c.load(m_slots[next], kWordBytes) < e)
                c.store(m_violations, c.load(m_violations, kWordBytes) + 1, kWordBytes);
            ++m_ops_done;
        }
    }
    CheckResult check(Driver& d) override {
        CheckResult r = host_result();
        if (m_p.memory_check) {
            if (auto v = d.read(m_violations, kWordBytes))
                r.fail("barrier: " + std::to_string(v) + " departures saw a neighbour still in the previous epoch");
            for (unsigned i = 0; i < m_cores; ++i)
                if (d.read(m_slots[i], kWordBytes) != m_ops)
                    r.fail("barrier: core " + std::to_string(i) + " reached epoch " +
                           std::to_string(d.read(m_slots[i], kWordBytes)) + ", expected " + std::to_string(m_ops));
        }
        if (m_ops_done != uint64_t(m_cores) * m_ops) r.fail("barrier: not every core passed every barrier");
        return r;
    }

private:
    std::vector<SyncVar> m_barriers;
    uint64_t m_violations = 0;
    std::vector<unsigned> m_arrived;
};

/// Cores form pairs (2k waits, 2k+1 posts) on semaphore k mod variables,
/// initially 0: no grant may ever exceed the posts issued on it so far.
class SemaphoreBench final : public MicroBenchmark {
public:
    using MicroBenchmark::MicroBenchmark;
    std::string name() const override { return "semaphore"; }
    void setup(Driver& d) override {
        setup_common(d);
        if (m_cores < 2) throw std::invalid_argument("workload semaphore needs at least 2 cores");
        alloc_slots(d);
        for (unsigned i = 0; i < m_p.variables; ++i) m_sems.push_back(d.create_syncvar(home(i)));
        m_grants.assign(m_p.variables, 0);
        m_posts.assign(m_p.variables, 0);
    }
    void run(CoreApi& c) override {
        const unsigned me = c.global_id();
        if (me / 2 * 2 + 1 >= m_cores) return; // an odd core out has no partner
        const unsigned v = (me / 2) % m_p.variables;
        const bool waiter = me % 2 == 0;
        start(c);
        for (unsigned k = 0; k < m_ops; ++k) {
            c.compute(m_p.interval);
            if (waiter) {
                c.sem_wait(m_sems[v], 0);
                if (++m_grants[v] > m_posts[v])
                    failure("semaphore " + std::to_string(v) + " granted " + std::to_string(m_grants[v]) +
                            " times after " + std::to_string(m_posts[v]) + " posts");
            } else {
                ++m_posts[v];
                c.sem_post(m_sems[v]);
            }
            if (m_p.memory_check) c.store(m_slots[me], k + 1, kWordBytes);
            ++m_ops_done;
        }
    }
    CheckResult check(Driver& d) override {
        CheckResult r = host_result();
        for (unsigned v = 0; v < m_p.variables; ++v)
            if (m_grants[v] != m_posts[v])
                r.fail("semaphore " + std::to_string(v) + ": " + std::to_string(m_grants[v]) + " waits completed for " +
                       std::to_string(m_posts[v]) + " posts");
        if (m_p.memory_check)
            for (unsigned i = 0; i < m_cores; ++i) {
                if (i / 2 * 2 + 1 >= m_cores) continue; // no partner, did nothing
                if (d.read(m_slots[i], kWordBytes) != m_ops)
                    r.fail("semaphore: core " + std::to_string(i) + " completed " +
                           std::to_string(d.read(m_slots[i], kWordBytes)) + " of " + std::to_string(m_ops));
            }
        return r;
    }

private:
    std::vector<SyncVar> m_sems;
    std::vector<uint64_t> m_grants, m_posts;
};

/// Condition variable with its lock, in pairs as for the semaphore: 2k+1 adds
/// a token and signals, 2k waits until a token is there and takes it (the
/// usual predicate loop, so spurious wake-ups are harmless). A lost wake-up
/// leaves a waiter blocked and the run reports it.
class CondvarBench final : public MicroBenchmark {
public:
    using MicroBenchmark::MicroBenchmark;
    std::string name() const override { return "condvar"; }
    void setup(Driver& d) override {
        setup_common(d);
        if (m_cores < 2) throw std::invalid_argument("workload condvar needs at least 2 cores");
        if (m_p.condvar_apart && m_units < 2)
            throw std::invalid_argument("workload.condvar_apart needs at least 2 units (the platform has 1)");
        for (unsigned i = 0; i < m_p.variables; ++i) {
            // The condition variable lives with its lock (same Master SE), or
            // with condvar_apart one unit further.
            m_locks.push_back(d.create_syncvar(home(i)));
            m_conds.push_back(d.create_syncvar(m_p.condvar_apart ? (home(i) + 1) % m_units : home(i)));
            m_token_words.push_back(d.allocate(home(i), kWordBytes, Sharing::shared));
        }
        m_tokens.assign(m_p.variables, 0);
        m_taken.assign(m_p.variables, 0);
        m_given.assign(m_p.variables, 0);
        m_holder.assign(m_p.variables, -1);
    }
    void run(CoreApi& c) override {
        const unsigned me = c.global_id();
        if (me / 2 * 2 + 1 >= m_cores) return;
        const unsigned v = (me / 2) % m_p.variables;
        const bool waiter = me % 2 == 0;
        start(c);
        for (unsigned k = 0; k < m_ops; ++k) {
            c.compute(m_p.interval);
            acquire(c, v);
            if (waiter) {
                while (tokens(c, v) == 0) {
                    m_holder[v] = -1;
                    c.cond_wait(m_conds[v], m_locks[v]);
                    hold(c, v);
                }
                set_tokens(c, v, tokens(c, v) - 1);
                ++m_taken[v];
            } else {
                set_tokens(c, v, tokens(c, v) + 1);
                ++m_given[v];
                c.cond_signal(m_conds[v]);
            }
            m_holder[v] = -1;
            c.lock_release(m_locks[v]);
            ++m_ops_done;
        }
    }
    CheckResult check(Driver& d) override {
        CheckResult r = host_result();
        for (unsigned v = 0; v < m_p.variables; ++v) {
            if (m_taken[v] != m_given[v])
                r.fail("condvar " + std::to_string(v) + ": " + std::to_string(m_taken[v]) + " tokens taken for " +
                       std::to_string(m_given[v]) + " signalled");
            if (m_p.memory_check && d.read(m_token_words[v], kWordBytes) != 0)
                r.fail("condvar " + std::to_string(v) + ": " + std::to_string(d.read(m_token_words[v], kWordBytes)) +
                       " tokens left in memory");
        }
        return r;
    }

private:
    void acquire(CoreApi& c, unsigned v) {
        c.lock_acquire(m_locks[v]);
        hold(c, v);
    }
    void hold(CoreApi& c, unsigned v) {
        if (m_holder[v] >= 0) failure("condvar " + std::to_string(v) + ": lock granted while held");
        m_holder[v] = static_cast<int>(c.global_id());
    }
    uint64_t tokens(CoreApi& c, unsigned v) {
        return m_p.memory_check ? c.load(m_token_words[v], kWordBytes) : m_tokens[v];
    }
    void set_tokens(CoreApi& c, unsigned v, uint64_t t) {
        m_tokens[v] = t;
        if (m_p.memory_check) c.store(m_token_words[v], t, kWordBytes);
    }

    std::vector<SyncVar> m_locks, m_conds;
    std::vector<uint64_t> m_token_words, m_tokens, m_taken, m_given;
    std::vector<int> m_holder;
};

} // namespace

const std::vector<std::string>& microbenchmark_names() {
    static const std::vector<std::string> names{"lock", "barrier", "semaphore", "condvar"};
    return names;
}

std::unique_ptr<Workload> make_microbenchmark(const WorkloadParams& p) {
    if (p.variables == 0) throw std::invalid_argument("workload.variables must be at least 1");
    if (p.name == "lock") return std::make_unique<LockBench>(p);
    if (p.name == "barrier") return std::make_unique<BarrierBench>(p);
    if (p.name == "semaphore") return std::make_unique<SemaphoreBench>(p);
    if (p.name == "condvar") return std::make_unique<CondvarBench>(p);
    throw std::invalid_argument("unknown workload '" + p.name + "' (known: lock, barrier, semaphore, condvar)");
}

} // namespace syncron
