// `counter`: each client core makes workload.ops updates, each to a counter
// drawn from its own seeded sequence among workload.counters (homed
// round-robin over the units, one 64-byte line each), with workload.interval
// instructions between updates. An update adds 1:
//   se_rmw         atomic_rmw fetch-and-add (SynCron: at the counter's Master SE)
//   lock           lock_acquire; load; store +1; lock_release (one lock per counter, homed with it)
//   remote_atomic  vault_rmw fetch-and-add at the counter's home vault, whatever the scheme
// The host counts the updates per counter; after the run every counter must
// hold exactly that count, or the run fails.
#include "testbenches/workloads/counter.h"

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace syncron {
namespace {

enum class Update { se_rmw, lock, remote_atomic };

Update update_of(const std::string& name) {
    if (name == "se_rmw") return Update::se_rmw;
    if (name == "lock") return Update::lock;
    if (name == "remote_atomic") return Update::remote_atomic;
    throw std::invalid_argument("workload.counter_update must be se_rmw, lock or remote_atomic; got '" + name + "'");
}

class Counter final : public Workload {
public:
    explicit Counter(const WorkloadParams& p)
        : m_p(p), m_ops(p.ops.value_or(kCounterOps)), m_update(update_of(p.counter_update)) {}

    std::string name() const override { return "counter"; }
    uint64_t operations() const override { return m_done; }

    void setup(Driver& d) override {
        const unsigned n = m_p.counters;
        m_counters.resize(n);
        m_locks.assign(n, 0);
        m_expected.assign(n, 0);
        for (unsigned i = 0; i < n; ++i) {
            const unsigned home = i % d.units();
            m_counters[i] = d.allocate(home, 64, Sharing::shared); // a line each: no false sharing
            if (m_update == Update::lock) m_locks[i] = d.create_syncvar(home);
        }
    }

    void run(CoreApi& c) override {
        std::mt19937_64 rng(m_p.seed * 1000003u + c.global_id());
        c.compute(m_p.interval ? rng() % m_p.interval : 0); // cores out of lock-step
        for (unsigned i = 0; i < m_ops; ++i) {
            const unsigned k = static_cast<unsigned>(rng() % m_counters.size());
            update(c, k);
            ++m_expected[k]; // host order needs no care: every update adds 1
            ++m_done;
            c.compute(m_p.interval);
        }
    }

    CheckResult check(Driver& d) override {
        CheckResult r;
        for (size_t k = 0; k < m_counters.size(); ++k) {
            const uint64_t got = d.read(m_counters[k], kWordBytes);
            if (got != m_expected[k] && r.failures.size() < 10)
                r.fail("counter " + std::to_string(k) + " holds " + std::to_string(got) + ", expected " +
                       std::to_string(m_expected[k]) + " (" + m_p.counter_update + ")");
        }
        return r;
    }

    void report_stats(const StatContext&, nlohmann::json& out) const override {
        out["counters"] = m_counters.size();
        out["counter_update"] = m_p.counter_update;
        out["updates"] = m_done;
    }

private:
    void update(CoreApi& c, unsigned k) {
        const uint64_t addr = m_counters[k];
        switch (m_update) {
        case Update::se_rmw: c.atomic_rmw(addr, RmwOp::fetch_add, 1); break;
        case Update::remote_atomic: c.vault_rmw(addr, RmwOp::fetch_add, 1); break;
        case Update::lock:
            c.lock_acquire(m_locks[k]);
            c.store(addr, c.load(addr, kWordBytes) + 1, kWordBytes);
            c.lock_release(m_locks[k]);
            break;
        }
    }

    WorkloadParams m_p;
    unsigned m_ops;
    Update m_update;
    std::vector<uint64_t> m_counters, m_locks, m_expected;
    uint64_t m_done = 0;
};

} // namespace

std::unique_ptr<Workload> make_counter(const WorkloadParams& params) { return std::make_unique<Counter>(params); }

} // namespace syncron
