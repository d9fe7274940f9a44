#pragma once
// The "ideal" scheme (docs/schemes.md): synchronization that costs no time
// and no traffic but keeps its semantics. One hub holds every variable in a
// flat SeCore (the SE's state machines, all cores as own cores) and answers a
// request at once, by a direct call, at the requester's own time; a reply
// reaches its core at the time of the request that caused it, and never
// before an earlier event on the same variable (a lock released at t cannot be
// granted before t, even to a core whose decoupled clock lags behind).
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "models/core/sync_client.h"
#include "models/se/se_core.h"

namespace syncron {

class NdpCore;

class IdealHub : private SyncVarMemory {
public:
    /// `topology` describes the platform (units, cores, clients); the hub
    /// uses it flat. core_of(flat index) is the core a reply goes to.
    IdealHub(const SeTopology& topology, std::function<NdpCore&(unsigned flat_index)> core_of);

    /// Serves `m` (Message::core = the requester's flat index) at time `at`.
    void submit(const Message& m, const sc_core::sc_time& at);

    const SeCore& se_core() const { return m_core; }
    uint64_t requests() const { return m_requests; }

private:
    static SeTopology flat(SeTopology t);
    sc_core::sc_time& clock_of(uint64_t var);
    // SyncVarMemory: beyond its table the hub keeps variables in host memory
    // (still free of time and traffic).
    void read(uint64_t addr, uint8_t* data, unsigned len) override;
    void write(uint64_t addr, const uint8_t* data, unsigned len) override;

    SeCore m_core;
    std::function<NdpCore&(unsigned)> m_core_of;
    SeResult m_result;
    std::unordered_map<uint64_t, sc_core::sc_time> m_clock; ///< last event per variable
    std::unordered_map<uint64_t, std::vector<uint8_t>> m_memory;
    uint64_t m_requests = 0;
};

/// The core side: every Table 2 call is a direct call to the hub.
class IdealClient final : public SyncClient {
public:
    explicit IdealClient(IdealHub& hub) : m_hub(hub) {}
    void request(NdpCore& core, Opcode op, uint64_t var, uint64_t info) override;

private:
    IdealHub& m_hub;
};

} // namespace syncron
