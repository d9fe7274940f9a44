#pragma once
// Small TLM-2.0 modules for the memory and interconnect tests.
// A ScriptInitiator runs a test script in an SC_THREAD; the script records what
// it saw and the test case asserts after sc_start() returns, because a Catch
// REQUIRE thrown inside a SystemC process would be turned into an sc_report.
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "models/memory/backing_store.h"
#include "models/protocol/tlm/syncron_extension.h"
#include "models/protocol/wire_format.h"

namespace syncron::test {

inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

/// Writes `m` as a SynCron message (an 18-byte WRITE carrying a
/// SyncronExtension, data bytes zero) to `socket` with b_transport, from
/// `src`; returns the response status. `delay` is annotated as usual.
template <class Socket>
tlm::tlm_response_status write_message(Socket& socket, const Message& m, sc_core::sc_time& delay,
                                       const Endpoint& src = Endpoint{}) {
    SyncronExtension ext(m);
    ext.src = src;
    uint8_t data[kWireBytes] = {};
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(0); // routed by binding, not by address
    t.set_data_ptr(data);
    t.set_data_length(kWireBytes);
    t.set_streaming_width(kWireBytes);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_extension(&ext);
    socket->b_transport(t, delay);
    t.clear_extension(&ext); // stack-owned
    return t.get_response_status();
}

/// tlm_quantumkeeper with its own quantum instead of the global one, so one
/// elaboration can hold benches with different quanta. Sync points fall on
/// multiples of the quantum, as with tlm_global_quantum; 0 syncs every time.
class QuantumKeeper : public tlm_utils::tlm_quantumkeeper {
public:
    explicit QuantumKeeper(sc_core::sc_time quantum) : m_quantum(quantum) {}

protected:
    sc_core::sc_time compute_local_quantum() override {
        if (m_quantum == sc_core::SC_ZERO_TIME) return sc_core::SC_ZERO_TIME;
        const sc_dt::uint64 now = sc_core::sc_time_stamp().value();
        const sc_dt::uint64 q = m_quantum.value();
        return sc_core::sc_time::from_value(q - now % q);
    }

private:
    sc_core::sc_time m_quantum;
};

/// Initiator whose behaviour is a std::function run once at time 0.
class ScriptInitiator : public sc_core::sc_module {
public:
    using Script = std::function<void(ScriptInitiator&)>;

    tlm_utils::simple_initiator_socket<ScriptInitiator> socket;

    SC_HAS_PROCESS(ScriptInitiator);
    ScriptInitiator(const sc_core::sc_module_name& name, Script script)
        : sc_module(name), socket("socket"), m_script(std::move(script)) {
        SC_THREAD(run);
    }

    /// One blocking transaction; `delay` is the annotated time in and out.
    tlm::tlm_response_status transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len,
                                       sc_core::sc_time& delay, const uint8_t* byte_enable = nullptr) {
        tlm::tlm_generic_payload trans;
        setup(trans, cmd, addr, data, len);
        if (byte_enable) {
            trans.set_byte_enable_ptr(const_cast<uint8_t*>(byte_enable));
            trans.set_byte_enable_length(len);
        }
        socket->b_transport(trans, delay);
        return trans.get_response_status();
    }

    tlm::tlm_response_status write(uint64_t addr, std::vector<uint8_t> data, sc_core::sc_time& delay) {
        return transport(tlm::TLM_WRITE_COMMAND, addr, data.data(), static_cast<unsigned>(data.size()), delay);
    }
    tlm::tlm_response_status read(uint64_t addr, std::vector<uint8_t>& data, sc_core::sc_time& delay) {
        return transport(tlm::TLM_READ_COMMAND, addr, data.data(), static_cast<unsigned>(data.size()), delay);
    }
    tlm::tlm_response_status write64(uint64_t addr, uint64_t value, sc_core::sc_time& delay) {
        return transport(tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<uint8_t*>(&value), 8, delay);
    }
    uint64_t read64(uint64_t addr, sc_core::sc_time& delay, tlm::tlm_response_status* st = nullptr) {
        uint64_t value = 0;
        const auto r = transport(tlm::TLM_READ_COMMAND, addr, reinterpret_cast<uint8_t*>(&value), 8, delay);
        if (st) *st = r;
        return value;
    }

    /// Debug transport; returns the byte count, *st gets the response status.
    unsigned debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len,
                   tlm::tlm_response_status* st = nullptr) {
        tlm::tlm_generic_payload trans;
        setup(trans, cmd, addr, data, len);
        const unsigned n = socket->transport_dbg(trans);
        if (st) *st = trans.get_response_status();
        return n;
    }

    bool done() const { return m_done; }

private:
    static void setup(tlm::tlm_generic_payload& trans, tlm::tlm_command cmd, uint64_t addr, uint8_t* data,
                      unsigned len) {
        trans.set_command(cmd);
        trans.set_address(addr);
        trans.set_data_ptr(data);
        trans.set_data_length(len);
        trans.set_streaming_width(len);
        trans.set_byte_enable_ptr(nullptr);
        trans.set_dmi_allowed(false);
        trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    }

    void run() {
        m_script(*this);
        m_done = true;
    }

    Script m_script;
    bool m_done = false;
};

/// Memory-like target with a fixed latency that counts what reaches it.
class RecordingTarget : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<RecordingTarget> socket;

    RecordingTarget(const sc_core::sc_module_name& name, sc_core::sc_time latency = sc_core::SC_ZERO_TIME)
        : sc_module(name), socket("socket"), m_latency(latency) {
        socket.register_b_transport(this, &RecordingTarget::b_transport);
        socket.register_transport_dbg(this, &RecordingTarget::transport_dbg);
    }

    uint64_t transports() const { return m_transports; }
    uint64_t debug_transports() const { return m_debug; }
    uint64_t last_address() const { return m_last_address; }
    /// Effective time (sc_time_stamp + delay) at which the last request arrived.
    const sc_core::sc_time& last_arrival() const { return m_last_arrival; }
    BackingStore& store() { return m_store; }

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
        ++m_transports;
        m_last_address = trans.get_address();
        m_last_arrival = sc_core::sc_time_stamp() + delay;
        access(trans);
        delay += m_latency;
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& trans) {
        ++m_debug;
        access(trans);
        return trans.get_data_length();
    }
    void access(tlm::tlm_generic_payload& trans) {
        if (trans.is_read())
            m_store.read(trans.get_address(), trans.get_data_ptr(), trans.get_data_length());
        else if (trans.is_write())
            m_store.write(trans.get_address(), trans.get_data_ptr(), trans.get_data_length());
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
    }

    sc_core::sc_time m_latency;
    BackingStore m_store;
    uint64_t m_transports = 0;
    uint64_t m_debug = 0;
    uint64_t m_last_address = 0;
    sc_core::sc_time m_last_arrival;
};

} // namespace syncron::test
