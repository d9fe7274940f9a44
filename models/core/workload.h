#pragma once
// A workload: set up before simulation through the driver, run as one program
// per client core against CoreApi, checked afterwards in simulated memory.
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/stat_provider.h"
#include "models/core/core_api.h"

namespace syncron {

/// Which data the L1 may cache (paper: thread-private and read-only data only).
enum class Sharing { private_data, read_only, shared };

/// The NDP system's driver as seen by a workload: allocation and debug access
/// (debug access never advances simulated time).
class Driver {
public:
    virtual ~Driver() = default;
    virtual unsigned units() const = 0;
    virtual unsigned client_cores() const = 0;
    virtual unsigned client_cores_in_unit(unsigned unit) const = 0;
    /// Table 2 create_syncvar(): allocates a syncronVar in the home unit's memory.
    virtual SyncVar create_syncvar(unsigned home_unit) = 0;
    virtual void destroy_syncvar(SyncVar v) = 0;
    /// Allocates zeroed memory in a unit, 64-byte aligned.
    virtual uint64_t allocate(unsigned unit, uint64_t bytes, Sharing sharing) = 0;
    /// Bytes still free for allocate() in a unit.
    virtual uint64_t free_bytes(unsigned unit) const = 0;
    virtual uint64_t read(uint64_t addr, unsigned size) = 0;
    virtual void write(uint64_t addr, uint64_t value, unsigned size) = 0;
};

struct CheckResult {
    bool ok = true;
    std::vector<std::string> failures;
    void fail(std::string what) {
        ok = false;
        failures.push_back(std::move(what));
    }
};

/// A workload reports its own statistics (what it did, its resolved sizes)
/// as `workload_stats` (docs/stats.md); by default nothing.
class Workload : public StatProvider {
public:
    virtual std::string name() const = 0;
    /// Allocates variables and data; called once before simulation starts.
    virtual void setup(Driver& driver) = 0;
    /// The program of one client core; runs in that core's SystemC thread.
    virtual void run(CoreApi& core) = 0;
    /// Checks the workload's invariants in simulated memory after the run.
    virtual CheckResult check(Driver& driver) = 0;
    /// Synchronization operations completed by all cores (for throughput).
    virtual uint64_t operations() const = 0;
    void report_stats(const StatContext& /*ctx*/, nlohmann::json& /*out*/) const override {}
};

} // namespace syncron
