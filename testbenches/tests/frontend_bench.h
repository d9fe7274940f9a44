#pragma once
// A small third-party-style platform for the front end tests: harts that
// issue only plain generic payloads (no extension, no initiator ID) through
// an address-decoding bus to the SynCron fabric and a plain memory. A hart
// runs its script in an SC_THREAD and records what it saw; the test case
// asserts after sc_start() returns.
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace syncron::test {

/// Address decoder forwarding every interface, both timing styles.
class PlainBus : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<PlainBus, 64> in;
    tlm_utils::multi_passthrough_initiator_socket<PlainBus, 64> out;

    explicit PlainBus(const sc_core::sc_module_name& name) : sc_module(name), in("in"), out("out") {
        in.register_b_transport(this, &PlainBus::b_transport);
        in.register_nb_transport_fw(this, &PlainBus::nb_transport_fw);
        in.register_transport_dbg(this, &PlainBus::transport_dbg);
        out.register_nb_transport_bw(this, &PlainBus::nb_transport_bw);
    }
    /// [begin, end) goes to output `port` (in binding order); with
    /// `offsets` the target gets the address minus `begin`, as buses that
    /// pass each port the offset into its own mapping do.
    void map(uint64_t begin, uint64_t end, int port, bool offsets = false) {
        m_ranges.push_back({begin, end, port, offsets});
    }

private:
    struct Range {
        uint64_t begin, end;
        int port;
        bool offsets;
    };
    /// The output port, or -1; translates the address for an offset port.
    int decode(tlm::tlm_generic_payload& t) const {
        const uint64_t a = t.get_address();
        for (const auto& r : m_ranges)
            if (a >= r.begin && a < r.end) {
                if (r.offsets) t.set_address(a - r.begin);
                return r.port;
            }
        return -1;
    }
    void b_transport(int, tlm::tlm_generic_payload& t, sc_core::sc_time& d) {
        const int p = decode(t);
        if (p < 0) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        out[p]->b_transport(t, d);
    }
    tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        if (ph == tlm::BEGIN_REQ) {
            m_from[&t] = id;
            m_to[&t] = decode(t);
        }
        const int p = m_to[&t];
        if (p < 0) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return tlm::TLM_COMPLETED;
        }
        return out[p]->nb_transport_fw(t, ph, d);
    }
    tlm::tlm_sync_enum nb_transport_bw(int, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return in[m_from.at(&t)]->nb_transport_bw(t, ph, d);
    }
    unsigned transport_dbg(int, tlm::tlm_generic_payload& t) {
        const int p = decode(t);
        return p < 0 ? 0 : out[p]->transport_dbg(t);
    }
    std::vector<Range> m_ranges;
    std::map<const tlm::tlm_generic_payload*, int> m_from, m_to;
};

/// Plain memory with a fixed latency, LT and AT (early completion), for
/// any number of initiators; addresses from `base`.
class PlainMemory : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<PlainMemory, 64> socket;

    PlainMemory(const sc_core::sc_module_name& name, uint64_t base, uint64_t bytes, sc_core::sc_time latency)
        : sc_module(name), socket("socket"), m_base(base), m_bytes(bytes), m_latency(latency) {
        socket.register_b_transport(this, &PlainMemory::b_transport);
        socket.register_nb_transport_fw(this, &PlainMemory::nb_transport_fw);
        socket.register_transport_dbg(this, &PlainMemory::transport_dbg);
    }
    uint64_t accesses = 0;
    /// False: a memory that never sets the response status (it stays as the
    /// initiator left it, usually TLM_INCOMPLETE_RESPONSE).
    bool sets_status = true;
    uint64_t read(uint64_t a, unsigned len) const {
        uint64_t v = 0;
        for (unsigned i = 0; i < len; ++i) {
            const auto it = m_data.find(a - m_base + i);
            v |= uint64_t(it == m_data.end() ? 0 : it->second) << (8 * i);
        }
        return v;
    }

private:
    bool access(tlm::tlm_generic_payload& t) {
        const uint64_t a = t.get_address();
        if (a < m_base || a + t.get_data_length() > m_base + m_bytes) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return false;
        }
        for (unsigned i = 0; i < t.get_data_length(); ++i) {
            uint8_t& byte = m_data[a - m_base + i];
            if (t.is_read())
                t.get_data_ptr()[i] = byte;
            else
                byte = t.get_data_ptr()[i];
        }
        if (sets_status) t.set_response_status(tlm::TLM_OK_RESPONSE);
        return true;
    }
    void b_transport(int, tlm::tlm_generic_payload& t, sc_core::sc_time& d) {
        ++accesses;
        access(t);
        d += m_latency;
    }
    tlm::tlm_sync_enum nb_transport_fw(int, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
        ++accesses;
        access(t);
        d += m_latency;
        return tlm::TLM_COMPLETED;
    }
    unsigned transport_dbg(int, tlm::tlm_generic_payload& t) { return access(t) ? t.get_data_length() : 0; }
    uint64_t m_base, m_bytes;
    sc_core::sc_time m_latency;
    std::map<uint64_t, uint8_t> m_data;
};

/// A hart: one blocking access at a time, LT (b_transport with a local time
/// offset) or AT (4-phase nb_transport), plain payloads only.
class PlainHart : public sc_core::sc_module {
public:
    using Script = std::function<void(PlainHart&)>;
    tlm_utils::simple_initiator_socket<PlainHart, 64> socket;

    SC_HAS_PROCESS(PlainHart);
    PlainHart(const sc_core::sc_module_name& name, bool at, Script script)
        : sc_module(name), socket("socket"), m_at(at), m_script(std::move(script)) {
        socket.register_nb_transport_bw(this, &PlainHart::nb_transport_bw);
        SC_THREAD(run);
    }

    /// LT: the local time offset, carried from access to access.
    sc_core::sc_time offset;
    /// Leave the streaming width 0 (not set), as many ISSs do.
    bool zero_streaming = false;
    /// An error response traps: a load's destination is not written.
    bool trap_on_error = false;
    bool done = false;

    tlm::tlm_response_status access(bool read, uint64_t addr, uint64_t& value, unsigned len = 4) {
        uint8_t data[8] = {};
        if (!read) std::memcpy(data, &value, len);
        tlm::tlm_generic_payload t;
        t.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(data);
        t.set_data_length(len);
        t.set_streaming_width(zero_streaming ? 0 : len);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        const sc_core::sc_time before = now();
        if (!m_at) {
            const sc_core::sc_time given = offset;
            socket->b_transport(t, offset);
            time_went_back += now() < before;
            delay_lowered += offset < given;
        } else {
            sync();
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            sc_core::sc_time d = sc_core::SC_ZERO_TIME;
            m_response = false;
            const tlm::tlm_sync_enum st = socket->nb_transport_fw(t, ph, d);
            if (st == tlm::TLM_COMPLETED) {
                wait(d);
            } else {
                while (!m_response) wait(m_response_event);
                if (m_response_at > sc_core::sc_time_stamp()) wait(m_response_at - sc_core::sc_time_stamp());
            }
        }
        if (t.is_response_error()) ++error_responses;
        if (read && !(trap_on_error && t.is_response_error())) { // a trap leaves the register unwritten
            value = 0;
            std::memcpy(&value, data, len);
        }
        return t.get_response_status();
    }
    uint64_t load(uint64_t addr, unsigned len = 4) {
        uint64_t v = trap_on_error ? 0xbad0bad0 : 0; // what a trapped load leaves in its register
        last = access(true, addr, v, len);
        return v;
    }
    void store(uint64_t addr, uint64_t v, unsigned len = 4) { last = access(false, addr, v, len); }
    /// Local time (LT: simulation time plus the offset).
    sc_core::sc_time now() const { return sc_core::sc_time_stamp() + offset; }
    void compute(sc_core::sc_time t) {
        offset += t;
        if (m_at || offset > sc_core::sc_time(200, sc_core::SC_NS)) sync();
    }
    void sync() {
        wait(offset);
        offset = sc_core::SC_ZERO_TIME;
    }
    tlm::tlm_response_status last = tlm::TLM_OK_RESPONSE;
    unsigned time_went_back = 0; ///< LT accesses that returned before the hart's local time at the call
    unsigned delay_lowered = 0;  ///< LT accesses that returned a smaller delay than they were given
    unsigned error_responses = 0;

private:
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        if (ph == tlm::BEGIN_RESP) {
            m_response = true;
            m_response_at = sc_core::sc_time_stamp() + d;
            m_response_event.notify(d);
            return tlm::TLM_COMPLETED;
        }
        return tlm::TLM_ACCEPTED; // END_REQ
    }
    void run() {
        m_script(*this);
        sync();
        done = true;
    }
    bool m_at;
    Script m_script;
    bool m_response = false;
    sc_core::sc_time m_response_at;
    sc_core::sc_event m_response_event;
};

} // namespace syncron::test
