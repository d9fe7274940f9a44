#pragma once
// What a synchronization scheme needs from the platform it plugs into
// (docs/schemes.md, "How a scheme plugs in"): the parameters, the address
// map, the SEs' topology, the client cores, memory for server tables, and a
// few counters for its statistics. NdpPlatform implements it.
#include <cstdint>

#include <systemc>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/core/ndp_core.h"
#include "models/core/workload.h"
#include "models/protocol/opcode.h"
#include "models/se/core/se_topology.h"

namespace syncron {

class SchemePlatform {
public:
    virtual ~SchemePlatform() = default;

    virtual const SimParams& params() const = 0;
    virtual const AddressMap& address_map() const = 0;
    /// The SEs' view of the system, as the scheme configured it.
    virtual const SeTopology& topology() const = 0;
    /// The cores running the workload, in global-ID order (unit by unit).
    virtual unsigned client_cores() const = 0;
    virtual NdpCore& client_core(unsigned global_id) = 0;
    /// `bytes` of memory in `unit` (a server's software table).
    virtual uint64_t allocate(unsigned unit, uint64_t bytes, Sharing sharing) = 0;
    /// Synchronization messages of kind `op` sent so far, by cores and SEs.
    virtual uint64_t messages_sent(Opcode op) const = 0;
    /// When the last client core finished (zero before); statistics are taken then.
    virtual sc_core::sc_time finish_time() const = 0;
};

} // namespace syncron
