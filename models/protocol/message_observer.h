#pragma once
// A probe on SynCron messages: statistics, trace recorders and tests attach
// observers to the SEs instead of being wired into them.
#include <systemc>

#include "models/protocol/message.h"

namespace syncron {

class MessageObserver {
public:
    virtual ~MessageObserver() = default;
    /// An SE's SPU takes `msg` from its buffer at `start`; it arrived at `arrival`.
    virtual void on_processed(unsigned se, const Message& msg, const sc_core::sc_time& arrival,
                              const sc_core::sc_time& start) = 0;
    /// An SE emits `msg` towards a core (to_core) or another SE at `when`.
    /// `dest` is Outgoing::id: the core's local ID (flat organization: its
    /// flat index), the SE, or for a fallback server (to_core true) its unit.
    virtual void on_emitted(unsigned se, const Message& msg, bool to_core, unsigned dest,
                            const sc_core::sc_time& when) = 0;
};

} // namespace syncron
