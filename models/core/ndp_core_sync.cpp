// NdpCore: SynCron messages (CoreServices), the Table 2 calls (CoreApi) and
// the mailbox that takes replies, probes and a server's messages.
#include <array>
#include <string>

#include "models/common/hex.h"
#include "models/core/core_msg_type.h"
#include "models/core/ndp_core.h"
#include "models/core/vault_rmw.h"
#include "models/protocol/tlm/syncron_extension.h"
#include "models/tlm/kernel_time.h"

namespace syncron {

// ---------------------------------------------------------------- messages

Message NdpCore::message(Opcode op, uint64_t var, uint64_t info) const {
    Message m;
    m.addr = var;
    m.op = op;
    m.core = static_cast<uint16_t>(m_local_id);
    m.se = static_cast<uint16_t>(m_unit);
    m.info = info;
    return m;
}

bool NdpCore::send(uint64_t dest, const Message& m, bool sync) {
    // The extension is authoritative; the data bytes carry the 140-bit wire
    // form only when the platform's IDs fit it (zeros otherwise).
    std::array<uint8_t, kWireBytes> data{};
    if (m_wire_ok && fits(m, m_layout)) data = pack(m, m_layout);
    const bool ok = m_bus->send(dest, m, data.data(), sync);
    ++m_stats.instructions;
    ++m_stats.messages_sent[static_cast<unsigned>(m.op)];
    return ok;
}

bool NdpCore::post(uint64_t dest, const Message& m) {
    bool ok;
    {
        const PipelineUse use(*this, false);
        ok = send(dest, m, false);
    }
    m_bus->keep_time();
    return ok;
}

std::optional<Message> NdpCore::exchange(uint64_t dest, const Message& m, Opcode reply, Opcode alt) {
    sc_core::sc_time issued;
    bool sent;
    {
        // The issue holds the pipeline; the wait for the reply does not (a
        // multi-threaded core runs another context meanwhile).
        const PipelineUse use(*this, false);
        // AT: reach the core's own time first, so the expectation is armed
        // only from the moment the request is issued.
        m_bus->align();
        issued = local_time();
        expect(m.addr, reply, alt);
        sent = send(dest, m, true);
        // No reply will come for a rejected request; go on rather than hang.
        if (!sent) m_bus->abandon_sync();
    }
    if (!sent) {
        m_bus->keep_time();
        return std::nullopt;
    }
    return await_reply(issued);
}

void NdpCore::deliver(const Message& m, const sc_core::sc_time& at, const Endpoint& src) {
    const sc_core::sc_time now = kernel_time();
    accept(m, at > now ? at : now, src, at > now ? at : now);
}

NdpCore::Received NdpCore::receive() {
    m_bus->settle();
    set_state(CoreState::waiting_sync, "receive", 0);
    const Received r = m_inbox.next();
    set_state(CoreState::computing, "compute", 0);
    return r;
}

// ---------------------------------------------------------------- Table 2

void NdpCore::table2(Opcode op, uint64_t var, uint64_t info) {
    if (!m_client) {
        SC_REPORT_ERROR(kCoreMsgType, (std::string(name()) + ": " + std::string(to_string(op)) + " for " + hex(var) +
                                       ": the core runs no synchronization scheme (the platform injects one "
                                       "with set_sync_client)")
                                          .c_str());
        return;
    }
    m_bus->sync_point();
    set_state(is_sync_request(op) ? CoreState::waiting_sync : CoreState::memory, to_string(op).data(), var);
    m_client->request(*this, op, var, info);
    m_bus->keep_time();
    set_state(CoreState::computing, "compute", 0);
}

void NdpCore::blocking(BlockingCall call, Opcode op, uint64_t var, uint64_t info) {
    const sc_core::sc_time issued = local_time();
    table2(op, var, info);
    m_stats.sync_latency[static_cast<unsigned>(call)].add((local_time() - issued).value());
    ++m_stats.sync_ops;
}

void NdpCore::lock_acquire(SyncVar lock) { blocking(BlockingCall::lock_acquire, Opcode::lock_acquire_local, lock, 0); }

void NdpCore::lock_release(SyncVar lock) {
    table2(Opcode::lock_release_local, lock, 0);
    ++m_stats.sync_ops;
}

void NdpCore::barrier_wait_within_unit(SyncVar barrier, unsigned initial_cores) {
    blocking(BlockingCall::barrier_wait_within_unit, Opcode::barrier_wait_local_within_unit, barrier, initial_cores);
}

void NdpCore::barrier_wait_across_units(SyncVar barrier, unsigned initial_cores) {
    blocking(BlockingCall::barrier_wait_across_units, Opcode::barrier_wait_local_across_units, barrier, initial_cores);
}

void NdpCore::sem_wait(SyncVar sem, unsigned initial_resources) {
    blocking(BlockingCall::sem_wait, Opcode::sem_wait_local, sem, initial_resources);
}

void NdpCore::sem_post(SyncVar sem) {
    table2(Opcode::sem_post_local, sem, 0);
    ++m_stats.sync_ops;
}

void NdpCore::cond_wait(SyncVar cond, SyncVar lock) {
    // The scheme releases the lock on the core's behalf when it takes the
    // wait (SynCron: inside the SE); the core re-acquires it after the grant.
    const sc_core::sc_time issued = local_time();
    table2(Opcode::cond_wait_local, cond, lock);
    table2(Opcode::lock_acquire_local, lock, 0);
    m_stats.sync_latency[static_cast<unsigned>(BlockingCall::cond_wait)].add((local_time() - issued).value());
    ++m_stats.sync_ops;
}

void NdpCore::cond_signal(SyncVar cond) {
    table2(Opcode::cond_signal_local, cond, 0);
    ++m_stats.sync_ops;
}

void NdpCore::cond_broadcast(SyncVar cond) {
    table2(Opcode::cond_broad_local, cond, 0);
    ++m_stats.sync_ops;
}

// ---------------------------------------------------------------- mailbox (target)

void NdpCore::mailbox_b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    if (CoherenceExtension* coh = trans.get_extension<CoherenceExtension>()) {
        // A probe: the L1 answers in its hit time (LT never defers: a
        // transaction completes inside the requester's call).
        m_l1.probe(trans, *coh, false);
        delay += m_l1.hit_time();
        return;
    }
    trans.set_response_status(take_reply(trans, delay));
}

void NdpCore::at_mailbox_request(tlm::tlm_generic_payload& t) {
    // Accepted at once (END_REQ on the return path); taken at its effective time.
    if (CoherenceExtension* coh = t.get_extension<CoherenceExtension>()) {
        if (!m_l1.probe(t, *coh, true)) {
            m_deferred_probes.push_back(&t); // answered by performed()
            return;
        }
        m_mailbox_port.respond(0, t);
        return;
    }
    t.set_response_status(take_reply(t, sc_core::SC_ZERO_TIME));
    m_mailbox_port.respond(0, t);
}

tlm::tlm_response_status NdpCore::take_reply(const tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay) {
    const SyncronExtension* ext = trans.get_extension<SyncronExtension>();
    if (!ext) return tlm::TLM_GENERIC_ERROR_RESPONSE;
    if (trans.get_command() != tlm::TLM_WRITE_COMMAND) return tlm::TLM_COMMAND_ERROR_RESPONSE;
    const sc_core::sc_time arrival = kernel_time() + delay;
    return accept(ext->msg, arrival, ext->src, ext->sent);
}

tlm::tlm_response_status NdpCore::accept(const Message& m, const sc_core::sc_time& arrival, const Endpoint& src,
                                         const sc_core::sc_time& sent) {
    if (m_server_mailbox) {
        // A server takes every message, in arrival order.
        m_inbox.push(arrival, m, src);
    } else if (m_replies.matches(m)) {
        // A target never waits: the reply is stored with its arrival time.
        m_replies.store(m, arrival);
    } else {
        SC_REPORT_ERROR(kCoreMsgType, (std::string(name()) + ": unexpected reply " + to_string(m) + " (" +
                                       m_replies.waiting_for() + ")")
                                          .c_str());
        return tlm::TLM_GENERIC_ERROR_RESPONSE;
    }
    ++m_stats.messages_received[static_cast<unsigned>(m.op)];
    if (m_trace) m_trace->on_message({src, Endpoint::core(m_unit, m_local_id), m, sent, arrival});
    return tlm::TLM_OK_RESPONSE;
}

} // namespace syncron

// ---------------------------------------------------------------- read-modify-write

namespace syncron {

std::string NdpCore::rmw_address_problem(uint64_t addr) const {
    if (addr % kWordBytes) return hex(addr) + " is not aligned to 8 bytes";
    if (!m_map.is_memory(addr)) return hex(addr) + " is outside memory";
    return {};
}

uint64_t NdpCore::atomic_rmw(uint64_t addr, RmwOp op, uint64_t operand, uint64_t expected) {
    const std::string why = rmw_address_problem(addr);
    if (!why.empty() || !m_client) {
        SC_REPORT_ERROR(kCoreMsgType, (std::string(name()) + ": atomic_rmw " + std::string(to_string(op)) + ": " +
                                       (why.empty() ? "the core runs no synchronization scheme" : why))
                                          .c_str());
        return 0;
    }
    m_bus->sync_point();
    set_state(CoreState::waiting_sync, "atomic_rmw", addr);
    const uint64_t old = m_client->rmw(*this, op, addr, operand, op == RmwOp::cas ? expected : 0);
    m_bus->keep_time();
    set_state(CoreState::computing, "compute", 0);
    return old;
}

uint64_t NdpCore::vault_rmw(uint64_t addr, RmwOp op, uint64_t operand, uint64_t expected) {
    const std::string why = rmw_address_problem(addr);
    if (!why.empty()) {
        SC_REPORT_ERROR(kCoreMsgType,
                        (std::string(name()) + ": vault_rmw " + std::string(to_string(op)) + ": " + why).c_str());
        return 0;
    }
    const uint64_t old = syncron::vault_rmw(*this, op, addr, operand, expected);
    m_bus->keep_time();
    return old;
}

uint64_t NdpCore::instant_rmw(RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) {
    uint8_t buf[kWordBytes] = {};
    m_bus->debug(tlm::TLM_READ_COMMAND, addr, buf, kWordBytes);
    uint64_t old = 0;
    for (unsigned i = 0; i < kWordBytes; ++i) old |= uint64_t(buf[i]) << (8 * i);
    const uint64_t now = rmw_apply(op, old, operand, expected);
    for (unsigned i = 0; i < kWordBytes; ++i) buf[i] = uint8_t(now >> (8 * i));
    if (now != old) m_bus->debug(tlm::TLM_WRITE_COMMAND, addr, buf, kWordBytes);
    return old;
}

} // namespace syncron
