#pragma once
// The SynCron message riding on a TLM-2.0 generic payload. A message travels
// as a WRITE to the destination's MMIO address (AddressMap::se_address or
// mailbox_address); the data bytes hold the 140-bit wire form (18 bytes) when
// the platform's layout fits it, and this extension always holds the message.
#include <systemc>
#include <tlm>

#include "models/protocol/endpoint.h"
#include "models/protocol/message.h"

namespace syncron {

class SyncronExtension : public tlm::tlm_extension<SyncronExtension> {
public:
    SyncronExtension() = default;
    explicit SyncronExtension(const Message& m) : msg(m) {}

    tlm::tlm_extension_base* clone() const override { return new SyncronExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        *this = static_cast<const SyncronExtension&>(other);
    }

    Message msg;
    // For traces: who sent it and when (the sender's local time).
    Endpoint src;
    sc_core::sc_time sent;
    // Loosely timed: how long the receiver's full input held the message
    // back, set by the receiver (AT withholds END_REQ instead). A sender that
    // posts the message goes on that much later.
    sc_core::sc_time held;
};

} // namespace syncron
