// The Figure 10 microbenchmarks: every client core hammers one
// synchronization variable, with `interval` instructions between
// synchronization points. Each also checks its primitive's invariant, both
// in simulated memory after the run and on the host while it runs (the SE
// serializes every grant, so host-side order is grant order).
#include <random>
#include <sstream>
#include <stdexcept>

#include "testbenches/workloads/workload.h"

namespace syncron {
namespace {

constexpr unsigned kWord = 8;

/// Per-core jitter so cores do not start in lock-step (seeded, deterministic).
uint64_t start_jitter(uint64_t seed, unsigned core, unsigned interval) {
    std::mt19937_64 rng(seed * 1000003u + core);
    return interval ? rng() % interval : 0;
}

class MicroBenchmark : public Workload {
public:
    explicit MicroBenchmark(const WorkloadParams& p) : m_p(p) {}
    uint64_t operations() const override { return m_ops_done; }

protected:
    /// One word per client core, in that core's own unit.
    void alloc_slots(Driver& d) {
        m_slots.clear();
        for (unsigned u = 0; u < d.units(); ++u) {
            const unsigned n = d.client_cores_in_unit(u);
            if (!n) continue;
            const uint64_t base = d.allocate(u, uint64_t(n) * kWord, Sharing::shared);
            for (unsigned i = 0; i < n; ++i) m_slots.push_back(base + i * kWord);
        }
        m_cores = d.client_cores();
    }
    void failure(const std::string& what) {
        if (m_host_failures.size() < 10) m_host_failures.push_back(what);
    }
    void report_host(CheckResult& r) const {
        for (const auto& f : m_host_failures) r.fail(f);
    }

    WorkloadParams m_p;
    unsigned m_cores = 0;
    std::vector<uint64_t> m_slots;
    uint64_t m_ops_done = 0;
    std::vector<std::string> m_host_failures;
};

/// Lock: a shared counter is incremented (load + store) inside the critical
/// section; any overlap of two critical sections loses an update.
class LockBench final : public MicroBenchmark {
public:
    using MicroBenchmark::MicroBenchmark;
    std::string name() const override { return "lock"; }
    void setup(Driver& d) override {
        alloc_slots(d);
        m_lock = d.create_syncvar(0);
        m_counter = d.allocate(0, kWord, Sharing::shared);
    }
    void run(CoreApi& c) override {
        c.compute(start_jitter(m_p.seed, c.global_id(), m_p.interval));
        for (unsigned i = 0; i < m_p.ops; ++i) {
            c.compute(m_p.interval);
            c.lock_acquire(m_lock);
            if (m_holder >= 0) failure("core " + std::to_string(c.global_id()) + " granted the lock held by core " + std::to_string(m_holder));
            m_holder = static_cast<int>(c.global_id());
            c.store(m_counter, c.load(m_counter, kWord) + 1, kWord);
            m_holder = -1;
            c.lock_release(m_lock);
            ++m_ops_done;
        }
        c.store(m_slots[c.global_id()], m_p.ops, kWord);
    }
    CheckResult check(Driver& d) override {
        CheckResult r;
        report_host(r);
        const uint64_t expect = uint64_t(m_cores) * m_p.ops;
        const uint64_t got = d.read(m_counter, kWord);
        if (got != expect)
            r.fail("lock: counter incremented in the critical section is " + std::to_string(got) +
                   ", expected " + std::to_string(expect));
        for (unsigned i = 0; i < m_cores; ++i)
            if (d.read(m_slots[i], kWord) != m_p.ops) r.fail("lock: core " + std::to_string(i) + " did not finish");
        return r;
    }

private:
    SyncVar m_lock = 0;
    uint64_t m_counter = 0;
    int m_holder = -1;
};

/// Barrier across all units: each core publishes its epoch before waiting and
/// after departing checks that its neighbour has reached the same epoch.
class BarrierBench final : public MicroBenchmark {
public:
    using MicroBenchmark::MicroBenchmark;
    std::string name() const override { return "barrier"; }
    void setup(Driver& d) override {
        alloc_slots(d);
        m_barrier = d.create_syncvar(0);
        m_violations = d.allocate(0, kWord, Sharing::shared);
    }
    void run(CoreApi& c) override {
        const unsigned me = c.global_id();
        const unsigned next = (me + 1) % m_cores;
        c.compute(start_jitter(m_p.seed, me, m_p.interval));
        for (unsigned e = 1; e <= m_p.ops; ++e) {
            c.compute(m_p.interval);
            c.store(m_slots[me], e, kWord);
            c.barrier_wait_across_units(m_barrier, m_cores);
            if (c.load(m_slots[next], kWord) < e) // neighbour must have arrived at epoch e
                c.store(m_violations, c.load(m_violations, kWord) + 1, kWord);
            ++m_ops_done;
        }
    }
    CheckResult check(Driver& d) override {
        CheckResult r;
        report_host(r);
        if (auto v = d.read(m_violations, kWord))
            r.fail("barrier: " + std::to_string(v) + " cores left a barrier before their neighbour arrived");
        for (unsigned i = 0; i < m_cores; ++i)
            if (d.read(m_slots[i], kWord) != m_p.ops)
                r.fail("barrier: core " + std::to_string(i) + " passed " +
                       std::to_string(d.read(m_slots[i], kWord)) + " barriers, expected " + std::to_string(m_p.ops));
        return r;
    }

private:
    SyncVar m_barrier = 0;
    uint64_t m_violations = 0;
};

/// Semaphore (initially 0): even cores wait, odd cores post; a grant may never
/// exceed the posts issued so far.
class SemaphoreBench final : public MicroBenchmark {
public:
    using MicroBenchmark::MicroBenchmark;
    std::string name() const override { return "semaphore"; }
    void setup(Driver& d) override {
        alloc_slots(d);
        if (d.client_cores() < 2) throw std::invalid_argument("workload semaphore needs at least 2 cores");
        m_sem = d.create_syncvar(0);
        m_waiters = (d.client_cores() + 1) / 2;
        m_posters = d.client_cores() / 2;
    }
    void run(CoreApi& c) override {
        const unsigned me = c.global_id();
        c.compute(start_jitter(m_p.seed, me, m_p.interval));
        const bool waiter = me % 2 == 0;
        // Spread the posts so that exactly as many are posted as waited for.
        const uint64_t total = uint64_t(m_posters) * m_p.ops;
        const uint64_t my_ops = waiter ? total / m_waiters + (me / 2 < total % m_waiters ? 1 : 0) : m_p.ops;
        for (uint64_t i = 0; i < my_ops; ++i) {
            c.compute(m_p.interval);
            if (waiter) {
                c.sem_wait(m_sem, 0);
                if (++m_grants > m_posts) failure("semaphore granted more than posted");
            } else {
                ++m_posts;
                c.sem_post(m_sem);
            }
            c.store(m_slots[me], i + 1, kWord);
            ++m_ops_done;
        }
    }
    CheckResult check(Driver& d) override {
        CheckResult r;
        report_host(r);
        uint64_t waited = 0, posted = 0;
        for (unsigned i = 0; i < m_cores; ++i) (i % 2 == 0 ? waited : posted) += d.read(m_slots[i], kWord);
        if (waited != posted)
            r.fail("semaphore: " + std::to_string(waited) + " waits completed for " + std::to_string(posted) + " posts");
        if (posted != uint64_t(m_posters) * m_p.ops) r.fail("semaphore: posters did not finish");
        return r;
    }

private:
    SyncVar m_sem = 0;
    unsigned m_waiters = 0, m_posters = 0;
    uint64_t m_grants = 0, m_posts = 0;
};

/// Condition variable with its lock: odd cores add a token and signal, even
/// cores wait until a token is there and take it (the usual predicate loop).
class CondvarBench final : public MicroBenchmark {
public:
    using MicroBenchmark::MicroBenchmark;
    std::string name() const override { return "condvar"; }
    void setup(Driver& d) override {
        alloc_slots(d);
        if (d.client_cores() < 2) throw std::invalid_argument("workload condvar needs at least 2 cores");
        m_lock = d.create_syncvar(0);
        m_cond = d.create_syncvar(0);
        m_tokens = d.allocate(0, kWord, Sharing::shared);
        m_waiters = (d.client_cores() + 1) / 2;
        m_signalers = d.client_cores() / 2;
    }
    void run(CoreApi& c) override {
        const unsigned me = c.global_id();
        c.compute(start_jitter(m_p.seed, me, m_p.interval));
        const bool waiter = me % 2 == 0;
        const uint64_t total = uint64_t(m_signalers) * m_p.ops;
        const uint64_t my_ops = waiter ? total / m_waiters + (me / 2 < total % m_waiters ? 1 : 0) : m_p.ops;
        for (uint64_t i = 0; i < my_ops; ++i) {
            c.compute(m_p.interval);
            c.lock_acquire(m_lock);
            if (m_holder >= 0) failure("condvar: lock granted while held");
            m_holder = static_cast<int>(me);
            uint64_t t = c.load(m_tokens, kWord);
            if (waiter) {
                while (t == 0) {
                    m_holder = -1;
                    c.cond_wait(m_cond, m_lock);
                    if (m_holder >= 0) failure("condvar: lock re-granted while held");
                    m_holder = static_cast<int>(me);
                    t = c.load(m_tokens, kWord);
                }
                c.store(m_tokens, t - 1, kWord);
            } else {
                c.store(m_tokens, t + 1, kWord);
                c.cond_signal(m_cond);
            }
            m_holder = -1;
            c.lock_release(m_lock);
            c.store(m_slots[me], i + 1, kWord);
            ++m_ops_done;
        }
    }
    CheckResult check(Driver& d) override {
        CheckResult r;
        report_host(r);
        uint64_t consumed = 0, produced = 0;
        for (unsigned i = 0; i < m_cores; ++i) (i % 2 == 0 ? consumed : produced) += d.read(m_slots[i], kWord);
        if (const auto left = d.read(m_tokens, kWord))
            r.fail("condvar: " + std::to_string(left) + " tokens left over");
        if (consumed != produced)
            r.fail("condvar: " + std::to_string(consumed) + " tokens taken for " + std::to_string(produced) + " signalled");
        return r;
    }

private:
    SyncVar m_lock = 0, m_cond = 0;
    uint64_t m_tokens = 0;
    unsigned m_waiters = 0, m_signalers = 0;
    int m_holder = -1;
};

} // namespace

std::unique_ptr<Workload> make_workload(const WorkloadParams& p) {
    if (p.name == "lock") return std::make_unique<LockBench>(p);
    if (p.name == "barrier") return std::make_unique<BarrierBench>(p);
    if (p.name == "semaphore") return std::make_unique<SemaphoreBench>(p);
    if (p.name == "condvar") return std::make_unique<CondvarBench>(p);
    throw std::invalid_argument("unknown workload '" + p.name + "' (known: lock, barrier, semaphore, condvar)");
}

} // namespace syncron
