#pragma once
// The approximately-timed bus of an NDP core (docs/ndp_core.md,
// "Approximately timed"): pooled payloads on the 4-phase base protocol
// through the AT engine's initiator port, one outstanding memory operation,
// no temporal decoupling (pending compute time is waited off before every
// transaction).
#include "models/core/core_bus.h"
#include "models/tlm/at_initiator_port.h"
#include "models/tlm/payload_pool.h"

namespace syncron {

class AtCoreBus final : public CoreBus {
public:
    /// Construct during elaboration (the port's queue is an sc_object).
    AtCoreBus(tlm::tlm_initiator_socket<>& socket, const BusOwner& owner);

    void align() override { catch_up(); }
    void settle() override { catch_up(); }
    void timed(const BusAccess& a) override;
    bool send(uint64_t dest, const Message& m, uint8_t* wire, bool sync) override;
    std::optional<Message> await_reply(const sc_core::sc_time& issued) override;
    PipelineCharge take_pipeline(CorePipeline& pipeline, unsigned ctx, bool work) override;
    PipelineCharge release_pipeline(CorePipeline& pipeline, unsigned ctx, bool work,
                                    const sc_core::sc_time& begin) override;
    void abandon_sync() override;
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override {
        return m_port.nb_transport_bw(0, t, phase, delay);
    }

    /// in_use() == 0 once nothing is in flight.
    const PayloadPool& pool() const { return m_pool; }

private:
    /// Waits off the pending local time (compute, L1 hits) so the next
    /// transaction starts at the core's own time.
    void catch_up();
    /// BEGIN_REQ of a pooled payload now; returns once its request phase has
    /// ended (END_REQ or BEGIN_RESP has taken effect).
    void begin_request(tlm::tlm_generic_payload& t);
    void end_request(tlm::tlm_generic_payload& t);
    /// BEGIN_RESP has taken effect for `t` (the port has ended its phase).
    void response(tlm::tlm_generic_payload& t);

    PayloadPool m_pool;
    AtInitiatorPort m_port;                          ///< 4-phase initiator side of the socket (deferred phases)
    tlm::tlm_generic_payload* m_mem_trans = nullptr; ///< the load/store awaiting BEGIN_RESP
    bool m_mem_done = false;
    sc_core::sc_time m_mem_end_req, m_mem_begin_resp; ///< its phase times, for traces
    tlm::tlm_generic_payload* m_sync_trans = nullptr; ///< the req_sync message awaiting BEGIN_RESP
    bool m_sync_failed = false;                       ///< it got an error response: no reply will come
    sc_core::sc_event m_event;                        ///< END_REQ or BEGIN_RESP took effect
};

} // namespace syncron
