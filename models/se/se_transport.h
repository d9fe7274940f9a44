#pragma once
// How an SE meets the rest of the system in one timing style: how a message
// from b_transport is taken in, how the SPU thread serves its buffer, how
// replies leave on to_cores/to_ses and how syncronVar accesses reach to_mem.
// SeLtTransport and SeAtTransport implement it; SeModule::set_timing() picks
// one at elaboration, and everything else (SeService, SeBuffer) is shared.
#include <cstddef>

#include <systemc>
#include <tlm>

#include "models/common/params.h"
#include "models/se/se_buffer.h"

namespace syncron {

class SeTransport {
public:
    virtual ~SeTransport() = default;

    virtual Timing timing() const = 0;
    /// A validated message from b_transport, arriving at `a.time` (now + `delay`).
    /// Returns how long a full input held it back (LT; AT withholds END_REQ instead).
    virtual sc_core::sc_time deliver(const SeBuffer::Arrival& a, const sc_core::sc_time& delay) = 0;
    /// SPU thread: the buffer's front has arrived. Serve it, or wait (for the
    /// SPU or an earlier arrival) and return without taking it.
    virtual void serve_front() = 0;

    /// The payload of a syncronVar access (SeService fills and tags it).
    virtual tlm::tlm_generic_payload& memory_payload() = 0;
    /// Performs the access, issued at `issue` (simulated time); returns its latency.
    virtual sc_core::sc_time access_memory(tlm::tlm_generic_payload& trans, const sc_core::sc_time& issue) = 0;
    /// The access is over (its response checked).
    virtual void memory_done(tlm::tlm_generic_payload& trans) = 0;

    /// Integral of the ST's occupancy over [0, now], in entries x ns.
    virtual double st_occupancy_integral_ns(const sc_core::sc_time& now) const = 0;
    /// Most ST entries occupied at once, in simulated time.
    virtual unsigned st_max() const = 0;
    /// Pooled payloads currently out.
    virtual std::size_t payloads_in_use() const = 0;
};

} // namespace syncron
