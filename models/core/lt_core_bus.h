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
        if (m_memory_quantum == sc_core::SC_ZERO_TIME ? m_qk.need_sync() : past_memory_sync_point()) sync_now();
    }
    void sync_point() override {
        if (m_memory_quantum != sc_core::SC_ZERO_TIME && m_qk.need_sync()) sync_now();
    }
    void settle() override { sync_now(); }
    /// How far the core may run ahead between synchronization points
    /// (core.memory_quantum_ns; zero: the global quantum everywhere).
    void set_memory_quantum(const sc_core::sc_time& q);
    void timed(const BusAccess& a) override;
    bool send(uint64_t dest, const Message& m, uint8_t* wire, bool sync) override;
    std::optional<Message> await_reply(const sc_core::sc_time& issued) override;
    PipelineCharge take_pipeline(CorePipeline& pipeline, unsigned ctx, bool work) override;
    PipelineCharge release_pipeline(CorePipeline& pipeline, unsigned ctx, bool work,
                                    const sc_core::sc_time& begin) override;
    /// Accesses and messages go this way where it covers them (not owned; null: the socket only).
    void set_direct(LtDirectPath* path) { m_direct = path; }

private:
    bool past_memory_sync_point() const { return kernel_time() + m_qk.get_local_time() >= m_memory_sync_point; }
    /// Reaches the core's own time; the next memory sync point is the memory
    /// quantum's next boundary, as the global quantum's is the quantum keeper's.
    void sync_now();
    /// The core's time moves by how much later than `wanted` its turn starts.
    PipelineCharge charge(const CorePipeline::Turn& turn, const sc_core::sc_time& wanted);

    sc_core::sc_time m_held;          ///< how long the last message's SE input held it back
    sc_core::sc_time m_held_from;     ///< from when (the end of its issue cycle)
    tlm::tlm_generic_payload m_trans; ///< reused by every access: no allocation per access
    LtDirectPath* m_direct = nullptr;
    sc_core::sc_time m_memory_quantum;    ///< zero: the global quantum applies to every access
    sc_core::sc_time m_memory_sync_point; ///< keep_time() syncs once the core's time reaches it
};

} // namespace syncron
