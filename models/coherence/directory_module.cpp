#include "models/coherence/directory_module.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "models/common/hex.h"
#include "models/tlm/payload_fill.h"

namespace syncron {

namespace {
constexpr const char* kDirectoryMsgType = "/syncron/directory";
} // namespace

DirectoryModule::DirectoryModule(const sc_core::sc_module_name& name, unsigned unit, const CoherenceParams& params,
                                 const CoreParams& core, const AddressMap& map)
    : sc_module(name), in("in"), out("out"), m_unit(unit), m_params(params), m_map(map),
      m_line_bytes(core.l1_line_bytes),
      m_lookup(sc_core::sc_time::from_value(
          static_cast<uint64_t>(sc_core::sc_time(1.0 / core.clock_ghz, sc_core::SC_NS).value()) *
          params.directory_cycles)),
      m_dir(map.units() * map.cores_per_unit()), m_buf(core.l1_line_bytes),
      m_in_port(*this, "in_peq",
                [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_core::sc_time& d) {
                    return in->nb_transport_bw(t, p, d);
                },
                {[this](unsigned, tlm::tlm_generic_payload& t) { at_request(t); }, nullptr},
                {/*defer=*/true, /*accept_at_once=*/true}),
      m_out_port(*this, "out_peq",
                 [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_core::sc_time& d) {
                     return out->nb_transport_fw(t, p, d);
                 },
                 {[this](unsigned, tlm::tlm_generic_payload&) { at_pump(); },
                  [this](unsigned, tlm::tlm_generic_payload& t) { at_response(t); }},
                 {/*defer=*/true}),
      m_lookup_peq("lookup_peq") {
    if (m_line_bytes > PayloadPool::kMaxBytes)
        throw std::invalid_argument(std::string(sc_object::name()) + ": lines of " + std::to_string(m_line_bytes) +
                                    " B are longer than a pooled payload (" + std::to_string(PayloadPool::kMaxBytes) +
                                    " B)");
    in.register_b_transport(this, &DirectoryModule::b_transport);
    in.register_nb_transport_fw(this, &DirectoryModule::nb_transport_fw);
    out.register_nb_transport_bw(this, &DirectoryModule::nb_transport_bw);
    SC_METHOD(lookup_done);
    sensitive << m_lookup_peq.get_event();
    dont_initialize();
}

// ---------------------------------------------------------------- shared

CoherenceExtension* DirectoryModule::validate(tlm::tlm_generic_payload& t) {
    CoherenceExtension* ext = t.get_extension<CoherenceExtension>();
    const auto fail = [&](tlm::tlm_response_status status, const std::string& why) -> CoherenceExtension* {
        SC_REPORT_ERROR(kDirectoryMsgType, (std::string(name()) + ": " + why).c_str());
        t.set_response_status(status);
        return nullptr;
    };
    if (!ext)
        return fail(tlm::TLM_GENERIC_ERROR_RESPONSE,
                    "a transaction without a coherence message at " + hex(t.get_address()));
    if (!is_request(ext->msg))
        return fail(tlm::TLM_GENERIC_ERROR_RESPONSE,
                    std::string("a probe (") + to_string(ext->msg) + ") sent to the directory");
    if (!m_map.is_memory(ext->line) || m_map.home_unit(ext->line) != m_unit || ext->line % m_line_bytes)
        return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE, std::string(to_string(ext->msg)) + " for " + hex(ext->line) +
                                                         ", not a line homed in unit " + std::to_string(m_unit));
    if (ext->unit >= m_map.units() || ext->core >= m_map.cores_per_unit())
        return fail(tlm::TLM_GENERIC_ERROR_RESPONSE, std::string(to_string(ext->msg)) + " from core " +
                                                         std::to_string(ext->core) + " of unit " +
                                                         std::to_string(ext->unit) + ", which does not exist");
    const bool get = ext->msg == CoherenceMsg::get_s || ext->msg == CoherenceMsg::get_m;
    const tlm::tlm_command cmd = get ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND;
    const unsigned len = ext->msg == CoherenceMsg::put_e ? kCoherenceHeaderBytes : m_line_bytes;
    if (t.get_command() != cmd || t.get_data_length() != len || t.get_byte_enable_ptr())
        return fail(tlm::TLM_COMMAND_ERROR_RESPONSE, std::string(to_string(ext->msg)) + " must be a " +
                                                         (get ? "READ" : "WRITE") + " of " + std::to_string(len) +
                                                         " B without byte enables");
    return ext;
}

void DirectoryModule::count(CoherenceMsg msg, unsigned peer_unit, unsigned request_bytes, unsigned response_bytes) {
    ++m_traffic.messages[static_cast<unsigned>(msg)];
    (peer_unit == m_unit ? m_traffic.bytes_within_unit : m_traffic.bytes_across_links) +=
        request_bytes + response_bytes;
}

void DirectoryModule::count_probe(CoherenceMsg msg, unsigned cache, bool present) {
    // A forward's answer carries the line when the owner still had it.
    const bool data = msg != CoherenceMsg::inv && present;
    count(msg, unit_of_cache(cache), kCoherenceHeaderBytes, kCoherenceHeaderBytes + (data ? m_line_bytes : 0));
}

void DirectoryModule::setup_probe(tlm::tlm_generic_payload& t, CoherenceExtension& ext, const Directory::Probe& p,
                                  uint64_t line, bool sync) {
    const unsigned unit = unit_of_cache(p.cache), core = p.cache % m_map.cores_per_unit();
    ext = CoherenceExtension{};
    ext.msg = p.msg;
    ext.line = line;
    ext.unit = static_cast<uint16_t>(unit);
    ext.core = static_cast<uint16_t>(core);
    ext.sync = sync;
    // An invalidation is a header; a forward is a READ of the line, which the
    // owner returns.
    const bool fwd = p.msg != CoherenceMsg::inv;
    uint8_t* data = t.get_data_ptr() ? t.get_data_ptr() : m_buf.data();
    fill_payload(t, fwd ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, m_map.mailbox_address(unit, core), data,
                 fwd ? m_line_bytes : kCoherenceHeaderBytes);
    if (!fwd) std::memset(data, 0, kCoherenceHeaderBytes);
}

void DirectoryModule::read_line(uint64_t line, uint8_t* buf) {
    // Memory holds every line's current value (the L1s keep tags only), so
    // the data travels by debug transport; the timed transfers carry the cost.
    tlm::tlm_generic_payload t;
    fill_payload(t, tlm::TLM_READ_COMMAND, line, buf, m_line_bytes);
    if (out->transport_dbg(t) < m_line_bytes)
        SC_REPORT_ERROR(kDirectoryMsgType,
                        (std::string(name()) + ": debug read of line " + hex(line) + " failed").c_str());
}

void DirectoryModule::answer(tlm::tlm_generic_payload& t, CoherenceExtension& ext, const Directory::Outcome& o) {
    ext.granted = o.granted;
    ext.with_data = o.with_data;
    const bool get = ext.msg == CoherenceMsg::get_s || ext.msg == CoherenceMsg::get_m;
    if (get) read_line(ext.line, t.get_data_ptr());
    const unsigned request_bytes =
        ext.msg == CoherenceMsg::put_m ? kCoherenceHeaderBytes + m_line_bytes : kCoherenceHeaderBytes;
    const unsigned response_bytes = kCoherenceHeaderBytes + (o.with_data ? m_line_bytes : 0);
    count(ext.msg, ext.unit, request_bytes, response_bytes);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

// ---------------------------------------------------------------- LT

void DirectoryModule::memory_lt(tlm::tlm_command cmd, uint64_t line, bool sync, sc_core::sc_time& delay) {
    tlm::tlm_generic_payload& t = m_lt_trans;
    if (cmd == tlm::TLM_WRITE_COMMAND) read_line(line, m_buf.data()); // the data written back is memory's own
    fill_payload(t, cmd, line, m_buf.data(), m_line_bytes);
    CoherenceExtension tag;
    tag.sync = sync; // the line's traffic class
    tag.msg = cmd == tlm::TLM_WRITE_COMMAND ? CoherenceMsg::put_m : CoherenceMsg::get_s;
    tag.line = line;
    t.set_extension(&tag);
    out->b_transport(t, delay);
    t.clear_extension(&tag);
    if (t.is_response_error())
        SC_REPORT_ERROR(kDirectoryMsgType, (std::string(name()) + ": memory access to line " + hex(line) +
                                            " failed: " + t.get_response_string())
                                               .c_str());
}

void DirectoryModule::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    CoherenceExtension* ext = validate(trans);
    if (!ext) return;
    delay += m_lookup;
    const Directory::Request r{ext->msg, ext->line, cache_of(*ext), nullptr};
    const std::optional<Directory::Plan> plan = m_dir.begin(r);
    if (!plan) {
        // LT transactions never overlap (nothing in them waits).
        SC_REPORT_ERROR(kDirectoryMsgType, (std::string(name()) + ": line " + hex(ext->line) +
                                            " busy in a loosely-timed run: " + m_dir.describe(ext->line))
                                               .c_str());
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    // Probes leave together; the transaction waits for the last answer.
    sc_core::sc_time done = delay;
    for (const Directory::Probe& p : plan->probes) {
        CoherenceExtension probe;
        tlm::tlm_generic_payload& t = m_lt_trans;
        t.set_data_ptr(nullptr);
        setup_probe(t, probe, p, ext->line, ext->sync);
        t.set_extension(&probe);
        sc_core::sc_time d = delay;
        out->b_transport(t, d);
        t.clear_extension(&probe);
        if (t.is_response_error())
            SC_REPORT_ERROR(kDirectoryMsgType, (std::string(name()) + ": " + to_string(p.msg) + " to cache " +
                                                std::to_string(p.cache) + " failed: " + t.get_response_string())
                                                   .c_str());
        m_dir.answered(ext->line, p.cache, probe.present, probe.dirty);
        count_probe(p.msg, p.cache, probe.present);
        done = std::max(done, d);
    }
    delay = done;
    if (m_dir.needs_memory(ext->line) && !m_params.directory_data)
        memory_lt(tlm::TLM_READ_COMMAND, ext->line, ext->sync, delay);
    const Directory::Outcome o = m_dir.finish(ext->line);
    if (o.write_back) {
        sc_core::sc_time d = delay; // off the critical path
        memory_lt(tlm::TLM_WRITE_COMMAND, ext->line, ext->sync, d);
    }
    answer(trans, *ext, o);
}

// ---------------------------------------------------------------- AT

DirectoryModule::Outgoing& DirectoryModule::outgoing(tlm::tlm_generic_payload& t) {
    std::unique_ptr<Outgoing> o;
    if (m_free_outgoing.empty()) {
        o = std::make_unique<Outgoing>();
    } else {
        o = std::move(m_free_outgoing.back());
        m_free_outgoing.pop_back();
    }
    Outgoing& ref = *o;
    m_outgoing[&t] = std::move(o);
    return ref;
}

void DirectoryModule::at_request(tlm::tlm_generic_payload& t) {
    // Accepted at once; requests queue in the directory, per line.
    if (!validate(t)) {
        m_in_port.respond(0, t);
        return;
    }
    m_lookup_peq.notify(t, m_lookup);
}

void DirectoryModule::lookup_done() {
    while (tlm::tlm_generic_payload* t = m_lookup_peq.get_next_transaction()) at_start(*t);
}

void DirectoryModule::at_start(tlm::tlm_generic_payload& t) {
    CoherenceExtension& ext = *t.get_extension<CoherenceExtension>();
    const Directory::Request r{ext.msg, ext.line, cache_of(ext), &t};
    const std::optional<Directory::Plan> plan = m_dir.begin(r);
    if (!plan) return; // queued behind the line's transaction
    if (plan->probes.empty()) {
        at_after_probes(ext.line);
        return;
    }
    for (const Directory::Probe& p : plan->probes) {
        tlm::tlm_generic_payload& pt = m_pool.acquire();
        Outgoing& o = outgoing(pt);
        o.kind = Outgoing::Kind::probe;
        o.line = ext.line;
        o.cache = p.cache;
        setup_probe(pt, o.ext, p, ext.line, ext.sync);
        pt.set_extension(&o.ext);
        at_send(pt);
    }
}

tlm::tlm_generic_payload& DirectoryModule::at_memory(Outgoing::Kind kind, uint64_t line, bool sync) {
    tlm::tlm_generic_payload& t = m_pool.acquire();
    Outgoing& o = outgoing(t);
    o.kind = kind;
    o.line = line;
    o.ext = CoherenceExtension{};
    o.ext.sync = sync;
    o.ext.line = line;
    o.ext.msg = kind == Outgoing::Kind::write ? CoherenceMsg::put_m : CoherenceMsg::get_s;
    o.request = nullptr;
    const bool write = kind == Outgoing::Kind::write;
    if (write) read_line(line, t.get_data_ptr());
    fill_payload(t, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, line, t.get_data_ptr(), m_line_bytes);
    t.set_extension(&o.ext);
    return t;
}

void DirectoryModule::at_after_probes(uint64_t line) { at_complete(line); }

void DirectoryModule::at_complete(uint64_t line) {
    auto& t = *static_cast<tlm::tlm_generic_payload*>(m_dir.current(line).handle);
    const bool sync = t.get_extension<CoherenceExtension>()->sync;
    const bool memory = m_dir.needs_memory(line) && !m_params.directory_data;
    const Directory::Outcome o = m_dir.finish(line);
    if (memory) {
        // The grant waits for the line from memory; the line itself is free.
        tlm::tlm_generic_payload& read = at_memory(Outgoing::Kind::read, line, sync);
        Outgoing& out = *m_outgoing.at(&read);
        out.request = &t;
        out.outcome = o;
        at_send(read);
    } else {
        at_respond(t, o);
    }
    if (o.write_back) at_send(at_memory(Outgoing::Kind::write, line, sync)); // off the critical path
    if (const std::optional<Directory::Request> next = m_dir.next_waiting(line))
        at_start(*static_cast<tlm::tlm_generic_payload*>(next->handle));
}

void DirectoryModule::at_respond(tlm::tlm_generic_payload& t, const Directory::Outcome& o) {
    answer(t, *t.get_extension<CoherenceExtension>(), o);
    m_in_port.respond(0, t);
}

void DirectoryModule::at_send(tlm::tlm_generic_payload& t) {
    m_send_queue.push_back(&t);
    at_pump();
}

void DirectoryModule::at_pump() {
    // One request phase at a time on `out` (request exclusion).
    if (m_send_queue.empty() || m_out_port.request_open(0)) return;
    tlm::tlm_generic_payload* t = m_send_queue.front();
    m_send_queue.pop_front();
    m_out_port.send(0, *t);
}

void DirectoryModule::at_response(tlm::tlm_generic_payload& t) {
    auto it = m_outgoing.find(&t);
    if (it == m_outgoing.end()) {
        SC_REPORT_ERROR(kDirectoryMsgType,
                        (std::string(name()) + ": a response for a transaction it did not send").c_str());
        return;
    }
    std::unique_ptr<Outgoing> o = std::move(it->second);
    m_outgoing.erase(it);
    t.clear_extension(&o->ext);
    if (t.is_response_error())
        SC_REPORT_ERROR(kDirectoryMsgType,
                        (std::string(name()) + ": " +
                         (o->kind == Outgoing::Kind::probe ? to_string(o->ext.msg) : "memory access") + " for line " +
                         hex(o->line) + " failed: " + t.get_response_string())
                            .c_str());
    t.release();
    switch (o->kind) {
    case Outgoing::Kind::probe:
        m_dir.answered(o->line, o->cache, o->ext.present, o->ext.dirty);
        count_probe(o->ext.msg, o->cache, o->ext.present);
        if (m_dir.pending(o->line) == 0) at_after_probes(o->line);
        break;
    case Outgoing::Kind::read: at_respond(*o->request, o->outcome); break;
    case Outgoing::Kind::write: break;
    }
    m_free_outgoing.push_back(std::move(o));
    at_pump();
}

} // namespace syncron
