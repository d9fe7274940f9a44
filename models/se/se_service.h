#pragma once
// What an SE does with a message whatever its timing (docs/se.md): decode and
// validate it, run it through SeCore and book the SPU's service time, count
// and trace it, and address its replies. Plain C++ around SeCore (sc_time and
// payloads only as values), like the Accellera examples' memory shared by
// their LT and AT targets; SeLtTransport and SeAtTransport supply the timing.
// The overflow path's syncronVar accesses (SyncVarMemory) keep their
// bookkeeping here and take their time from the chosen transport.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/protocol/tlm/traffic_class.h"
#include "models/protocol/wire_format.h"
#include "models/se/core/se_core.h"
#include "models/se/se_stats.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

class SeTransport;

class SeService : private SyncVarMemory {
public:
    /// `name` prefixes the reports; `to_mem` serves the traces' debug reads.
    SeService(std::string name, unsigned unit, const SeParams& params, const SeTopology& topology,
              const AddressMap& map, tlm::tlm_initiator_socket<>& to_mem);

    /// The transport that times the memory accesses (set_timing()).
    void set_transport(SeTransport* transport) { m_transport = transport; }
    void set_trace(TraceSink* sink) { m_trace = sink; }
    TraceSink* trace() const { return m_trace; }
    void trace_var(uint64_t addr) { m_traced_vars.push_back(addr); }

    /// The message of `trans`; `check` = false skips validation (already done on arrival).
    bool decode(tlm::tlm_generic_payload& trans, Message& msg, std::string& why, bool check = true) const;
    /// Counts and reports a message decode() refused (its response already set).
    void reject(const std::string& why);
    /// The wire form of `msg` into `data` (kWireBytes), if the layout fits the wire.
    bool wire_form(const Message& msg, uint8_t* data) const;

    /// Runs `msg` through SeCore starting at `start`; returns its service time.
    sc_core::sc_time service(const Message& msg, const sc_core::sc_time& start);
    /// The last service's outcome (its replies in `out`).
    const SeResult& result() const { return m_result; }
    /// One message's base service: the SPU's per-message cycles.
    sc_core::sc_time base_service() const { return m_cycle * m_params.cycles_per_message; }

    /// A reply as a WRITE of its wire form to its receiver's MMIO address.
    void fill_message(tlm::tlm_generic_payload& t, const Outgoing& o, uint8_t* data) const;
    void report_delivery_error(const tlm::tlm_generic_payload& t) const;

    void trace_arrival(const tlm::tlm_generic_payload& t, const Message& msg, const sc_core::sc_time& arrived);
    void trace_service(const Message& msg, const sc_core::sc_time& arrival, const sc_core::sc_time& start,
                       const sc_core::sc_time& end, unsigned waiting);

    SeCore& core() { return m_core; }
    const SeCore& core() const { return m_core; }
    SeStats& stats() { return m_stats; }
    const SeStats& stats() const { return m_stats; }
    unsigned unit() const { return m_unit; }
    const SeParams& params() const { return m_params; }
    sc_core::sc_time cycle() const { return m_cycle; }
    const std::string& name() const { return m_name; }

private:
    /// MMIO address of an outgoing message's receiver: a core mailbox
    /// (flat: of any unit), an SE port, or a fallback server's mailbox.
    uint64_t destination_address(const Outgoing& o) const;

    // SyncVarMemory: the overflow path's accesses to the local vaults.
    void read(uint64_t addr, uint8_t* data, unsigned len) override;
    void write(uint64_t addr, const uint8_t* data, unsigned len) override;
    void mem_access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len);

    std::string m_name;
    unsigned m_unit;
    SeParams m_params;
    AddressMap m_map;
    WireLayout m_layout;
    bool m_wire_ok;
    SeCore m_core;
    sc_core::sc_time m_cycle;
    tlm::tlm_initiator_socket<>& m_to_mem;
    SeTransport* m_transport = nullptr;

    SeResult m_result;
    sc_core::sc_time m_msg_start; // when the SPU started the current message
    sc_core::sc_time m_mem_delay; // accumulated while serving one message
    SeStats m_stats;
    SyncTrafficExtension m_sync_tag; // on every syncronVar access (traffic_class.h)

    TraceSink* m_trace = nullptr;
    std::vector<uint64_t> m_traced_vars;
};

} // namespace syncron
