#pragma once
// The "ideal" scheme (docs/schemes.md): synchronization that costs no time
// and no traffic but keeps its semantics. One hub holds every variable in a
// flat SeCore (the SE's state machines, all cores as own cores) and answers a
// request at once, by a direct call. A reply reaches its core at the time of
// the request that caused it (a waiter wakes when it is released, at the
// earliest at its own time). Cores of the loosely-timed model run ahead of
// each other by up to a quantum, so the hub also keeps a little history per
// variable, to never answer before the event that makes the answer possible:
// a lock is not granted inside its previous holder's critical section, a
// banked semaphore resource not before its post, and a barrier departs at its
// latest arrival.
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "models/core/core_services.h"
#include "models/se/core/se_core.h"

namespace syncron {

class IdealHub : private SyncVarMemory {
public:
    /// `topology` describes the platform (units, cores, clients); the hub
    /// uses it flat. core_of(flat index) is the core a reply goes to.
    IdealHub(const SeTopology& topology, std::function<CoreServices&(unsigned flat_index)> core_of);

    /// Serves `m` (Message::core = the requester's flat index) at time `at`.
    void submit(const Message& m, const sc_core::sc_time& at);

    const SeCore& se_core() const { return m_core; }
    uint64_t requests() const { return m_requests; }

private:
    /// What the hub remembers of a variable's past, in simulated time.
    struct History {
        sc_core::sc_time acquired, released; ///< lock: the last holder's critical section
        bool held = false;
        std::multiset<sc_core::sc_time> banked; ///< semaphore: posts not yet consumed
        sc_core::sc_time latest_arrival;        ///< barrier: of the current episode
    };
    static SeTopology flat(SeTopology t);
    /// When the reply `o` to request `m` (made at `at`) takes effect.
    sc_core::sc_time reply_time(const Message& m, const sc_core::sc_time& at, const Outgoing& o);
    /// Bookkeeping after `m` (made at `at`) was served.
    void record(const Message& m, const sc_core::sc_time& at);
    // SyncVarMemory: beyond its table the hub keeps variables in host memory
    // (still free of time and traffic).
    void read(uint64_t addr, uint8_t* data, unsigned len) override;
    void write(uint64_t addr, const uint8_t* data, unsigned len) override;

    SeCore m_core;
    std::function<CoreServices&(unsigned)> m_core_of;
    SeResult m_result;
    std::unordered_map<uint64_t, History> m_history;
    std::unordered_map<uint64_t, std::vector<uint8_t>> m_memory;
    uint64_t m_requests = 0;
};

} // namespace syncron
