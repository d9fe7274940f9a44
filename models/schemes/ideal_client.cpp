#include "models/schemes/ideal_client.h"

namespace syncron {

void IdealClient::request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) {
    Message m = core.message(op, var, info);
    m.core = static_cast<uint16_t>(core.unit() * core.address_map().cores_per_unit() + core.local_id());
    const sc_core::sc_time now = core.local_time();
    if (!is_sync_request(op)) {
        m_hub.submit(m, now);
        return;
    }
    core.expect(var, grant_of(op), grant_of(op)); // armed first: the hub may answer at once
    m_hub.submit(m, now);
    // Answered at once: the core goes on without a synchronization point
    // (which would let later requests of other cores overtake it).
    if (!core.reply_if_arrived(now)) core.await_reply(now);
}

} // namespace syncron
