#pragma once
// The SE's approximately-timed shell over the AT engine (docs/timing.md).
// Every message waits in the SPU's buffer for the SPU thread, which serves
// one at a time: each starts when it has arrived and the SPU is free, and the
// thread waits out the service (and each syncronVar access, a 4-phase
// transaction on to_mem) before the replies leave. Replies are pooled
// payloads queued per socket (to_cores, to_ses) and sent 4-phase by one
// thread each, one request in its request phase at a time.
#include <cstddef>
#include <deque>

#include <systemc>
#include <tlm>

#include "models/se/se_buffer.h"
#include "models/se/se_service.h"
#include "models/se/se_transport.h"
#include "models/tlm/at_initiator_port.h"
#include "models/tlm/payload_pool.h"

namespace syncron {

class SeAtTransport : public SeTransport {
public:
    enum OutIndex : unsigned { kToCores = 0, kToSes = 1, kToMem = 2 }; // socket indices of the 4-phase port

    /// `owner` names the 4-phase queue; construct during the owner's construction.
    SeAtTransport(const sc_core::sc_object& owner, SeService& service, SeBuffer& buffer,
                  tlm::tlm_initiator_socket<>& to_cores, tlm::tlm_initiator_socket<>& to_ses,
                  tlm::tlm_initiator_socket<>& to_mem);
    /// The sending threads, children of the module under construction.
    void spawn_senders();
    /// The nb_transport_bw of socket `index` forwards here.
    tlm::tlm_sync_enum nb_transport_bw(unsigned index, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                       sc_core::sc_time& d) {
        return m_port.nb_transport_bw(index, t, ph, d);
    }

    Timing timing() const override { return Timing::at; }
    sc_core::sc_time deliver(const SeBuffer::Arrival& a, const sc_core::sc_time& delay) override;
    void serve_front() override;

    tlm::tlm_generic_payload& memory_payload() override { return m_pool.acquire(); }
    sc_core::sc_time access_memory(tlm::tlm_generic_payload& trans, const sc_core::sc_time& issue) override;
    void memory_done(tlm::tlm_generic_payload& trans) override { trans.release(); }

    double st_occupancy_integral_ns(const sc_core::sc_time& now) const override;
    unsigned st_max() const override { return m_service.stats().st_max; }
    std::size_t payloads_in_use() const override { return m_pool.in_use(); }

private:
    struct OutQueue {
        std::deque<tlm::tlm_generic_payload*> queue;
        sc_core::sc_event ready;
    };

    void emit(const Outgoing& o);
    /// Sends the queued messages of socket `index`, one request phase at a time.
    void sender(unsigned index);
    void response(unsigned index, tlm::tlm_generic_payload& t);
    /// Adds the ST's occupancy up to `at` to the time integral.
    void note_st_change(const sc_core::sc_time& at);

    SeService& m_service;
    SeBuffer& m_buffer;
    PayloadPool m_pool;
    AtInitiatorPort m_port; // 4-phase initiator side of to_cores, to_ses, to_mem
    OutQueue m_out[2];      // to_cores, to_ses
    // The SPU's memory access and its time.
    sc_core::sc_event m_mem_done;
    bool m_mem_pending = false;
    sc_core::sc_time m_spu_free; // when the SPU finishes its last message
};

} // namespace syncron
