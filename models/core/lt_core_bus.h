#pragma once
// The loosely-timed bus of an NDP core (docs/ndp_core.md, "Loosely timed"):
// blocking b_transport on one reused payload with the core's local time as
// the annotated delay, and temporal decoupling through the quantum keeper.
#include "models/core/core_bus.h"
#include "models/tlm/lt_direct_path.h"

namespace syncron {

class LtCoreBus final : public CoreBus {
public:
    using CoreBus::CoreBus;

    void keep_time() override {
        if (m_qk.need_sync()) m_qk.sync();
    }
    void settle() override { m_qk.sync(); }
    void timed(const BusAccess& a) override;
    bool send(uint64_t dest, const Message& m, uint8_t* wire, bool sync) override;
    std::optional<Message> await_reply(const sc_core::sc_time& issued) override;
    PipelineCharge take_pipeline(CorePipeline& pipeline, unsigned ctx, bool work) override;
    PipelineCharge release_pipeline(CorePipeline& pipeline, unsigned ctx, bool work,
                                    const sc_core::sc_time& begin) override;
    /// Accesses and messages go this way where it covers them (not owned; null: the socket only).
    void set_direct(LtDirectPath* path) { m_direct = path; }

private:
    /// The core's time moves by how much later than `wanted` its turn starts.
    PipelineCharge charge(const CorePipeline::Turn& turn, const sc_core::sc_time& wanted);

    sc_core::sc_time m_held;          ///< how long the last message's SE input held it back
    sc_core::sc_time m_held_from;     ///< from when (the end of its issue cycle)
    tlm::tlm_generic_payload m_trans; ///< reused by every access: no allocation per access
    LtDirectPath* m_direct = nullptr;
};

} // namespace syncron
