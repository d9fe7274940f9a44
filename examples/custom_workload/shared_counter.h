#pragma once
// A complete workload of one's own (docs/workloads.md, "Adding a workload"):
// every client core adds 1 to one shared counter `workload.ops` times, each
// time under one lock, with `workload.interval` instructions of work inside
// the critical section. The check: the counter in simulated memory equals
// cores x ops, so an update lost to a broken mutual exclusion fails the run.
#include <cstdint>
#include <memory>
#include <string>

#include "models/common/params.h"
#include "models/core/workload.h"

namespace example {

class SharedCounter : public syncron::Workload {
public:
    explicit SharedCounter(const syncron::WorkloadParams& p)
        : m_ops(p.ops.value_or(kDefaultOps)), m_interval(p.interval) {}

    static constexpr unsigned kDefaultOps = 20; ///< workload.ops when unset

    std::string name() const override { return "shared_counter"; }

    void setup(syncron::Driver& d) override {
        // The lock's syncronVar and the counter both live in unit 0's memory;
        // the counter is shared data (never cached in an L1).
        m_lock = d.create_syncvar(0);
        m_counter = d.allocate(0, syncron::kWordBytes, syncron::Sharing::shared);
        m_cores = d.client_cores();
    }

    void run(syncron::CoreApi& c) override {
        for (unsigned i = 0; i < m_ops; ++i) {
            c.lock_acquire(m_lock);
            const uint64_t v = c.load(m_counter, syncron::kWordBytes);
            c.compute(m_interval);
            c.store(m_counter, v + 1, syncron::kWordBytes);
            c.lock_release(m_lock);
        }
    }

    syncron::CheckResult check(syncron::Driver& d) override {
        syncron::CheckResult r;
        const uint64_t expected = uint64_t(m_cores) * m_ops;
        const uint64_t got = d.read(m_counter, syncron::kWordBytes); // debug access: no simulated time
        if (got != expected)
            r.fail("shared_counter: counter " + std::to_string(got) + ", expected " + std::to_string(expected));
        return r;
    }

    uint64_t operations() const override { return uint64_t(m_cores) * m_ops; }

private:
    unsigned m_ops;
    unsigned m_interval;
    unsigned m_cores = 0;
    syncron::SyncVar m_lock = 0;
    uint64_t m_counter = 0;
};

} // namespace example
