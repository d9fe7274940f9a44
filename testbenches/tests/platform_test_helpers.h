#pragma once
// Shared set-up of the platform suites (LT and AT).
#include <string>

#include <nlohmann/json.hpp>

#include "models/common/params.h"
#include "models/core/workload.h"

namespace syncron::test {

/// A microbenchmark run small enough for a test, with in-memory checks on.
inline SimParams bench(const std::string& workload, unsigned st_entries, unsigned variables = 1,
                       Timing timing = Timing::lt, unsigned ops = 30) {
    SimParams p;
    p.platform.timing = timing;
    p.check.protocol = timing == Timing::at; // every AT platform test runs with the checker
    p.check.coherence = true;                // mesi_lock: the coherence invariants at every step
    p.workload.name = workload;
    p.workload.ops = ops;
    p.workload.interval = 200;
    p.workload.memory_check = true;
    p.workload.variables = variables;
    p.se.st_entries = st_entries;
    return p;
}

/// Sum of one per-SE statistic over all SEs.
inline uint64_t total(const nlohmann::json& stats, const char* key) {
    uint64_t n = 0;
    for (const auto& se : stats["se"]) n += se[key].get<uint64_t>();
    return n;
}

/// Core 3 releases a lock (homed in unit 1) it never acquired.
class BadRelease : public Workload {
public:
    std::string name() const override { return "bad_release"; }
    void setup(Driver& d) override { m_lock = d.create_syncvar(1); }
    void run(CoreApi& c) override {
        c.compute(10);
        if (c.global_id() == 3) c.lock_release(m_lock);
    }
    CheckResult check(Driver&) override { return {}; }
    uint64_t operations() const override { return 0; }

private:
    SyncVar m_lock = 0;
};

} // namespace syncron::test
