// SeService's probe records: the messages it takes in and the services it
// performs (docs/traces.md), the same in both timings.
#include <vector>

#include "models/se/se_service.h"

namespace syncron {

using sc_core::sc_time;

void SeService::trace_arrival(const tlm::tlm_generic_payload& t, const Message& msg, const sc_time& arrived) {
    MessageRecord r;
    r.dst = Endpoint::se(m_unit);
    r.msg = msg;
    r.arrived = arrived;
    if (const auto* ext = t.get_extension<SyncronExtension>()) {
        r.src = ext->src;
        r.sent = ext->sent;
    } else { // a plain payload: the sender follows from the message
        if (level_of(msg.op) != Level::local) {
            r.src = Endpoint::se(msg.se);
        } else { // flat: CoreID is the flat index
            const CoreRef c = m_core.organization().core(msg.core, m_unit);
            r.src = Endpoint::core(c.unit, c.local);
        }
        r.sent = arrived;
    }
    m_trace->on_message(r);
}

void SeService::trace_service(const Message& msg, const sc_time& arrival, const sc_time& start, const sc_time& end,
                              unsigned waiting) {
    ServiceRecord r;
    r.se = m_unit;
    r.msg = msg;
    r.arrival = arrival;
    r.start = start;
    r.end = end;
    r.st_occupancy = m_core.table().occupancy();
    r.buffer_waiting = waiting;
    r.counters_in_use = m_core.counters().in_use();
    r.overflow = m_result.cost.overflow;
    for (const uint64_t v : m_traced_vars) {
        if (v != msg.addr && !(primitive_of(msg.op) == Primitive::condvar && v == msg.info)) continue;
        // The syncronVar image through debug transport: no time, no state change.
        std::vector<uint8_t> image(m_core.layout().bytes());
        tlm::tlm_generic_payload dbg;
        dbg.set_command(tlm::TLM_READ_COMMAND);
        dbg.set_address(v);
        dbg.set_data_ptr(image.data());
        dbg.set_data_length(static_cast<unsigned>(image.size()));
        dbg.set_streaming_width(static_cast<unsigned>(image.size()));
        const bool have = m_core.is_master_of(v) && m_to_mem->transport_dbg(dbg) == image.size();
        VarSnapshot snap;
        const Primitive kind = v == msg.addr ? primitive_of(msg.op) : Primitive::lock;
        if (!m_core.snapshot(v, kind, have ? &image : nullptr, snap)) {
            snap.addr = v; // nothing held: free, nobody waiting
            snap.kind = kind;
            snap.local.assign(m_core.organization().own_cores(), '0');
            snap.global.assign(m_core.topology().units, '0');
        }
        r.vars.push_back(std::move(snap));
    }
    m_trace->on_service(r);
}

} // namespace syncron
