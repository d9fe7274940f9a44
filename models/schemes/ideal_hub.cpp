#include "models/schemes/ideal_hub.h"

#include <algorithm>
#include <cstring>

#include "models/core/core_services.h"
#include "models/se/core/single_path_organization.h"

namespace syncron {

namespace {
constexpr const char* kIdealMsgType = "/syncron/ideal";

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

// Direct calls are a single path: a holder's second acquire is a bug.
IdealHub::IdealHub(const SeTopology& topology, std::function<CoreServices&(unsigned)> core_of)
    : m_core(0, hub_params(), flat(topology), this, std::make_unique<SinglePathOrganization>(flat(topology))),
      m_core_of(std::move(core_of)) {}

void IdealHub::submit(const Message& m, const sc_core::sc_time& at) {
    ++m_requests;
    if (m.op == Opcode::barrier_wait_local_within_unit || m.op == Opcode::barrier_wait_local_across_units) {
        History& h = m_history[m.addr];
        h.latest_arrival = std::max(h.latest_arrival, at);
    }
    m_result.clear();
    m_core.handle(m, m_result);
    if (!m_result.ok()) {
        SC_REPORT_ERROR(kIdealMsgType, ("ideal: " + m_result.error).c_str());
        return;
    }
    record(m, at);
    for (const Outgoing& o : m_result.out) {
        if (o.dest != Outgoing::Dest::core) continue; // a flat hub only answers cores
        m_core_of(o.id).deliver(o.msg, reply_time(m, at, o), Endpoint::se(0));
    }
    if (m.op == Opcode::barrier_wait_local_within_unit || m.op == Opcode::barrier_wait_local_across_units)
        for (const Outgoing& o : m_result.out)
            if (o.msg.op == Opcode::barrier_depart_local) {
                m_history[m.addr].latest_arrival = sc_core::SC_ZERO_TIME; // the episode is over
                break;
            }
}

sc_core::sc_time IdealHub::reply_time(const Message& m, const sc_core::sc_time& at, const Outgoing& o) {
    History& h = m_history[o.msg.addr];
    switch (o.msg.op) {
    case Opcode::lock_grant_local: {
        // Granted at once to its requester, or handed over by a release (also
        // cond_wait's); never inside the previous holder's critical section.
        sc_core::sc_time t = at;
        if (h.acquired <= t && t < h.released) t = h.released;
        h.acquired = h.released = t;
        h.held = true;
        return t;
    }
    case Opcode::sem_grant_local: {
        if (m.op != Opcode::sem_wait_local || h.banked.empty()) return at; // woken by this post
        const sc_core::sc_time posted = *h.banked.begin();                 // granted from a banked post
        h.banked.erase(h.banked.begin());
        return std::max(at, posted);
    }
    case Opcode::barrier_depart_local: return std::max(at, h.latest_arrival);
    default: return at; // condition variables: woken by the signal
    }
}

void IdealHub::record(const Message& m, const sc_core::sc_time& at) {
    // A release frees its lock at the releaser's time (cond_wait releases
    // MessageInfo's lock); a post that woke nobody is banked.
    uint64_t lock = 0;
    if (m.op == Opcode::lock_release_local) lock = m.addr;
    if (m.op == Opcode::cond_wait_local) lock = m.info;
    if (lock) {
        History& h = m_history[lock];
        h.released = std::max(at, h.acquired);
        h.held = false;
    }
    if (m.op == Opcode::sem_post_local) {
        bool woke = false;
        for (const Outgoing& o : m_result.out) woke |= o.msg.op == Opcode::sem_grant_local;
        if (!woke) m_history[m.addr].banked.insert(at);
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

void IdealHub::write(uint64_t addr, const uint8_t* data, unsigned len) { m_memory[addr].assign(data, data + len); }

} // namespace syncron
