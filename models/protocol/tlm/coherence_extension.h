#pragma once
// A MESI coherence message on a TLM generic payload (docs/coherence.md).
//   request (L1 -> home directory, addressed to the directory's MMIO port):
//     get_s / get_m  READ of one line: the response carries the line (or,
//                    for an upgrade of a line still shared, no data: the
//                    extension says so) and the granted state;
//     put_m          WRITE of one line (the evicted data), put_e a WRITE of
//                    kCoherenceHeaderBytes (no data).
//   probe (directory -> L1, addressed to the core's mailbox):
//     inv            WRITE of kCoherenceHeaderBytes; the response is the ack;
//     fwd_get_s/m    READ of one line: the owner returns it (or says it no
//                    longer holds it).
// Targets fill the extension's result fields and, for READs, the data
// array; they never modify the data array of a WRITE (IEEE 1666-2011 §14.7).
#include <cstdint>

#include <tlm>

#include "models/protocol/coherence.h"

namespace syncron {

/// A control-only coherence message (request or probe without data): one
/// 8-byte header, as the SynCron messages' flit.
constexpr unsigned kCoherenceHeaderBytes = 8;

class CoherenceExtension : public tlm::tlm_extension<CoherenceExtension> {
public:
    tlm::tlm_extension_base* clone() const override { return new CoherenceExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        *this = static_cast<const CoherenceExtension&>(other);
    }

    CoherenceMsg msg = CoherenceMsg::get_s;
    uint64_t line = 0; ///< line address
    uint16_t unit = 0; ///< requester (requests) or probed core (probes): its unit
    uint16_t core = 0; ///< ... and its local ID
    bool sync = false; ///< a synchronization variable's line (traffic class)

    // Results, set by the target.
    MesiState granted = MesiState::I; ///< request: the state granted
    bool with_data = false;           ///< request: the response carries the line
    bool present = false;             ///< probe: the L1 still held the line
    bool dirty = false;               ///< probe: it held it modified
};

} // namespace syncron
