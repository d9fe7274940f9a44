#include "models/schemes/sync_server.h"

#include <string>

#include "models/se/core/single_path_organization.h"

namespace syncron {

namespace {
constexpr const char* kServerMsgType = "/syncron/server";
constexpr uint64_t kSlotBytes = 64;

SeParams table_params(const ServerParams& p) {
    SeParams se;
    se.st_entries = p.table_entries;
    return se;
}

/// Central's clients reach it by one path; a fallback server also gets
/// releases relayed by the Master SEs, a hier server talks to other servers.
std::unique_ptr<SeOrganizationIF> organization_of(const SyncServer::Config& c) {
    if (c.role == SyncServer::Role::central) return std::make_unique<SinglePathOrganization>(c.topology);
    return make_se_organization(c.topology);
}
} // namespace

SyncServer::SyncServer(Config config)
    : m_cfg(std::move(config)),
      m_core(m_cfg.unit, table_params(m_cfg.params), m_cfg.topology, this, organization_of(m_cfg)) {}

void SyncServer::run(CoreServices& core) {
    m_cpu = &core;
    for (;;) serve(core, core.receive());
}

void SyncServer::serve(CoreServices& core, const CoreServices::Received& in) {
    const sc_core::sc_time start = core.local_time();
    const Message& m = in.msg;
    ++m_stats.handled;
    const bool fallback = m_cfg.role == Role::fallback;
    m_result.clear();
    m_core.handle(m, m_result);
    if (!m_result.ok())
        SC_REPORT_ERROR(kServerMsgType, (std::string(core.name()) + " (server): " + m_result.error).c_str());
    // Software cost: the handler's instructions per message (cond_wait's
    // lock release is a second one), then the variable's state.
    core.compute(uint64_t(m_cfg.params.instructions_per_request) * m_result.cost.messages);
    touch_state(core, m.addr);
    if (m.op == Opcode::cond_wait_local && m.info) touch_state(core, m.info);
    for (const Outgoing& o : m_result.out) core.post(m_cfg.address_of(o), o.msg);
    if (fallback) {
        // Every message reaching a fallback server was counted by its Master
        // SE: a diverted request or a release the Master SE forwarded.
        ++m_tally[m.addr];
        ++m_stats.diverted_served;
        report_if_idle(core, m.addr);
    }
    m_stats.busy += core.local_time() - start;
}

void SyncServer::touch_state(CoreServices& core, uint64_t var) {
    auto it = m_slots.find(var);
    if (it == m_slots.end()) it = m_slots.emplace(var, static_cast<unsigned>(m_slots.size())).first;
    const unsigned entries = m_cfg.params.table_entries ? m_cfg.params.table_entries : 1;
    const uint64_t slot = m_cfg.table_base + (it->second % entries) * kSlotBytes;
    // The value itself is kept by the SeCore; memory sees the access pattern.
    const uint64_t word = core.load(slot, 8);
    core.store(slot, word + 1, 8);
}

void SyncServer::report_if_idle(CoreServices& core, uint64_t var) {
    auto it = m_tally.find(var);
    if (it == m_tally.end() || it->second == 0) return;
    // Idle: no table entry and not kept in memory either. Only then may the
    // Master SE count these operations off and take the variable back.
    if (m_core.table().find(var) || m_core.counters().value(var) > 0) return;
    Message rep;
    rep.addr = var;
    rep.op = Opcode::decrease_indexing_counter;
    rep.core = 0;
    rep.se = static_cast<uint16_t>(m_cfg.unit);
    rep.info = it->second;
    m_tally.erase(it);
    ++m_stats.reports;
    core.post(m_cfg.master_se_of(var), rep);
}

uint64_t SyncServer::unreported() const {
    uint64_t n = 0;
    for (const auto& kv : m_tally) n += kv.second;
    return n;
}

void SyncServer::read(uint64_t addr, uint8_t* data, unsigned len) { m_cpu->access(false, addr, data, len); }

void SyncServer::write(uint64_t addr, const uint8_t* data, unsigned len) {
    m_cpu->access(true, addr, const_cast<uint8_t*>(data), len);
}

} // namespace syncron
