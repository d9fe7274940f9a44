// A small virtual platform with SynCron added in a few lines. What the
// platform already had: harts (here SC_THREADs standing in for an ISS) that
// issue plain loads and stores, a bus with address decoding, and plain
// memory. What SynCron adds: one SyncronFabric, its front ends mapped on the
// bus, its overflow sockets bound to the memory. The harts know nothing but
// the register map of <syncron/syncron_mmio_regs.h>, as software would.
// The bus sockets are 32 bits wide (64-bit harts on a 32-bit bus, as many
// rv64 VPs have): BUSWIDTH is the sockets' width, so SyncronFabric<32>.
//
//   vp_example lt|at [check]   (the harts' bus protocol: b_transport or
//                               4-phase; `check` puts the project's base-
//                               protocol checker on every bus master's binding)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <syncron/syncron_mmio_regs.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/frontend/syncron_fabric.h"
#include "models/tlm/protocol_checker.h"

namespace {

constexpr unsigned kBusWidth = 32; // the bus sockets' width, not the ISA's
constexpr unsigned kClusters = 2, kHartsPerCluster = 4, kHarts = kClusters * kHartsPerCluster, kRounds = 10;
constexpr uint64_t kSyncronBase = 0x10000000; // the fabric's register windows
constexpr uint64_t kRam = 0x80000000, kRamBytes = 4 << 20;
constexpr uint64_t kSyncVars = kRam;            // 1 MiB of variables per cluster
constexpr uint64_t kCounter = kRam + (2 << 20); // shared data
constexpr uint64_t kPhases = kCounter + 64;     // one word per hart
const sc_core::sc_time kRamLatency(30, sc_core::SC_NS);

// ------------------------------------------------------------ the platform's own parts

/// Address-decoding bus, b_transport, 4-phase and debug.
class Bus : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<Bus, kBusWidth> in;     ///< harts and the fabric's overflow sockets
    tlm_utils::multi_passthrough_initiator_socket<Bus, kBusWidth> out; ///< front ends and the RAM
    explicit Bus(const sc_core::sc_module_name& n) : sc_module(n), in("in"), out("out") {
        in.register_b_transport(this, &Bus::b_transport);
        in.register_nb_transport_fw(this, &Bus::nb_transport_fw);
        in.register_transport_dbg(this, &Bus::transport_dbg);
        out.register_nb_transport_bw(this, &Bus::nb_transport_bw);
    }
    /// [begin, end) to output `port`: half-open, as the fabric's window ranges.
    void map(uint64_t begin, uint64_t end, int port) { m_map.push_back({begin, end, port}); }

private:
    struct Range {
        uint64_t begin, end;
        int port;
    };
    int decode(uint64_t a) const {
        for (const auto& r : m_map)
            if (a >= r.begin && a < r.end) return r.port;
        return -1;
    }
    void b_transport(int, tlm::tlm_generic_payload& t, sc_core::sc_time& d) {
        const int p = decode(t.get_address());
        if (p < 0) return t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        out[p]->b_transport(t, d);
    }
    tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        if (ph == tlm::BEGIN_REQ) m_route[&t] = {id, decode(t.get_address())};
        const int p = m_route[&t].second;
        if (p < 0) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return tlm::TLM_COMPLETED;
        }
        return out[p]->nb_transport_fw(t, ph, d);
    }
    tlm::tlm_sync_enum nb_transport_bw(int, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return in[m_route.at(&t).first]->nb_transport_bw(t, ph, d);
    }
    unsigned transport_dbg(int, tlm::tlm_generic_payload& t) {
        const int p = decode(t.get_address());
        return p < 0 ? 0 : out[p]->transport_dbg(t);
    }
    std::vector<Range> m_map;
    std::map<const tlm::tlm_generic_payload*, std::pair<int, int>> m_route;
};

/// Plain RAM on one bus port; AT requests complete early.
class Ram : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<Ram, kBusWidth> socket;
    explicit Ram(const sc_core::sc_module_name& n) : sc_module(n), socket("socket"), m_bytes(kRamBytes, 0) {
        socket.register_b_transport(this, &Ram::b_transport);
        socket.register_nb_transport_fw(this, &Ram::nb_transport_fw);
        socket.register_transport_dbg(this, &Ram::transport_dbg);
    }
    uint64_t word(uint64_t a) const {
        uint64_t v = 0;
        std::memcpy(&v, &m_bytes[a - kRam], 8);
        return v;
    }

private:
    unsigned access(tlm::tlm_generic_payload& t) {
        const uint64_t a = t.get_address(), n = t.get_data_length();
        if (a < kRam || a + n > kRam + kRamBytes) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return 0;
        }
        if (t.is_read()) std::memcpy(t.get_data_ptr(), &m_bytes[a - kRam], n);
        if (t.is_write()) std::memcpy(&m_bytes[a - kRam], t.get_data_ptr(), n);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        return static_cast<unsigned>(n);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) {
        access(t);
        d += kRamLatency;
    }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        if (ph == tlm::BEGIN_REQ) {
            access(t);
            d += kRamLatency;
        }
        return tlm::TLM_COMPLETED;
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) { return access(t); }
    std::vector<uint8_t> m_bytes;
};

/// Payloads with a memory manager, reused from a free list: a payload passed
/// to nb_transport must have one (IEEE 1666-2011 §14.5).
class PayloadPool : public tlm::tlm_mm_interface {
public:
    tlm::tlm_generic_payload& acquire() {
        if (m_free.empty()) {
            m_all.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
            m_free.push_back(m_all.back().get());
        }
        tlm::tlm_generic_payload* t = m_free.back();
        m_free.pop_back();
        t->acquire();
        return *t;
    }
    void free(tlm::tlm_generic_payload* t) override {
        t->reset(); // drops extensions; the data pointer was the caller's
        m_free.push_back(t);
    }

private:
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> m_all;
    std::vector<tlm::tlm_generic_payload*> m_free;
};

/// Stands in for an ISS hart: plain 32/64-bit loads and stores, LT with a
/// local time offset or AT with the 4-phase protocol.
class Hart : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<Hart, kBusWidth> socket;
    SC_HAS_PROCESS(Hart);
    Hart(const sc_core::sc_module_name& n, unsigned id, bool at) : sc_module(n), socket("socket"), m_id(id), m_at(at) {
        socket.register_nb_transport_bw(this, &Hart::nb_transport_bw);
        SC_THREAD(program);
    }
    unsigned errors = 0;
    bool finished = false;

private:
    uint64_t access(bool read, uint64_t addr, uint64_t value, unsigned len) {
        uint8_t data[8] = {};
        std::memcpy(data, &value, len);
        tlm::tlm_generic_payload& t = m_pool.acquire();
        t.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(data);
        t.set_data_length(len);
        t.set_streaming_width(len);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        if (m_at) {
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            sc_core::sc_time d = sc_core::SC_ZERO_TIME;
            m_done = false;
            if (socket->nb_transport_fw(t, ph, d) == tlm::TLM_COMPLETED) {
                wait(d);
            } else {
                while (!m_done) wait(m_done_event);
            }
        } else {
            socket->b_transport(t, m_offset);
            if (m_offset > sc_core::sc_time(100, sc_core::SC_NS)) { // the hart's quantum
                wait(m_offset);
                m_offset = sc_core::SC_ZERO_TIME;
            }
        }
        if (t.is_response_error()) ++errors;
        t.release(); // completed: back to the pool
        uint64_t out = 0;
        std::memcpy(&out, data, len);
        return out;
    }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        if (ph == tlm::BEGIN_RESP) {
            m_done = true;
            m_done_event.notify(d);
            return tlm::TLM_COMPLETED;
        }
        return tlm::TLM_ACCEPTED;
    }

    // "Software": Table 2 over the register window.
    uint64_t window() const { return kSyncronBase + uint64_t(m_id) * SYNCRON_MMIO_DEFAULT_WINDOW; }
    uint32_t sync(unsigned op, uint64_t var, uint64_t info) {
        access(false, window() + SYNCRON_MMIO_VAR_LO, var, 8);
        access(false, window() + SYNCRON_MMIO_INFO_LO, info, 8);
        return static_cast<uint32_t>(access(true, window() + SYNCRON_MMIO_CMD(op), 0, 4));
    }
    void async(unsigned op, uint64_t var) {
        access(false, window() + SYNCRON_MMIO_VAR_LO, var, 8);
        access(false, window() + SYNCRON_MMIO_CMD(op), 0, 4);
    }

    void program() {
        const uint64_t lock = kSyncVars + 0x40, barrier = kSyncVars + (1 << 20) + 0x40, sem = kSyncVars + 0x80;
        for (unsigned r = 0; r < kRounds; ++r) {
            sync(SYNCRON_OP_LOCK_ACQUIRE, lock, 0);
            const uint64_t v = access(true, kCounter, 0, 8);
            access(false, kCounter, v + 1, 8);
            async(SYNCRON_OP_LOCK_RELEASE, lock);

            sync(SYNCRON_OP_SEM_WAIT, sem, 2);
            access(true, kCounter + 8, 0, 8);
            async(SYNCRON_OP_SEM_POST, sem);

            // Publish the phase, meet everyone, check nobody is behind.
            access(false, kPhases + 8 * m_id, r + 1, 8);
            sync(SYNCRON_OP_BARRIER_ACROSS_UNITS, barrier, kHarts);
            for (unsigned h = 0; h < kHarts; ++h)
                if (access(true, kPhases + 8 * h, 0, 8) < r + 1) ++errors;
            sync(SYNCRON_OP_BARRIER_ACROSS_UNITS, barrier, kHarts); // nobody moves on before all checked
        }
        if (!m_at) wait(m_offset);
        finished = true;
    }

    unsigned m_id;
    bool m_at;
    PayloadPool m_pool;
    sc_core::sc_time m_offset;
    bool m_done = false;
    sc_core::sc_event m_done_event;
};

} // namespace

int sc_main(int argc, char* argv[]) {
    const std::string timing = argc > 1 ? argv[1] : "lt";
    const bool check = argc > 2 && std::string(argv[2]) == "check";
    if ((timing != "lt" && timing != "at") || (argc > 2 && !check)) {
        std::fprintf(stderr, "usage: %s lt|at [check]\n", argv[0]);
        return 2;
    }
    const bool at = timing == "at";
    Bus bus("bus");
    Ram ram("ram");
    // Every bus master binds to the bus, through a base-protocol checker
    // with `check`.
    std::vector<std::unique_ptr<syncron::ProtocolChecker>> checkers;
    const auto to_bus = [&](auto& initiator, const std::string& name) {
        if (!check) return initiator.bind(bus.in);
        checkers.push_back(std::make_unique<syncron::ProtocolChecker>((name + "_check").c_str()));
        initiator.bind(checkers.back()->target);
        checkers.back()->initiator.bind(bus.in);
    };
    std::vector<std::unique_ptr<Hart>> harts;
    for (unsigned h = 0; h < kHarts; ++h) {
        harts.push_back(std::make_unique<Hart>(("hart" + std::to_string(h)).c_str(), h, at));
        to_bus(harts.back()->socket, "hart" + std::to_string(h));
    }

    // --- SynCron: one fabric, one front end per cluster on the bus, the
    // overflow sockets as bus masters (the bus routes the variables'
    // addresses to the RAM that holds them).
    syncron::FabricParams p;
    p.units = kClusters;
    p.harts_per_unit = kHartsPerCluster;
    p.window_base = kSyncronBase;
    p.vars.var_base = kSyncVars;
    p.vars.unit_bytes = 1 << 20;
    p.timing = at ? syncron::Timing::at : syncron::Timing::lt;
    p.se.st_entries = 2; // small, so the run also exercises the overflow path into the RAM
    syncron::SyncronFabric<kBusWidth> fabric("syncron", p);
    for (unsigned u = 0; u < kClusters; ++u) {
        bus.out.bind(fabric.frontend(u).socket);
        bus.map(fabric.unit_window_begin(u), fabric.unit_window_end(u), static_cast<int>(u));
        to_bus(fabric.overflow(u), "overflow" + std::to_string(u));
    }
    // ---

    bus.out.bind(ram.socket);
    bus.map(kRam, kRam + kRamBytes, kClusters);

    sc_core::sc_start();
    fabric.report_waiting(); // a hart still waiting for a grant is an error (it throws)

    unsigned errors = 0, unfinished = 0;
    for (const auto& h : harts) {
        errors += h->errors;
        unfinished += !h->finished;
    }
    const uint64_t counter = ram.word(kCounter);
    std::printf("%s: %u harts, counter %llu (expected %u), %u errors, %u unfinished, %s simulated\n", timing.c_str(),
                kHarts, static_cast<unsigned long long>(counter), kHarts * kRounds, errors, unfinished,
                sc_core::sc_time_stamp().to_string().c_str());
    uint64_t checked = 0, violations = 0;
    for (const auto& c : checkers) {
        checked += c->nb_transactions() + c->b_transports();
        violations += c->violations();
    }
    if (check)
        std::printf("%s: base-protocol checker: %llu transactions, %llu violations\n", timing.c_str(),
                    static_cast<unsigned long long>(checked), static_cast<unsigned long long>(violations));
    const bool ok = counter == kHarts * kRounds && errors == 0 && unfinished == 0 && violations == 0;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
