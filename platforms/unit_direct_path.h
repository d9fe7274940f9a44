#pragma once
// The LT direct path of the initiators of one unit (models/tlm/lt_direct_path.h)
// over the platform's netlist. An access to a vault, an SE or a core's
// mailbox crosses the unit's crossbar, and when its target is in another
// unit the link there and that unit's crossbar, then reaches the target's
// own b_transport; a response comes back over the reverse link. The hops
// book through the function classes their LT shells use (CrossbarTiming,
// LinkTiming) in the shells' order, so the results are those of the
// b_transport chain; what the path saves is the chain itself: a socket call,
// an address decode and the payload's extension lookups per hop.
#include <cstdint>
#include <vector>

#include <tlm>

#include "models/common/address_map.h"
#include "models/interconnect/crossbar_timing.h"
#include "models/interconnect/link_timing.h"
#include "models/tlm/lt_direct_path.h"

namespace syncron {

class UnitDirectPath final : public LtDirectPath {
public:
    /// A target behind a crossbar output port.
    struct Target {
        unsigned port = 0;
        tlm::tlm_fw_transport_if<>* fw = nullptr; ///< the target socket's own interface
    };
    /// What the paths need of one unit (not owned).
    struct Unit {
        CrossbarTiming* xbar = nullptr;
        std::vector<Target> vaults; ///< by vault index
        Target se;
        std::vector<Target> mailboxes;    ///< by mailbox index (clients, then server cores)
        std::vector<LinkTiming*> link_to; ///< by destination unit (null for the unit itself)
        std::vector<unsigned> link_port;  ///< the crossbar's output port of that link
    };

    /// `units` must outlive the path.
    UnitDirectPath(const AddressMap& map, unsigned unit, const std::vector<Unit>& units)
        : m_map(map), m_unit(unit), m_units(units) {}

    bool b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
    /// Transports served so far (the ones declined not counted).
    uint64_t transports() const { return m_transports; }

private:
    /// The target of a decoded address, or null (not one the path covers).
    const Target* target(const AddressMap::Decoded& d) const;

    const AddressMap& m_map;
    unsigned m_unit;
    const std::vector<Unit>& m_units;
    uint64_t m_transports = 0;
};

} // namespace syncron
