#pragma once
// A loosely-timed initiator's direct path to a target (docs/timing.md, "The
// direct path"): the platform serves an access the way the chain of
// b_transport calls behind the initiator's socket would — the same resources
// booked in the same order at the same times, the same data, status and
// delay — without a call per hop. Fast VPs pair DMI with a fixed latency;
// here the latency still comes from the booked resources, so contention is
// modelled as on the per-hop path. An initiator that has one tries it first
// and uses its socket when the path declines.
#include <systemc>
#include <tlm>

namespace syncron {

class LtDirectPath {
public:
    LtDirectPath() = default;
    virtual ~LtDirectPath() = default;
    LtDirectPath(const LtDirectPath&) = delete;
    LtDirectPath& operator=(const LtDirectPath&) = delete;

    /// Serves `trans` exactly as the initiator's socket->b_transport(trans,
    /// delay) would and returns true, or returns false having changed
    /// nothing (an address the path does not cover).
    virtual bool b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) = 0;
};

/// A blocking transport through `path` where it covers the access (a null
/// path covers nothing), else through `socket`.
inline void lt_transport(LtDirectPath* path, tlm::tlm_initiator_socket<>& socket, tlm::tlm_generic_payload& trans,
                         sc_core::sc_time& delay) {
    if (path == nullptr || !path->b_transport(trans, delay)) socket->b_transport(trans, delay);
}

} // namespace syncron
