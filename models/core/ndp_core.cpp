#include "models/core/ndp_core.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

#include "models/common/hex.h"
#include "models/protocol/tlm/syncron_extension.h"
#include "models/tlm/borrowed_extension.h"
#include "models/tlm/payload_fill.h"

namespace syncron {
namespace {
constexpr const char* kMsgType = "/syncron/ndp_core";

const char* command_name(tlm::tlm_command cmd) {
    switch (cmd) {
    case tlm::TLM_READ_COMMAND: return "READ";
    case tlm::TLM_WRITE_COMMAND: return "WRITE";
    default: return "IGNORE";
    }
}
} // namespace

NdpCore::NdpCore(sc_core::sc_module_name name, unsigned unit, unsigned local_id, unsigned global_id,
                 const CoreParams& params, const AddressMap& address_map, std::function<bool(uint64_t)> is_cacheable)
    : sc_module(name), bus("bus"), mailbox("mailbox"), m_unit(unit), m_local_id(local_id), m_global_id(global_id),
      m_params(params), m_map(address_map), m_is_cacheable(std::move(is_cacheable)), m_l1(params),
      m_line_buf(m_l1.line_bytes()), m_layout(layout_for(address_map.units(), address_map.cores_per_unit())),
      m_wire_ok(layout_fits_wire(m_layout)),
      m_bus_port(*this, "bus_peq",
                 [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_core::sc_time& d) {
                     return bus->nb_transport_fw(t, p, d);
                 },
                 {[this](unsigned, tlm::tlm_generic_payload& t) { at_end_request(t); },
                  [this](unsigned, tlm::tlm_generic_payload& t) { at_response(t); }},
                 {/*defer=*/true}),
      m_mailbox_port(*this, "mailbox_peq",
                     [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_core::sc_time& d) {
                         return mailbox->nb_transport_bw(t, p, d);
                     },
                     {[this](unsigned, tlm::tlm_generic_payload& t) { at_mailbox_request(t); }, nullptr},
                     {/*defer=*/true, /*accept_at_once=*/true}) {
    if (!(params.clock_ghz > 0.0))
        throw std::invalid_argument(std::string(sc_object::name()) + ": core clock_ghz must be > 0");
    m_cycle = sc_core::sc_time(1.0 / params.clock_ghz, sc_core::SC_NS);
    // The platform normally sets the global quantum; a core used on its own
    // still needs one, or it would synchronise after every access.
    tlm::tlm_global_quantum& gq = tlm::tlm_global_quantum::instance();
    if (gq.get() == sc_core::SC_ZERO_TIME && params.quantum_ns > 0.0)
        gq.set(sc_core::sc_time(params.quantum_ns, sc_core::SC_NS));

    // Both styles on both sockets at all times (docs/timing.md): the bus's
    // backward path is used only in AT, the mailbox serves LT and AT SEs.
    bus.register_nb_transport_bw(this, &NdpCore::bus_nb_transport_bw);
    mailbox.register_b_transport(this, &NdpCore::mailbox_b_transport);
    mailbox.register_nb_transport_fw(this, &NdpCore::mailbox_nb_transport_fw);
    SC_THREAD(run);
}

void NdpCore::set_program(std::function<void(CoreApi&)> program) { m_program = std::move(program); }

void NdpCore::set_timing(Timing timing) {
    if (sc_core::sc_start_of_simulation_invoked()) {
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": set_timing must be called before sc_start").c_str());
        return;
    }
    m_timing = timing;
}

void NdpCore::run() {
    // The quantum may have been set after construction: start from it.
    m_qk.reset();
    if (m_program) m_program(*this);
    if (m_timing == Timing::lt)
        m_qk.sync();
    else
        catch_up();
    m_stats.finish_time = sc_core::sc_time_stamp();
    set_state(CoreState::done, "done", 0);
    m_done_event.notify(sc_core::SC_ZERO_TIME);
}

// ---------------------------------------------------------------- compute

void NdpCore::compute(uint64_t instructions) {
    set_state(CoreState::computing, "compute", 0);
    m_stats.instructions += instructions;
    // Integer multiply keeps long runs exact (1000 cycles at 2.5 GHz = 400 ns).
    m_qk.inc(sc_core::sc_time::from_value(m_cycle.value() * instructions));
    keep_time();
}

// ---------------------------------------------------------------- memory

bool NdpCore::check_access(uint64_t addr, unsigned size, const char* what) {
    if (size < 1 || size > 8) {
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": " + what + " of size " + std::to_string(size) + " at " +
                                   hex(addr) + ": only sizes 1..8 are supported")
                                      .c_str());
        return false;
    }
    const uint64_t line = m_l1.line_bytes();
    if ((addr & (line - 1)) + size > line) {
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": " + what + " of size " + std::to_string(size) + " at " +
                                   hex(addr) + " crosses a " + std::to_string(line) + " B line")
                                      .c_str());
        return false;
    }
    return true;
}

void NdpCore::timed(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, AtomicExtension* atomic,
                    CoherenceExtension* coherence) {
    if (m_timing == Timing::at) {
        at_timed(cmd, addr, data, len, atomic, coherence);
        return;
    }
    tlm::tlm_generic_payload& t = m_lt_trans; // reused: no allocation per access
    fill_payload(t, cmd, addr, data, len);
    sc_core::sc_time delay = m_qk.get_local_time();
    const sc_core::sc_time begin = sc_core::sc_time_stamp() + delay;
    {
        const BorrowedExtension<AtomicExtension> a(t, atomic); // caller-owned
        const BorrowedExtension<CoherenceExtension> c(t, coherence);
        const BorrowedExtension<SyncTrafficExtension> tag(t, m_server_mailbox ? &m_sync_tag : nullptr);
        bus->b_transport(t, delay);
    }
    m_qk.set(delay);
    if (m_trace) trace_memory(cmd, addr, len, begin, sc_core::sc_time_stamp() + delay, false);
    if (t.is_response_error())
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": " + command_name(cmd) + " of " + std::to_string(len) +
                                   " B at " + hex(addr) + " failed: " + t.get_response_string())
                                      .c_str());
    // A coherence request's access must be performed before the core can
    // yield (coherent_done); its caller keeps time afterwards.
    if (!coherence) keep_time();
}

void NdpCore::debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    tlm::tlm_generic_payload& t = m_lt_trans;
    fill_payload(t, cmd, addr, data, len);
    const unsigned n = bus->transport_dbg(t);
    if (n < len)
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": debug " + command_name(cmd) + " of " + std::to_string(len) +
                                   " B at " + hex(addr) + " transferred " + std::to_string(n) + " B")
                                      .c_str());
}

void NdpCore::cache_access(uint64_t addr, bool write) {
    const L1Cache::AccessResult r = m_l1.access(addr, write);
    if (!r.hit) {
        // One outstanding operation: the write-back and the fill are serialised.
        evict(r.victim);
        // The fill's data is dropped: memory keeps the only copy.
        timed(tlm::TLM_READ_COMMAND, m_l1.line_address(addr), m_line_buf.data(), m_l1.line_bytes());
    }
    m_qk.inc(sc_core::sc_time::from_value(m_cycle.value() * m_params.l1_hit_cycles));
    copy_l1_stats();
    keep_time();
}

void NdpCore::evict(const L1Cache::Victim& v) {
    if (!v.valid) return;
    const unsigned lb = m_l1.line_bytes();
    uint8_t* buf = m_line_buf.data();
    if (!v.coherent) {
        if (v.dirty) {
            debug(tlm::TLM_READ_COMMAND, v.addr, buf, lb);
            timed(tlm::TLM_WRITE_COMMAND, v.addr, buf, lb);
        }
        return;
    }
    coherence_changed(v.addr);
    if (v.state != MesiState::E && v.state != MesiState::M) return; // shared copies leave silently
    // Until the directory has the put, a forward for the line is answered
    // from the eviction buffer (the put then arrives stale).
    m_evicting = Evicting{v.addr, v.state};
    CoherenceExtension ext;
    coherence_request(v.state == MesiState::M ? CoherenceMsg::put_m : CoherenceMsg::put_e, v.addr, ext);
    m_evicting.reset();
}

// ---------------------------------------------------------------- coherence

void NdpCore::set_coherence(std::function<Coherent(uint64_t)> coherent, std::function<void(uint64_t line)> changed) {
    if (sc_core::sc_start_of_simulation_invoked()) {
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": set_coherence must be called before sc_start").c_str());
        return;
    }
    m_coherent = std::move(coherent);
    m_coherence_changed = std::move(changed);
}

void NdpCore::coherence_request(CoherenceMsg msg, uint64_t line, CoherenceExtension& ext) {
    ext = CoherenceExtension{};
    ext.msg = msg;
    ext.line = line;
    ext.unit = static_cast<uint16_t>(m_unit);
    ext.core = static_cast<uint16_t>(m_local_id);
    ext.sync = m_coherent && m_coherent(line) == Coherent::sync;
    const bool get = msg == CoherenceMsg::get_s || msg == CoherenceMsg::get_m;
    const unsigned lb = m_l1.line_bytes();
    uint8_t* buf = m_line_buf.data();
    unsigned len = lb;
    if (msg == CoherenceMsg::put_m) debug(tlm::TLM_READ_COMMAND, line, buf, lb); // the line's data, as memory holds it
    if (msg == CoherenceMsg::put_e) {
        len = kCoherenceHeaderBytes;
        std::memset(buf, 0, len);
    }
    ++m_stats.coherence_sent[static_cast<unsigned>(msg)];
    timed(get ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, m_map.directory_address(m_map.home_unit(line)), buf,
          len, nullptr, &ext);
}

void NdpCore::coherent_access(uint64_t addr, bool write) {
    // AT: a coherent line's state may change at any moment, so the core
    // reaches its own time before looking at it, even for a hit (a spin on
    // a shared copy advances with the other cores; it never runs ahead).
    if (m_timing == Timing::at) catch_up();
    const uint64_t line = m_l1.line_address(addr);
    const MesiState st = m_l1.state(line);
    const bool enough = write ? st == MesiState::E || st == MesiState::M : st != MesiState::I;
    if (enough) {
        if (write && st == MesiState::E) {
            m_l1.set_state(line, MesiState::M); // silent upgrade: no other cache holds it
            coherence_changed(line);
        }
        m_l1.touch(line);
    } else {
        if (st == MesiState::I) evict(m_l1.make_room(line));
        m_coh_pending = CoherencePending{line, write ? CoherenceMsg::get_m : CoherenceMsg::get_s, false};
        CoherenceExtension ext;
        coherence_request(m_coh_pending->msg, line, ext);
        // An invalidation that overtook a get_s grant leaves the line out:
        // the access uses it once (the grant's data is still the coherent
        // value at the grant).
        if (ext.granted != MesiState::I && !m_coh_pending->invalidated) {
            m_l1.install(line, ext.granted);
            coherence_changed(line);
        }
    }
    m_qk.inc(sc_core::sc_time::from_value(m_cycle.value() * m_params.l1_hit_cycles));
    copy_l1_stats();
}

void NdpCore::coherent_done(uint64_t addr) {
    if (m_perform_hook) m_perform_hook(addr);
    m_coh_pending.reset();
    // AT: forwards that waited for this access are answered now.
    std::vector<tlm::tlm_generic_payload*> deferred;
    deferred.swap(m_deferred_probes);
    for (tlm::tlm_generic_payload* t : deferred) {
        take_probe(*t, *t->get_extension<CoherenceExtension>(), false);
        m_mailbox_port.respond(0, *t);
    }
}

bool NdpCore::take_probe(tlm::tlm_generic_payload& trans, CoherenceExtension& ext, bool may_defer) {
    const uint64_t line = ext.line;
    const bool fwd = ext.msg == CoherenceMsg::fwd_get_s || ext.msg == CoherenceMsg::fwd_get_m;
    if (!fwd && ext.msg != CoherenceMsg::inv) {
        SC_REPORT_ERROR(
            kMsgType,
            (std::string(name()) + ": " + to_string(ext.msg) + " reached a core's mailbox (only probes may)").c_str());
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return true;
    }
    const tlm::tlm_command cmd = fwd ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND;
    const unsigned len = fwd ? m_l1.line_bytes() : kCoherenceHeaderBytes;
    if (trans.get_command() != cmd || trans.get_data_length() != len || m_map.home_unit(line) >= m_map.units()) {
        SC_REPORT_ERROR(kMsgType,
                        (std::string(name()) + ": malformed " + to_string(ext.msg) + " for " + hex(line)).c_str());
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return true;
    }
    // A forward means the directory made this core the owner: if the grant
    // has not been used yet, the forward waits for that access.
    if (fwd && may_defer && m_coh_pending && m_coh_pending->line == line) {
        ++m_stats.coherence_deferred;
        return false;
    }
    ++m_stats.coherence_probes[static_cast<unsigned>(ext.msg)];
    ext.present = ext.dirty = false;
    if (m_evicting && m_evicting->line == line) {
        if (fwd) {
            ext.present = true;
            ext.dirty = m_evicting->state == MesiState::M;
        }
    } else {
        const MesiState st = m_l1.state(line);
        switch (ext.msg) {
        case CoherenceMsg::inv:
            // To a pending get_s, an inv means its grant was already sent.
            if (m_coh_pending && m_coh_pending->line == line && m_coh_pending->msg == CoherenceMsg::get_s)
                m_coh_pending->invalidated = true;
            ext.present = st != MesiState::I;
            m_l1.set_state(line, MesiState::I);
            break;
        case CoherenceMsg::fwd_get_s:
            ext.present = st == MesiState::E || st == MesiState::M;
            ext.dirty = st == MesiState::M;
            if (ext.present) m_l1.set_state(line, MesiState::S);
            break;
        default: // fwd_get_m
            ext.present = st == MesiState::E || st == MesiState::M;
            ext.dirty = st == MesiState::M;
            m_l1.set_state(line, MesiState::I);
            break;
        }
        coherence_changed(line);
    }
    if (fwd) debug(tlm::TLM_READ_COMMAND, line, trans.get_data_ptr(), len); // the line, as memory holds it
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
}

uint64_t NdpCore::load(uint64_t addr, unsigned size) {
    if (!check_access(addr, size, "load")) return 0;
    set_state(CoreState::memory, "load", addr);
    ++m_stats.instructions;
    ++m_stats.loads;
    uint8_t buf[8] = {};
    if (is_coherent(addr)) {
        coherent_access(addr, false);
        debug(tlm::TLM_READ_COMMAND, addr, buf, size);
        coherent_done(addr);
        keep_time();
    } else if (m_is_cacheable && m_is_cacheable(addr)) {
        cache_access(addr, false);
        debug(tlm::TLM_READ_COMMAND, addr, buf, size);
    } else {
        timed(tlm::TLM_READ_COMMAND, addr, buf, size);
    }
    uint64_t value = 0;
    for (unsigned i = 0; i < size; ++i) value |= uint64_t(buf[i]) << (8 * i);
    set_state(CoreState::computing, "compute", 0);
    return value;
}

void NdpCore::store(uint64_t addr, uint64_t value, unsigned size) {
    if (!check_access(addr, size, "store")) return;
    set_state(CoreState::memory, "store", addr);
    ++m_stats.instructions;
    ++m_stats.stores;
    uint8_t buf[8];
    for (unsigned i = 0; i < size; ++i) buf[i] = static_cast<uint8_t>(value >> (8 * i));
    if (is_coherent(addr)) {
        coherent_access(addr, true);
        debug(tlm::TLM_WRITE_COMMAND, addr, buf, size);
        coherent_done(addr);
        keep_time();
    } else if (m_is_cacheable && m_is_cacheable(addr)) {
        cache_access(addr, true);
        debug(tlm::TLM_WRITE_COMMAND, addr, buf, size); // memory holds the only copy
    } else {
        timed(tlm::TLM_WRITE_COMMAND, addr, buf, size);
    }
    set_state(CoreState::computing, "compute", 0);
}

// ---------------------------------------------------------------- SynCron messages

void NdpCore::set_sync_client(SyncClient* client) {
    if (sc_core::sc_start_of_simulation_invoked()) {
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": set_sync_client must be called before sc_start").c_str());
        return;
    }
    m_client = client;
}

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
    if (m_timing == Timing::at) return at_send(dest, m, data.data(), sync);
    SyncronExtension ext(m);
    ext.src = Endpoint::core(m_unit, m_local_id);
    ext.sent = local_time();

    tlm::tlm_generic_payload& t = m_lt_trans;
    fill_payload(t, tlm::TLM_WRITE_COMMAND, dest, data.data(), kWireBytes);
    const sc_core::sc_time issued = m_qk.get_local_time();
    sc_core::sc_time delay = issued;
    {
        const BorrowedExtension<SyncronExtension> borrowed(t, &ext); // stack-owned
        bus->b_transport(t, delay);
    }
    // A req_sync request waits for its reply anyway; a posted message
    // (req_async, a server's reply) costs the core its issue cycle only, as
    // in AT, where the core goes on once the crossbar has taken the request.
    m_qk.set(sync ? delay : issued + m_cycle);
    ++m_stats.instructions;
    ++m_stats.messages_sent[static_cast<unsigned>(m.op)];
    if (!t.is_response_error()) return true;
    report_send_error(m, t);
    return false;
}

void NdpCore::report_send_error(const Message& m, const tlm::tlm_generic_payload& t) {
    SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": sending " + std::string(to_string(m.op)) + " for " +
                               hex(m.addr) + " to " + hex(t.get_address()) + " failed: " + t.get_response_string())
                                  .c_str());
}

bool NdpCore::post(uint64_t dest, const Message& m) {
    const bool ok = send(dest, m, false);
    keep_time();
    return ok;
}

void NdpCore::expect(uint64_t var, Opcode reply, Opcode alt) {
    // Armed before sending: a target may answer from inside b_transport (LT)
    // or before the request phase has ended (AT).
    m_reply.reset();
    m_expected = Expected{reply, alt, var};
}

std::optional<Message> NdpCore::exchange(uint64_t dest, const Message& m, Opcode reply, Opcode alt) {
    // AT: reach the core's own time first, so the expectation is armed only
    // from the moment the request is issued.
    if (m_timing == Timing::at) catch_up();
    const sc_core::sc_time issued = local_time();
    expect(m.addr, reply, alt);
    if (!send(dest, m, true)) {
        // No ACK will come for a rejected request; go on rather than hang.
        m_expected.reset();
        m_sync_trans = nullptr;
        m_sync_failed = false;
        keep_time();
        return std::nullopt;
    }
    return await_reply(issued);
}

std::optional<Message> NdpCore::await_reply(const sc_core::sc_time& issued) {
    // req_sync commits only on the ACK. AT: catch up with simulated time,
    // then wait; an error response to the request ends the wait too (and
    // the pending compute time is waited off first, for schemes that did
    // not send a transaction).
    if (m_timing == Timing::lt) {
        // The SE serves an LT request inside the sender's call: a grant that
        // is already in costs no process switch (the core only moves its
        // local time to the grant's arrival). Otherwise the core waits for
        // the grant without first syncing its quantum (one switch, not two),
        // keeping its own time aside: it goes on from the later of the two.
        if (auto reply = reply_if_arrived(issued)) return reply;
        const sc_core::sc_time mine = local_time();
        m_awaiting = true;
        while (!m_reply) sc_core::wait(m_reply_event);
        m_awaiting = false;
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        m_qk.set(std::max({mine, m_reply_time, now}) - now);
        return reply_if_arrived(issued);
    }
    catch_up();
    while (!m_reply && !m_sync_failed) sc_core::wait(m_reply_event);
    if (!m_reply) {
        // AT: the request was rejected after its END_REQ (reported by at_response).
        m_expected.reset();
        m_sync_trans = nullptr;
        m_sync_failed = false;
        return std::nullopt;
    }
    if (m_reply_time > sc_core::sc_time_stamp()) sc_core::wait(m_reply_time - sc_core::sc_time_stamp());
    m_qk.reset();
    const Message reply = *m_reply;
    m_reply.reset();
    m_expected.reset();
    m_sync_trans = nullptr; // its BEGIN_RESP may still come: then it is an ordinary message response
    m_sync_failed = false;
    m_reply_event.cancel(); // a reply that beat the sync must not wake the next wait
    m_stats.ack_wait_time += sc_core::sc_time_stamp() - issued;
    return reply;
}

std::optional<Message> NdpCore::reply_if_arrived(const sc_core::sc_time& issued) {
    if (!m_reply) return std::nullopt;
    const sc_core::sc_time arrival = std::max(m_reply_time, local_time());
    m_qk.set(arrival - sc_core::sc_time_stamp());
    const Message reply = *m_reply;
    m_reply.reset();
    m_expected.reset();
    m_reply_event.cancel();
    m_stats.ack_wait_time += arrival - issued;
    return reply;
}

void NdpCore::deliver(const Message& m, const sc_core::sc_time& at, const Endpoint& src) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    accept(m, at > now ? at : now, src, at > now ? at : now);
}

NdpCore::Received NdpCore::receive() {
    if (m_timing == Timing::lt)
        m_qk.sync();
    else
        catch_up();
    set_state(CoreState::waiting_sync, "receive", 0);
    for (;;) {
        while (m_inbox.empty()) sc_core::wait(m_inbox_event);
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        // Later arrivals are stamped now or later, so the head is final once
        // its time has come.
        if (m_inbox.front().time > now) {
            sc_core::wait(m_inbox.front().time - now, m_inbox_event);
            continue;
        }
        const Received r{m_inbox.front().msg, m_inbox.front().src};
        m_inbox.pop_front();
        set_state(CoreState::computing, "compute", 0);
        return r;
    }
}

void NdpCore::access(bool write, uint64_t addr, uint8_t* data, unsigned len) {
    const uint64_t line = m_l1.line_bytes();
    if (len == 0 || (addr & (line - 1)) + len > line) {
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": access of " + std::to_string(len) + " B at " + hex(addr) +
                                   " must lie within one " + std::to_string(line) + " B line")
                                      .c_str());
        return;
    }
    set_state(CoreState::memory, write ? "store" : "load", addr);
    ++m_stats.instructions;
    ++(write ? m_stats.stores : m_stats.loads);
    timed(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, data, len);
    set_state(CoreState::computing, "compute", 0);
}

uint64_t NdpCore::atomic(AtomicOp op, uint64_t addr, uint64_t operand, uint64_t compare, unsigned size) {
    if (size != 4 && size != 8) {
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": atomic " + to_string(op) + " of size " +
                                   std::to_string(size) + " at " + hex(addr) + ": only 4 and 8 bytes")
                                      .c_str());
        return 0;
    }
    if (addr % size) {
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": atomic " + to_string(op) + " at " + hex(addr) +
                                   " is not aligned to its " + std::to_string(size) + " bytes")
                                      .c_str());
        return 0;
    }
    set_state(CoreState::memory, to_string(op), addr);
    ++m_stats.instructions;
    ++m_stats.atomics[static_cast<unsigned>(op)];
    const uint64_t mask = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
    uint8_t buf[8] = {};
    uint64_t old = 0;
    if (is_coherent(addr)) {
        // In the L1 with the line in M: read, modify and write with no
        // probe in between (coherent_done answers the ones that waited).
        ++m_stats.coherent_atomics;
        coherent_access(addr, true);
        debug(tlm::TLM_READ_COMMAND, addr, buf, size);
        for (unsigned i = 0; i < size; ++i) old |= uint64_t(buf[i]) << (8 * i);
        const uint64_t now = op == AtomicOp::swap               ? operand
                             : op == AtomicOp::faa              ? old + operand
                             : (old & mask) == (compare & mask) ? operand
                                                                : old; // cas
        for (unsigned i = 0; i < size; ++i) buf[i] = static_cast<uint8_t>((now & mask) >> (8 * i));
        debug(tlm::TLM_WRITE_COMMAND, addr, buf, size);
        coherent_done(addr);
        keep_time();
    } else {
        for (unsigned i = 0; i < size; ++i) buf[i] = static_cast<uint8_t>(operand >> (8 * i));
        AtomicExtension ext(op, compare);
        timed(tlm::TLM_WRITE_COMMAND, addr, buf, size, &ext);
        old = ext.old_value;
    }
    if (op == AtomicOp::cas && (old & mask) != (compare & mask)) ++m_stats.cas_failures;
    set_state(CoreState::computing, "compute", 0);
    return old;
}

const char* NdpCore::blocking_call_name(BlockingCall c) {
    switch (c) {
    case BlockingCall::lock_acquire: return "lock_acquire";
    case BlockingCall::barrier_wait_within_unit: return "barrier_wait_within_unit";
    case BlockingCall::barrier_wait_across_units: return "barrier_wait_across_units";
    case BlockingCall::sem_wait: return "sem_wait";
    case BlockingCall::cond_wait: return "cond_wait";
    case BlockingCall::count: break;
    }
    return "?";
}

void NdpCore::table2(Opcode op, uint64_t var, uint64_t info) {
    if (!m_client) {
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": " + std::string(to_string(op)) + " for " + hex(var) +
                                   ": the core runs no synchronization scheme (the platform injects one "
                                   "with set_sync_client)")
                                      .c_str());
        return;
    }
    set_state(is_sync_request(op) ? CoreState::waiting_sync : CoreState::memory, to_string(op).data(), var);
    m_client->request(*this, op, var, info);
    keep_time();
    set_state(CoreState::computing, "compute", 0);
}

void NdpCore::trace_memory(tlm::tlm_command cmd, uint64_t addr, unsigned len, const sc_core::sc_time& begin,
                           const sc_core::sc_time& end, bool at) {
    MemoryRecord r;
    r.initiator = Endpoint::core(m_unit, m_local_id);
    r.addr = addr;
    r.size = len;
    r.write = cmd == tlm::TLM_WRITE_COMMAND;
    r.at = at;
    r.begin = r.end_req = begin;
    r.begin_resp = r.end = end;
    m_trace->on_memory(r);
}

void NdpCore::set_state(CoreState state, const char* operation, uint64_t addr) {
    const bool changed = state != m_state || operation != m_operation;
    m_state = state;
    m_operation = operation;
    if (!m_trace || !changed) return;
    CoreStateRecord r;
    r.unit = m_unit;
    r.core = m_local_id;
    r.global_id = m_global_id;
    r.activity = static_cast<CoreActivity>(state);
    r.operation = operation;
    r.addr = addr;
    r.at = sc_core::sc_time_stamp() + m_qk.get_local_time();
    m_trace->on_core_state(r);
}

void NdpCore::mailbox_b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    if (CoherenceExtension* coh = trans.get_extension<CoherenceExtension>()) {
        // A probe: the L1 answers in its hit time (LT never defers: a
        // transaction completes inside the requester's call).
        take_probe(trans, *coh, false);
        delay += sc_core::sc_time::from_value(m_cycle.value() * m_params.l1_hit_cycles);
        return;
    }
    trans.set_response_status(take_reply(trans, delay));
}

tlm::tlm_response_status NdpCore::take_reply(const tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay) {
    const SyncronExtension* ext = trans.get_extension<SyncronExtension>();
    if (!ext) return tlm::TLM_GENERIC_ERROR_RESPONSE;
    if (trans.get_command() != tlm::TLM_WRITE_COMMAND) return tlm::TLM_COMMAND_ERROR_RESPONSE;
    const sc_core::sc_time arrival = sc_core::sc_time_stamp() + delay;
    return accept(ext->msg, arrival, ext->src, ext->sent);
}

tlm::tlm_response_status NdpCore::accept(const Message& m, const sc_core::sc_time& arrival, const Endpoint& src,
                                         const sc_core::sc_time& sent) {
    const sc_core::sc_time delay = arrival - sc_core::sc_time_stamp();
    if (m_server_mailbox) {
        // A server takes every message, in arrival order.
        const Inbound in{arrival, m_inbox_seq++, m, src};
        auto it = std::upper_bound(m_inbox.begin(), m_inbox.end(), in, [](const Inbound& a, const Inbound& b) {
            return a.time != b.time ? a.time < b.time : a.seq < b.seq;
        });
        m_inbox.insert(it, in);
        ++m_stats.messages_received[static_cast<unsigned>(m.op)];
        if (m_trace) m_trace->on_message({src, Endpoint::core(m_unit, m_local_id), m, sent, arrival});
        m_inbox_event.notify(sc_core::SC_ZERO_TIME);
        return tlm::TLM_OK_RESPONSE;
    }
    if (!m_expected || m_expected->addr != m.addr || (m_expected->op != m.op && m_expected->alt != m.op)) {
        const std::string waiting =
            m_expected ? "waiting for " + std::string(to_string(m_expected->op)) + " for " + hex(m_expected->addr)
                       : std::string("not waiting for a reply");
        SC_REPORT_ERROR(kMsgType,
                        (std::string(name()) + ": unexpected reply " + to_string(m) + " (" + waiting + ")").c_str());
        return tlm::TLM_GENERIC_ERROR_RESPONSE;
    }
    // A target never waits: store the reply with its arrival time and wake
    // the core then.
    m_reply = m;
    m_reply_time = arrival;
    ++m_stats.messages_received[static_cast<unsigned>(m.op)];
    if (m_trace) m_trace->on_message({src, Endpoint::core(m_unit, m_local_id), m, sent, arrival});
    m_expected.reset(); // a second reply is an error
    // LT: a grant served inside the core's own request needs no wake-up.
    if (m_timing == Timing::at || m_awaiting) m_reply_event.notify(delay);
    return tlm::TLM_OK_RESPONSE;
}

// ---------------------------------------------------------------- AT: bus (initiator)

void NdpCore::catch_up() {
    const sc_core::sc_time pending = m_qk.get_local_time();
    if (pending == sc_core::SC_ZERO_TIME) return;
    const CoreState state = m_state;
    m_state = CoreState::computing; // the pending time is compute / L1 time
    sc_core::wait(pending);
    m_qk.set(sc_core::SC_ZERO_TIME);
    m_state = state;
}

void NdpCore::at_begin_request(tlm::tlm_generic_payload& t) {
    // Every request waits for its own END_REQ before at_begin_request
    // returns, so request exclusion holds.
    m_bus_port.send(0, t);
    while (m_bus_port.request_open(0)) sc_core::wait(m_bus_event);
}

void NdpCore::at_timed(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, AtomicExtension* atomic,
                       CoherenceExtension* coherence) {
    catch_up();
    tlm::tlm_generic_payload& t = m_pool.acquire();
    if (atomic) t.set_extension(atomic);                // detached before the payload returns to the pool
    if (coherence) t.set_extension(coherence);          // likewise
    if (m_server_mailbox) t.set_extension(&m_sync_tag); // likewise
    // The payload's own buffer carries the data; a line longer than it (an L1
    // with lines > PayloadPool::kMaxBytes) uses the core's buffer, which stays
    // untouched until the response because the core waits for it.
    uint8_t* buf = len <= PayloadPool::kMaxBytes ? t.get_data_ptr() : data;
    fill_payload(t, cmd, addr, buf, len);
    if (cmd == tlm::TLM_WRITE_COMMAND && buf != data) std::memcpy(buf, data, len);
    m_mem_trans = &t;
    m_mem_done = false;
    const sc_core::sc_time begin = sc_core::sc_time_stamp();
    m_mem_end_req = m_mem_begin_resp = begin;
    at_begin_request(t);
    while (!m_mem_done) sc_core::wait(m_bus_event); // one outstanding memory operation
    m_mem_trans = nullptr;
    if (m_trace) {
        MemoryRecord r;
        r.initiator = Endpoint::core(m_unit, m_local_id);
        r.addr = addr;
        r.size = len;
        r.write = cmd == tlm::TLM_WRITE_COMMAND;
        r.at = true;
        r.begin = begin;
        r.end_req = std::max(begin, m_mem_end_req);
        r.begin_resp = std::max(r.end_req, m_mem_begin_resp);
        r.end = sc_core::sc_time_stamp();
        m_trace->on_memory(r);
    }
    if (t.is_response_error())
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": " + command_name(cmd) + " of " + std::to_string(len) +
                                   " B at " + hex(addr) + " failed: " + t.get_response_string())
                                      .c_str());
    else if ((cmd == tlm::TLM_READ_COMMAND || atomic) && buf != data)
        std::memcpy(data, buf, len); // an atomic returns the old value in its data
    if (atomic) t.clear_extension(atomic);
    if (coherence) t.clear_extension(coherence);
    if (m_server_mailbox) t.clear_extension(&m_sync_tag);
    t.release();
}

bool NdpCore::at_send(uint64_t dest, const Message& m, const uint8_t* wire, bool sync) {
    catch_up();
    tlm::tlm_generic_payload& t = m_pool.acquire();
    SyncronExtension& ext = m_pool.message_extension(t);
    ext.msg = m;
    ext.src = Endpoint::core(m_unit, m_local_id);
    ext.sent = sc_core::sc_time_stamp();
    std::memcpy(t.get_data_ptr(), wire, kWireBytes);
    fill_payload(t, tlm::TLM_WRITE_COMMAND, dest, t.get_data_ptr(), kWireBytes);
    if (sync) {
        m_sync_trans = &t;
        m_sync_failed = false;
    }
    // Issued into the network once END_REQ is in; the response is absorbed
    // later by at_response (which releases the payload).
    at_begin_request(t);
    if (!sync) m_qk.inc(m_cycle); // the issue cycle of a posted message, as in LT
    ++m_stats.instructions;
    ++m_stats.messages_sent[static_cast<unsigned>(m.op)];
    return !(sync && m_sync_failed);
}

void NdpCore::at_end_request(tlm::tlm_generic_payload& t) {
    if (&t == m_mem_trans) m_mem_end_req = sc_core::sc_time_stamp(); // for traces
    m_bus_event.notify();
}

void NdpCore::at_response(tlm::tlm_generic_payload& t) {
    if (&t == m_mem_trans) {
        m_mem_begin_resp = sc_core::sc_time_stamp(); // for traces
        m_mem_done = true;                           // at_timed checks the status and releases the payload
        m_bus_event.notify();
        return;
    }
    // A SynCron message: the core went on at END_REQ (req_async) or waits
    // for the mailbox (req_sync); the response only reports errors.
    if (t.is_response_error()) {
        const SyncronExtension* ext = t.get_extension<SyncronExtension>();
        report_send_error(ext ? ext->msg : Message{}, t);
        if (&t == m_sync_trans) {
            m_sync_failed = true; // no ACK will come: end the wait
            m_reply_event.notify();
        }
    }
    if (&t == m_sync_trans) m_sync_trans = nullptr;
    t.release();
}

// ---------------------------------------------------------------- AT: mailbox (target)

void NdpCore::at_mailbox_request(tlm::tlm_generic_payload& t) {
    // Accepted at once (END_REQ on the return path); taken at its effective time.
    if (CoherenceExtension* coh = t.get_extension<CoherenceExtension>()) {
        if (!take_probe(t, *coh, true)) {
            m_deferred_probes.push_back(&t); // answered by coherent_done()
            return;
        }
        m_mailbox_port.respond(0, t);
        return;
    }
    t.set_response_status(take_reply(t, sc_core::SC_ZERO_TIME));
    m_mailbox_port.respond(0, t);
}

// ---------------------------------------------------------------- Table 2

void NdpCore::lock_acquire(SyncVar lock) {
    const sc_core::sc_time issued = local_time();
    table2(Opcode::lock_acquire_local, lock, 0);
    sample_latency(BlockingCall::lock_acquire, issued);
    ++m_stats.sync_ops;
}

void NdpCore::lock_release(SyncVar lock) {
    table2(Opcode::lock_release_local, lock, 0);
    ++m_stats.sync_ops;
}

void NdpCore::barrier_wait_within_unit(SyncVar barrier, unsigned initial_cores) {
    const sc_core::sc_time issued = local_time();
    table2(Opcode::barrier_wait_local_within_unit, barrier, initial_cores);
    sample_latency(BlockingCall::barrier_wait_within_unit, issued);
    ++m_stats.sync_ops;
}

void NdpCore::barrier_wait_across_units(SyncVar barrier, unsigned initial_cores) {
    const sc_core::sc_time issued = local_time();
    table2(Opcode::barrier_wait_local_across_units, barrier, initial_cores);
    sample_latency(BlockingCall::barrier_wait_across_units, issued);
    ++m_stats.sync_ops;
}

void NdpCore::sem_wait(SyncVar sem, unsigned initial_resources) {
    const sc_core::sc_time issued = local_time();
    table2(Opcode::sem_wait_local, sem, initial_resources);
    sample_latency(BlockingCall::sem_wait, issued);
    ++m_stats.sync_ops;
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
    sample_latency(BlockingCall::cond_wait, issued);
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

} // namespace syncron
