#include "models/schemes/ideal_hub.h"

#include <algorithm>
#include <cstring>

#include "models/core/ndp_core.h"

namespace syncron {

namespace {
constexpr const char* kMsgType = "/syncron/ideal";

SeParams hub_params() {
    SeParams p;
    p.st_entries = 4096; // beyond it: host memory, equally free
    return p;
}
} // namespace

SeTopology IdealHub::flat(SeTopology t) {
    t.organization = SeOrganization::flat;
    t.overflow = OverflowPolicy::integrated;
    t.home_unit = [](uint64_t) { return 0u; }; // the hub is every variable's Master
    return t;
}

IdealHub::IdealHub(const SeTopology& topology, std::function<NdpCore&(unsigned)> core_of)
    : m_core(0, hub_params(), flat(topology), this), m_core_of(std::move(core_of)) {}

sc_core::sc_time& IdealHub::clock_of(uint64_t var) { return m_clock[var]; }

void IdealHub::submit(const Message& m, const sc_core::sc_time& at) {
    ++m_requests;
    sc_core::sc_time& var_clock = clock_of(m.addr);
    sc_core::sc_time t = std::max(at, var_clock);
    // cond_wait also releases its lock: that lock's history counts too.
    const bool with_lock = m.op == Opcode::cond_wait_local && m.info;
    if (with_lock) t = std::max(t, clock_of(m.info));
    var_clock = t;
    if (with_lock) clock_of(m.info) = t;
    m_result.clear();
    m_core.handle(m, m_result);
    if (!m_result.ok()) {
        SC_REPORT_ERROR(kMsgType, ("ideal: " + m_result.error).c_str());
        return;
    }
    for (const Outgoing& o : m_result.out) {
        if (o.dest != Outgoing::Dest::core) continue; // a flat hub only answers cores
        clock_of(o.msg.addr) = std::max(clock_of(o.msg.addr), t);
        m_core_of(o.id).deliver(o.msg, t, Endpoint::se(0));
    }
}

void IdealHub::read(uint64_t addr, uint8_t* data, unsigned len) {
    auto it = m_memory.find(addr);
    if (it == m_memory.end()) {
        std::memset(data, 0, len);
        return;
    }
    std::memcpy(data, it->second.data(), std::min<size_t>(len, it->second.size()));
}

void IdealHub::write(uint64_t addr, const uint8_t* data, unsigned len) {
    m_memory[addr].assign(data, data + len);
}

void IdealClient::request(NdpCore& core, Opcode op, uint64_t var, uint64_t info) {
    Message m = core.message(op, var, info);
    m.core = static_cast<uint16_t>(core.unit() * core.address_map().cores_per_unit() + core.local_id());
    const sc_core::sc_time now = core.local_time();
    if (!is_sync_request(op)) {
        m_hub.submit(m, now);
        return;
    }
    core.expect(var, grant_of(op), grant_of(op)); // armed first: the hub may answer at once
    m_hub.submit(m, now);
    core.await_reply(now);
}

} // namespace syncron
