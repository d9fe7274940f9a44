#include "models/se/se_module.h"

#include <algorithm>
#include <stdexcept>

#include "models/se/memory_response.h"
#include "models/tlm/borrowed_extension.h"
#include "models/tlm/payload_fill.h"

namespace syncron {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;

namespace {
constexpr const char* kMsgType = "/syncron/se";
}

SeModule::SeModule(sc_core::sc_module_name name, unsigned unit, const SeParams& params, const SeTopology& topology,
                   const AddressMap& map)
    : sc_module(name), in("in"), to_cores("to_cores"), to_ses("to_ses"), to_mem("to_mem"), m_unit(unit),
      m_params(params), m_map(map), m_layout(layout_for(topology.units, topology.cores_per_unit)),
      m_wire_ok(layout_fits_wire(m_layout)), m_core(unit, params, topology, this),
      m_cycle(1.0 / (params.clock_ghz > 0 ? params.clock_ghz : 1.0), SC_NS),
      m_in_port(*this, "in_peq",
                [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                    return in->nb_transport_bw(t, p, d);
                },
                {[this](unsigned, tlm::tlm_generic_payload& t) { at_request(t); }, nullptr}, {/*defer=*/true}),
      m_out_port(*this, "out_peq",
                 [this](unsigned i, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_time& d) {
                     auto& socket = i == kToCores ? to_cores : i == kToSes ? to_ses : to_mem;
                     return socket->nb_transport_fw(t, p, d);
                 },
                 {[this](unsigned i, tlm::tlm_generic_payload&) {
                      if (i != kToMem) m_out[i].ready.notify(SC_ZERO_TIME); // the next message may go
                  },
                  [this](unsigned i, tlm::tlm_generic_payload& t) { at_response(i, t); }},
                 {/*defer=*/true}) {
    if (!(params.clock_ghz > 0)) throw std::invalid_argument("SeModule: se.clock_ghz must be positive");
    if (params.cycles_per_message == 0)
        throw std::invalid_argument("SeModule: se.cycles_per_message must be at least 1");
    in.register_b_transport(this, &SeModule::b_transport);
    in.register_nb_transport_fw(this, &SeModule::nb_transport_fw);
    in.register_transport_dbg(this, &SeModule::transport_dbg);
    to_cores.register_nb_transport_bw(this, &SeModule::bw_cores);
    to_ses.register_nb_transport_bw(this, &SeModule::bw_ses);
    to_mem.register_nb_transport_bw(this, &SeModule::bw_mem);
    SC_THREAD(spu);
    SC_THREAD(send_cores);
    SC_THREAD(send_ses);
}

bool SeModule::decode(tlm::tlm_generic_payload& trans, Message& msg, std::string& why, bool check) const {
    if (trans.get_command() != tlm::TLM_WRITE_COMMAND) {
        why = "SE message port accepts writes only";
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return false;
    }
    if (trans.get_byte_enable_ptr()) {
        why = "SE message port does not support byte enables";
        trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return false;
    }
    if (trans.get_streaming_width() < trans.get_data_length()) {
        why = "SE message port does not support streaming";
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return false;
    }
    if (auto* ext = trans.get_extension<SyncronExtension>()) {
        msg = ext->msg;
    } else if (trans.get_data_length() == kWireBytes && trans.get_data_ptr()) {
        // A plain generic payload carrying the 140-bit wire form.
        try {
            msg = unpack(trans.get_data_ptr(), m_layout);
        } catch (const std::exception& e) {
            why = e.what();
            trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return false;
        }
    } else {
        why = "SE message needs a SyncronExtension or " + std::to_string(kWireBytes) + " bytes of wire form, got " +
              std::to_string(trans.get_data_length()) + " bytes";
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return false;
    }
    if (!check) return true;
    why = m_core.validate(msg);
    if (!why.empty()) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return false;
    }
    return true;
}

void SeModule::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    Message msg;
    std::string why;
    if (!decode(trans, msg, why)) {
        ++m_stats.rejected;
        // The response already names the failure class; the report names the message.
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": rejected message: " + why).c_str());
        return;
    }
    const Arrival a{sc_core::sc_time_stamp() + delay, m_seq++, msg};
    if (m_trace) trace_arrival(trans, msg, a.time);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (m_timing == Timing::lt && level_of(msg.op) != Level::global && level_of(msg.op) != Level::overflow) {
        serve_now(a); // a core's message: served in the caller's context
        return;
    }
    // AT, and LT messages between SEs: the message enters the SPU buffer at
    // the sender's time and the SPU thread takes it then. (Served in the
    // sender's call, a round trip to the Master SE would advance this SE's
    // state by its whole latency at once, ahead of its own cores' messages.)
    // waiting_at() <= the buffer's size: count only when the size could reach
    // the limit. (LT counts its buffer in serve_lt, for every message.)
    if (m_timing == Timing::at && m_buffer.size() >= m_params.buffer_messages &&
        waiting_at(a.time) >= m_params.buffer_messages)
        ++m_stats.buffer_full_events;
    m_buffer.insert(a); // sorted; (time, seq) is unique
    m_arrival.notify(delay);
}

unsigned SeModule::transport_dbg(tlm::tlm_generic_payload& trans) {
    // Debug access reads the wire form of the next buffered message; it
    // never advances time or changes state.
    if (trans.get_command() != tlm::TLM_READ_COMMAND || trans.get_data_length() < kWireBytes || m_buffer.empty() ||
        !m_wire_ok)
        return 0;
    const auto bytes = pack(m_buffer.front().msg, m_layout);
    std::copy(bytes.begin(), bytes.end(), trans.get_data_ptr());
    return kWireBytes;
}

void SeModule::trace_arrival(const tlm::tlm_generic_payload& t, const Message& msg, const sc_time& arrived) {
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

void SeModule::trace_service(const Message& msg, const sc_time& arrival, const sc_time& start, const sc_time& end,
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
        const bool have = m_core.is_master_of(v) && to_mem->transport_dbg(dbg) == image.size();
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

unsigned SeModule::waiting_at(const sc_time& t) const {
    const Arrival probe{t, ~0ull, Message{}};
    return static_cast<unsigned>(m_buffer.count_not_after(probe));
}

void SeModule::note_st_change(const sc_time& at) {
    // Earlier: cannot happen (the SPU's time never goes back). Equal: nothing
    // to add, and the SPU notes each service twice at the same time.
    if (at <= m_stats.last_change) return;
    m_stats.st_occupancy_integral_ns += m_core.table().occupancy() * (at - m_stats.last_change).to_seconds() * 1e9;
    m_stats.last_change = at;
}

double SeModule::st_occupancy_avg(const sc_time& now) const {
    const double total_ns = now.to_seconds() * 1e9;
    if (total_ns <= 0) return 0;
    if (m_timing == Timing::lt) return m_lt_occupancy.integral_ns(now) / total_ns;
    // The SPU may have run ahead of `now`: no tail then.
    const double tail =
        now > m_stats.last_change ? m_core.table().occupancy() * (now - m_stats.last_change).to_seconds() * 1e9 : 0.0;
    return (m_stats.st_occupancy_integral_ns + tail) / total_ns;
}

unsigned SeModule::st_max() const { return m_timing == Timing::lt ? m_lt_occupancy.max() : m_stats.st_max; }

sc_time SeModule::service(const Message& msg, const sc_time& start) {
    m_result.clear();
    m_mem_delay = SC_ZERO_TIME;
    m_msg_start = start;
    m_core.handle_validated(msg, m_result); // decode() validated it on arrival
    ++m_stats.processed;
    if (!m_result.ok()) SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": " + m_result.error).c_str());
    // Service time: the SPU's per-message cycles (which cover one ST
    // access), further ST accesses, indexing-counter accesses and the
    // syncronVar memory accesses of the overflow path.
    const SeCost& c = m_result.cost;
    const unsigned cycles = m_params.cycles_per_message * c.messages +
                            m_params.st_cycles * (c.st_accesses > 1 ? c.st_accesses - 1 : 0) +
                            m_params.counter_cycles * c.counter_accesses;
    const sc_time busy = m_cycle * cycles + m_mem_delay;
    m_stats.spu_busy += busy;
    return busy;
}

void SeModule::serve_now(const Arrival& a) {
    // A message that reaches this SE while it is still emitting (a reply to
    // its own message) waits its turn, in call order.
    m_lt_pending.push_back(a);
    if (m_lt_serving) return;
    m_lt_serving = true;
    try {
        while (!m_lt_pending.empty()) {
            const Arrival next = m_lt_pending.front();
            m_lt_pending.pop_front();
            serve_lt(next);
        }
    } catch (...) { // an error report: the run stops, the SE stays usable for its statistics
        m_lt_pending.clear();
        m_lt_serving = false;
        throw;
    }
    m_lt_serving = false;
}

void SeModule::serve_lt(const Arrival& a) {
    const sc_time now = sc_core::sc_time_stamp();
    const sc_time base = m_cycle * m_params.cycles_per_message;
    const sc_time ready = std::max(a.time, m_var_clock.ready(a.msg));
    // The start is chosen for one message's base service; a longer one (ST
    // accesses, the overflow path's memory) is booked from the first gap
    // that holds it, and its replies leave from that gap's end (its memory
    // accesses keep the times taken from the first start).
    sc_time start = m_spu_timeline.earliest_start(ready, base);
    // Buffer statistics: LT keeps no buffer; the messages ahead of this one
    // are estimated from its queueing delay in base services.
    const unsigned waiting = static_cast<unsigned>((start - ready).value() / base.value());
    if (waiting >= m_params.buffer_messages) ++m_stats.buffer_full_events;
    m_stats.buffer_max = std::max(m_stats.buffer_max, waiting + 1);

    const unsigned occupied = m_core.table().occupancy();
    const sc_time busy = service(a.msg, start);
    start = m_spu_timeline.book(start, busy);
    // The ST's occupancy in simulated time, not in the order of the calls.
    m_lt_occupancy.change(start, static_cast<int>(m_core.table().occupancy()) - static_cast<int>(occupied));
    m_lt_occupancy.settle(now);
    m_spu_timeline.prune(now);
    const sc_time end = start + busy;
    m_spu_free = std::max(m_spu_free, end);
    const sc_time leave = m_var_clock.served(a.msg, m_result.out, end);
    m_var_clock.prune(now);
    if (m_trace) trace_service(a.msg, a.time, start, end, waiting + 1);
    for (const auto& o : m_result.out) emit(o, leave - now);
}

void SeModule::spu() {
    // Messages are served in arrival order. AT: each starts when it has
    // arrived and the SPU is free; the SPU waits for every arrival and every
    // service. LT: only messages between SEs come here, each served once its
    // arrival time has come (serve_lt books the SPU).
    for (;;) {
        while (m_buffer.empty()) wait(m_arrival);
        const sc_time now = sc_core::sc_time_stamp();
        const Arrival& next = m_buffer.front();
        if (next.time > now) {
            wait(next.time - now, m_arrival); // an earlier message may still come
            continue;
        }
        if (m_timing == Timing::lt) {
            const Arrival a = next;
            m_buffer.pop_front();
            serve_now(a);
            continue;
        }
        const sc_time start = std::max(next.time, m_spu_free);
        if (start > now) {
            wait(start - now, m_arrival);
            continue;
        }
        // waiting_at() <= the buffer's size: search only when it could raise the maximum or is traced.
        const unsigned waiting =
            (m_trace || m_buffer.size() > m_stats.buffer_max) ? waiting_at(start) : m_stats.buffer_max;
        m_stats.buffer_max = std::max(m_stats.buffer_max, waiting);
        const Arrival a = next;
        m_buffer.pop_front();
        release_withheld(); // a buffer slot is free again

        note_st_change(start);
        m_spu_free = start + service(a.msg, start);
        m_stats.st_max = std::max(m_stats.st_max, m_core.table().occupancy());
        if (m_trace) trace_service(a.msg, a.time, start, m_spu_free, waiting);
        // Memory accesses already took their time.
        if (m_spu_free > sc_core::sc_time_stamp()) wait(m_spu_free - sc_core::sc_time_stamp());
        for (const auto& o : m_result.out) emit(o, SC_ZERO_TIME);
    }
}

uint64_t SeModule::destination_address(const Outgoing& o) const {
    switch (o.dest) {
    case Outgoing::Dest::core: { // flat: the id is the core's flat index, any unit
        const CoreRef c = m_core.organization().core(o.id, m_unit);
        return m_map.mailbox_address(c.unit, c.local);
    }
    case Outgoing::Dest::server: // the fallback server core of unit `id`
        return m_map.mailbox_address(o.id, m_core.topology().server_core(o.id));
    default: return m_map.se_address(o.id);
    }
}

void SeModule::fill_message(tlm::tlm_generic_payload& t, const Outgoing& o, uint8_t* data) const {
    std::array<uint8_t, kWireBytes> bytes{};
    if (m_wire_ok && fits(o.msg, m_layout)) bytes = pack(o.msg, m_layout);
    std::copy(bytes.begin(), bytes.end(), data);
    fill_payload(t, tlm::TLM_WRITE_COMMAND, destination_address(o), data, kWireBytes);
}

void SeModule::report_delivery_error(const tlm::tlm_generic_payload& t) const {
    const auto* ext = t.get_extension<SyncronExtension>();
    SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": delivery failed (" + t.get_response_string() + ") for " +
                               (ext ? to_string(ext->msg) : std::string("a message")))
                                  .c_str());
}

void SeModule::emit(const Outgoing& o, const sc_time& delay) {
    // Replies to cores leave on to_cores; messages to SEs and to a fallback
    // server core (reached through the crossbar and links) on to_ses.
    const bool to_core = o.dest == Outgoing::Dest::core;
    if (m_timing == Timing::at) {
        tlm::tlm_generic_payload& t = m_pool.acquire();
        fill_message(t, o, t.get_data_ptr());
        SyncronExtension& ext = m_pool.message_extension(t);
        ext.msg = o.msg;
        ext.src = Endpoint::se(m_unit);
        ext.sent = sc_core::sc_time_stamp();
        OutQueue& q = m_out[to_core ? kToCores : kToSes];
        q.queue.push_back(&t);
        q.ready.notify(SC_ZERO_TIME);
        return;
    }
    std::array<uint8_t, kWireBytes> data{};
    tlm::tlm_generic_payload& trans = m_lt_trans; // reused: no allocation per message
    SyncronExtension ext(o.msg);
    ext.src = Endpoint::se(m_unit);
    ext.sent = sc_core::sc_time_stamp() + delay;
    fill_message(trans, o, data.data());
    sc_time d = delay;
    {
        const BorrowedExtension<SyncronExtension> borrowed(trans, &ext); // stack-owned
        (to_core ? to_cores : to_ses)->b_transport(trans, d);
    }
    if (trans.is_response_error()) report_delivery_error(trans);
}

void SeModule::read(uint64_t addr, uint8_t* data, unsigned len) { mem_access(tlm::TLM_READ_COMMAND, addr, data, len); }

void SeModule::write(uint64_t addr, const uint8_t* data, unsigned len) {
    mem_access(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(data), len);
}

void SeModule::mem_access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    // Accesses of one message are sequential: each starts when the previous
    // one has completed (the SPU waits for memory), the first one after the
    // SPU's decode and ST cycles.
    tlm::tlm_generic_payload& trans = m_timing == Timing::at ? m_pool.acquire() : m_lt_trans;
    fill_payload(trans, cmd, addr, data, len);
    {
        const BorrowedExtension<SyncTrafficExtension> tag(trans, &m_sync_tag); // member-owned
        if (m_timing == Timing::lt) {
            sc_time d = (m_msg_start - sc_core::sc_time_stamp()) + m_mem_delay + m_cycle * m_params.cycles_per_message;
            const sc_time before = d;
            to_mem->b_transport(trans, d);
            m_last_mem_latency = d - before;
            m_mem_delay += m_last_mem_latency;
        } else {
            const sc_time start = m_msg_start + m_cycle * m_params.cycles_per_message + m_mem_delay;
            if (start > sc_core::sc_time_stamp()) wait(start - sc_core::sc_time_stamp());
            const sc_time t0 = sc_core::sc_time_stamp();
            m_mem_pending = true;
            m_out_port.send(kToMem, trans);
            while (m_mem_pending) wait(m_mem_done);
            m_last_mem_latency = sc_core::sc_time_stamp() - t0;
            m_mem_delay += m_last_mem_latency;
        }
        ++m_stats.mem_accesses;
        if (m_trace) {
            MemoryRecord rec;
            rec.initiator = Endpoint::se(m_unit);
            rec.addr = addr;
            rec.size = len;
            rec.write = cmd == tlm::TLM_WRITE_COMMAND;
            rec.at = m_timing == Timing::at;
            rec.end = rec.begin_resp = m_msg_start + m_cycle * m_params.cycles_per_message + m_mem_delay;
            rec.begin = rec.end_req = rec.end - m_last_mem_latency;
            m_trace->on_memory(rec);
        }
    }
    if (const auto why = memory_response_error(trans, addr, m_params.accept_incomplete_response))
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": " + *why).c_str());
    if (m_timing == Timing::at) trans.release();
}

// ---------------------------------------------------------------- AT target side of `in`

tlm::tlm_sync_enum SeModule::nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
    return m_in_port.nb_transport_fw(0, t, ph, d);
}

void SeModule::at_request(tlm::tlm_generic_payload& t) {
    // BEGIN_REQ at its effective time.
    Message msg;
    std::string why;
    if (!decode(t, msg, why)) {
        ++m_stats.rejected;
        m_in_port.accept(0, t);
        m_in_port.respond(0, t); // carries the error status decode() set
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": rejected message: " + why).c_str());
        return;
    }
    if (m_buffer.size() >= m_params.buffer_messages) {
        // Buffer full: END_REQ is withheld until the SPU frees a slot. The
        // sender obeys request exclusion, so at most one request waits here.
        ++m_stats.buffer_full_events;
        m_withheld = &t;
        return;
    }
    accept_request(t);
}

void SeModule::accept_request(tlm::tlm_generic_payload& t) {
    Message msg;
    std::string why;
    decode(t, msg, why, /*check=*/false); // validated on arrival
    m_buffer.push_back({sc_core::sc_time_stamp(), m_seq++, msg});
    if (m_trace) trace_arrival(t, msg, sc_core::sc_time_stamp());
    m_arrival.notify(SC_ZERO_TIME);
    m_in_port.accept(0, t);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    m_in_port.respond(0, t);
}

void SeModule::release_withheld() {
    if (!m_withheld || m_buffer.size() >= m_params.buffer_messages) return;
    tlm::tlm_generic_payload* t = m_withheld;
    m_withheld = nullptr;
    accept_request(*t);
}

// ---------------------------------------------------------------- AT initiator side

void SeModule::sender(unsigned index) {
    OutQueue& q = m_out[index];
    for (;;) {
        while (q.queue.empty() || m_out_port.request_open(index)) wait(q.ready);
        tlm::tlm_generic_payload* t = q.queue.front();
        q.queue.pop_front();
        m_out_port.send(index, *t);
    }
}

void SeModule::at_response(unsigned index, tlm::tlm_generic_payload& t) {
    if (index == kToMem) { // the SPU's memory access; mem_access releases the payload
        m_mem_pending = false;
        m_mem_done.notify(SC_ZERO_TIME);
        return;
    }
    if (t.is_response_error()) report_delivery_error(t);
    t.release();
}

} // namespace syncron
