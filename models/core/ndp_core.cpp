#include "models/core/ndp_core.h"

#include <stdexcept>
#include <string>

#include "models/common/hex.h"
#include "models/core/core_msg_type.h"

namespace syncron {
namespace {

sc_core::sc_time cycle_of(const CoreParams& params, const char* core) {
    if (!(params.clock_ghz > 0.0)) throw std::invalid_argument(std::string(core) + ": core clock_ghz must be > 0");
    return sc_core::sc_time(1.0 / params.clock_ghz, sc_core::SC_NS);
}

void before_start(const sc_core::sc_object& core, const char* what) {
    SC_REPORT_ERROR(kCoreMsgType, (std::string(core.name()) + ": " + what + " must be called before sc_start").c_str());
}
} // namespace

NdpCore::NdpCore(sc_core::sc_module_name name, unsigned unit, unsigned local_id, unsigned global_id,
                 const CoreParams& params, const AddressMap& address_map, std::function<bool(uint64_t)> is_cacheable)
    : sc_module(name), bus("bus"), mailbox("mailbox"), m_unit(unit), m_local_id(local_id), m_global_id(global_id),
      m_map(address_map), m_cycle(cycle_of(params, sc_object::name())),
      m_layout(layout_for(address_map.units(), address_map.cores_per_unit())), m_wire_ok(layout_fits_wire(m_layout)),
      m_replies(m_stats.ack_wait_time),
      m_lt_bus(bus, BusOwner{*this, Endpoint::core(unit, local_id), m_cycle, m_state, m_replies}),
      m_at_bus(bus, BusOwner{*this, Endpoint::core(unit, local_id), m_cycle, m_state, m_replies}), m_bus(&m_lt_bus),
      m_l1(*this, unit, local_id, params, address_map, m_cycle, m_stats),
      m_mailbox_port(*this, "mailbox_peq",
                     [this](unsigned, tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_core::sc_time& d) {
                         return mailbox->nb_transport_bw(t, p, d);
                     },
                     {[this](unsigned, tlm::tlm_generic_payload& t) { at_mailbox_request(t); }, nullptr},
                     {/*defer=*/true, /*accept_at_once=*/true}) {
    m_l1.set_bus(*m_bus);
    m_l1.set_cacheable(std::move(is_cacheable));
    // Contexts sharing a pipeline keep the quantum everywhere: with four per
    // core the semaphore ran 1.17 of AT at a 500 ns memory quantum (1.00 without).
    if (params.threads <= 1) m_lt_bus.set_memory_quantum(sc_core::sc_time(params.memory_quantum_ns, sc_core::SC_NS));
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
    if (sc_core::sc_start_of_simulation_invoked()) return before_start(*this, "set_timing");
    m_bus = timing == Timing::at ? static_cast<CoreBus*>(&m_at_bus) : &m_lt_bus;
    m_l1.set_bus(*m_bus);
}

void NdpCore::set_trace(TraceSink* sink) {
    m_trace = sink;
    m_lt_bus.set_trace(sink);
    m_at_bus.set_trace(sink);
}

void NdpCore::set_coherence(std::function<Coherent(uint64_t)> coherent, std::function<void(uint64_t line)> changed) {
    if (sc_core::sc_start_of_simulation_invoked()) return before_start(*this, "set_coherence");
    m_l1.set_coherence(std::move(coherent), std::move(changed));
    // Cores spinning on coherent lines see each other's plain stores too
    // (the stack under mesi_lock): they keep to the quantum everywhere.
    m_lt_bus.set_memory_quantum(sc_core::SC_ZERO_TIME);
}

void NdpCore::set_server_mailbox(bool on) {
    m_server_mailbox = on;
    m_lt_bus.set_sync_tag(on ? &m_sync_tag : nullptr);
    m_at_bus.set_sync_tag(on ? &m_sync_tag : nullptr);
}

void NdpCore::set_direct_path(LtDirectPath* path) {
    if (sc_core::sc_start_of_simulation_invoked()) return before_start(*this, "set_direct_path");
    m_lt_bus.set_direct(path);
}

void NdpCore::set_pipeline(CorePipeline* pipeline, unsigned context) {
    if (sc_core::sc_start_of_simulation_invoked()) return before_start(*this, "set_pipeline");
    m_pipeline = pipeline;
    m_context = context;
}

sc_core::sc_time NdpCore::take_pipeline(bool work) {
    if (!m_pipeline || m_pipeline_depth++ > 0) return sc_core::SC_ZERO_TIME;
    const PipelineCharge c = m_bus->take_pipeline(*m_pipeline, m_context, work);
    m_stats.pipeline_wait += c.waited;
    m_stats.context_switches += c.switched;
    return c.begin;
}

void NdpCore::release_pipeline(bool work, const sc_core::sc_time& begin) {
    if (!m_pipeline || --m_pipeline_depth > 0) return;
    const PipelineCharge c = m_bus->release_pipeline(*m_pipeline, m_context, work, begin);
    m_stats.pipeline_wait += c.waited;
    m_stats.context_switches += c.switched;
}

void NdpCore::set_sync_client(SyncClient* client) {
    if (sc_core::sc_start_of_simulation_invoked()) return before_start(*this, "set_sync_client");
    m_client = client;
}

void NdpCore::run() {
    // The quantum may have been set after construction: start from it.
    m_bus->start();
    if (m_program) m_program(*this);
    m_bus->settle();
    m_stats.finish_time = sc_core::sc_time_stamp();
    set_state(CoreState::done, "done", 0);
    m_done_event.notify(sc_core::SC_ZERO_TIME);
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
    r.at = local_time();
    m_trace->on_core_state(r);
}

// ---------------------------------------------------------------- compute and memory

void NdpCore::compute(uint64_t instructions) {
    set_state(CoreState::computing, "compute", 0);
    m_stats.instructions += instructions;
    {
        const PipelineUse use(*this, true);
        // Integer multiply keeps long runs exact (1000 cycles at 2.5 GHz = 400 ns).
        m_bus->advance(sc_core::sc_time::from_value(m_cycle.value() * instructions));
    }
    m_bus->keep_time();
}

bool NdpCore::check_access(uint64_t addr, unsigned size, const char* what) {
    if (size < 1 || size > 8) {
        SC_REPORT_ERROR(kCoreMsgType, (std::string(name()) + ": " + what + " of size " + std::to_string(size) + " at " +
                                       hex(addr) + ": only sizes 1..8 are supported")
                                          .c_str());
        return false;
    }
    const uint64_t line = m_l1.line_bytes();
    if ((addr & (line - 1)) + size > line) {
        SC_REPORT_ERROR(kCoreMsgType, (std::string(name()) + ": " + what + " of size " + std::to_string(size) + " at " +
                                       hex(addr) + " crosses a " + std::to_string(line) + " B line")
                                          .c_str());
        return false;
    }
    return true;
}

void NdpCore::performed(uint64_t addr) {
    m_l1.performed(addr);
    // AT: forwards that waited for this access are answered now.
    std::vector<tlm::tlm_generic_payload*> deferred;
    deferred.swap(m_deferred_probes);
    for (tlm::tlm_generic_payload* t : deferred) {
        m_l1.probe(*t, *t->get_extension<CoherenceExtension>(), false);
        m_mailbox_port.respond(0, *t);
    }
}

void NdpCore::memory(bool write, uint64_t addr, uint8_t* buf, unsigned size) {
    const PipelineUse use(*this, true); // an in-order core stalls on its access
    const tlm::tlm_command cmd = write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND;
    if (m_l1.coherent(addr)) {
        m_l1.acquire(addr, write);
        m_bus->debug(cmd, addr, buf, size);
        performed(addr);
        m_bus->keep_time(); // a coherent core has no memory quantum (set_coherence)
    } else if (m_l1.cacheable(addr)) {
        m_l1.access(addr, write);
        m_bus->debug(cmd, addr, buf, size); // memory holds the only copy
    } else {
        m_bus->timed({cmd, addr, buf, size});
    }
}

uint64_t NdpCore::load(uint64_t addr, unsigned size) {
    if (!check_access(addr, size, "load")) return 0;
    set_state(CoreState::memory, "load", addr);
    ++m_stats.instructions;
    ++m_stats.loads;
    uint8_t buf[8] = {};
    memory(false, addr, buf, size);
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
    memory(true, addr, buf, size);
    set_state(CoreState::computing, "compute", 0);
}

void NdpCore::access(bool write, uint64_t addr, uint8_t* data, unsigned len) {
    const uint64_t line = m_l1.line_bytes();
    if (len == 0 || (addr & (line - 1)) + len > line) {
        SC_REPORT_ERROR(kCoreMsgType, (std::string(name()) + ": access of " + std::to_string(len) + " B at " +
                                       hex(addr) + " must lie within one " + std::to_string(line) + " B line")
                                          .c_str());
        return;
    }
    set_state(CoreState::memory, write ? "store" : "load", addr);
    ++m_stats.instructions;
    ++(write ? m_stats.stores : m_stats.loads);
    const PipelineUse use(*this, true);
    m_bus->timed({write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, data, len});
    set_state(CoreState::computing, "compute", 0);
}

uint64_t NdpCore::atomic(AtomicOp op, uint64_t addr, uint64_t operand, uint64_t compare, unsigned size) {
    if (size != 4 && size != 8) {
        SC_REPORT_ERROR(kCoreMsgType, (std::string(name()) + ": atomic " + to_string(op) + " of size " +
                                       std::to_string(size) + " at " + hex(addr) + ": only 4 and 8 bytes")
                                          .c_str());
        return 0;
    }
    if (addr % size) {
        SC_REPORT_ERROR(kCoreMsgType, (std::string(name()) + ": atomic " + to_string(op) + " at " + hex(addr) +
                                       " is not aligned to its " + std::to_string(size) + " bytes")
                                          .c_str());
        return 0;
    }
    set_state(CoreState::memory, to_string(op), addr);
    ++m_stats.instructions;
    ++m_stats.atomics[static_cast<unsigned>(op)];
    const PipelineUse use(*this, true);
    const uint64_t mask = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
    uint8_t buf[8] = {};
    uint64_t old = 0;
    if (m_l1.coherent(addr)) {
        // In the L1 with the line in M: read, modify and write with no
        // probe in between (performed() answers the ones that waited).
        ++m_stats.coherent_atomics;
        m_l1.acquire(addr, true);
        m_bus->debug(tlm::TLM_READ_COMMAND, addr, buf, size);
        for (unsigned i = 0; i < size; ++i) old |= uint64_t(buf[i]) << (8 * i);
        const uint64_t now = op == AtomicOp::swap               ? operand
                             : op == AtomicOp::faa              ? old + operand
                             : (old & mask) == (compare & mask) ? operand
                                                                : old; // cas
        for (unsigned i = 0; i < size; ++i) buf[i] = static_cast<uint8_t>((now & mask) >> (8 * i));
        m_bus->debug(tlm::TLM_WRITE_COMMAND, addr, buf, size);
        performed(addr);
        m_bus->keep_time();
    } else {
        for (unsigned i = 0; i < size; ++i) buf[i] = static_cast<uint8_t>(operand >> (8 * i));
        AtomicExtension ext(op, compare);
        m_bus->timed({tlm::TLM_WRITE_COMMAND, addr, buf, size, &ext});
        old = ext.old_value;
    }
    if (op == AtomicOp::cas && (old & mask) != (compare & mask)) ++m_stats.cas_failures;
    set_state(CoreState::computing, "compute", 0);
    return old;
}

} // namespace syncron
