#pragma once
// The SE's loosely-timed shell (docs/timing.md, "The SE in LT"). A core's
// message is served inside its sender's b_transport call, on the SPU's
// timeline: the SPU is booked no earlier than the arrival and what the
// variable's clock holds (LtVarClock), and the replies leave as b_transport
// calls annotated with their departure. The SPU's input is bounded as in AT
// (LtInputQueue): a core's message that finds it full is held back, and the
// hold is returned to its sender. Messages from other SEs wait in the
// buffer for their arrival time (served in the sender's call, a round trip
// to the Master SE would advance this SE's state by its whole latency at
// once, ahead of its own cores' messages). syncronVar accesses are
// b_transport calls on to_mem annotated from the service's start.
#include <cstddef>
#include <deque>

#include <systemc>
#include <tlm>

#include "models/se/lt_input_queue.h"
#include "models/se/lt_occupancy.h"
#include "models/se/lt_var_clock.h"
#include "models/se/se_buffer.h"
#include "models/se/se_service.h"
#include "models/se/se_transport.h"
#include "models/tlm/lt_direct_path.h"
#include "models/tlm/resource_timeline.h"

namespace syncron {

class SeLtTransport : public SeTransport {
public:
    SeLtTransport(SeService& service, SeBuffer& buffer, tlm::tlm_initiator_socket<>& to_cores,
                  tlm::tlm_initiator_socket<>& to_ses, tlm::tlm_initiator_socket<>& to_mem);

    Timing timing() const override { return Timing::lt; }
    sc_core::sc_time deliver(const SeBuffer::Arrival& a, const sc_core::sc_time& delay) override;
    void serve_front() override;

    tlm::tlm_generic_payload& memory_payload() override { return m_trans; }
    sc_core::sc_time access_memory(tlm::tlm_generic_payload& trans, const sc_core::sc_time& issue) override;
    void memory_done(tlm::tlm_generic_payload&) override {}

    double st_occupancy_integral_ns(const sc_core::sc_time& now) const override { return m_occupancy.integral_ns(now); }
    unsigned st_max() const override { return m_occupancy.max(); }
    std::size_t payloads_in_use() const override { return 0; } // no pool: one payload, reused
    /// Messages and memory accesses go this way where it covers them (not owned; null: the sockets only).
    void set_direct(LtDirectPath* path) { m_direct = path; }
    /// Messages the interconnect queues in front of the SE before it holds
    /// their senders back (AT: the crossbar's queue_depth); with the SE's own
    /// buffer, the bound of the input.
    void set_upstream_queue(unsigned messages) { m_upstream_queue = messages; }

private:
    /// serve(), or queued behind the message this SE is serving (re-entry);
    /// returns how long the input held `a` back (zero when queued).
    sc_core::sc_time serve_now(const SeBuffer::Arrival& a);
    /// Serves `a` at once in the caller's context; returns its hold.
    sc_core::sc_time serve(const SeBuffer::Arrival& a);
    void emit(const Outgoing& o, const sc_core::sc_time& delay);

    SeService& m_service;
    SeBuffer& m_buffer;
    tlm::tlm_initiator_socket<>& m_to_cores;
    tlm::tlm_initiator_socket<>& m_to_ses;
    tlm::tlm_initiator_socket<>& m_to_mem;
    tlm::tlm_generic_payload m_trans; // replies and memory accesses, reused: no allocation per message
    LtDirectPath* m_direct = nullptr;

    // Messages that reach the SE while it serves one (a reply to its own
    // emit) wait here in call order; the SPU's booked time; what later
    // messages must not overtake per variable; the ST in simulated time.
    std::deque<SeBuffer::Arrival> m_pending;
    bool m_serving = false;
    ResourceTimeline m_spu_timeline;
    LtVarClock m_var_clock;
    LtOccupancy m_occupancy;
    LtInputQueue m_input;
    unsigned m_upstream_queue = 0;
};

} // namespace syncron
