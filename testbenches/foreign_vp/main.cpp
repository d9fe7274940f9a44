// A foreign virtual platform: two clusters of two harts whose ISS, bus and
// memory behave as widely used third-party VPs do, one behaviour per case
// (docs/integration.md, "If your VP ..."):
//   streaming  the ISS leaves the streaming width 0 and the byte enables null
//   offsets    the bus passes each target the offset into its own mapping
//   quantum    the quantum keeper aborts when b_transport lowers its delay
//   memory     the RAM never sets the response status
//   trap       the ISS traps on every error response (the load's register
//              is not written) and software checks the STATUS codes it gets
//   amo        an amoswap on a command slot under the bus's global lock
//   all        all of them at once
// Each case sets the FabricParams option that accommodates its behaviour;
// with `bare` it sets none (the run must then fail, except for streaming,
// which needs no option). The harts take a lock around a shared counter, a
// semaphore, a condition variable and an across-units barrier. In `amo` and
// `all` one hart is then left waiting for good, which
// SyncronFabric::report_waiting() reports (the run exits non-zero).
//
//   foreign_vp streaming|offsets|quantum|memory|trap|amo|all [bare]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

constexpr unsigned kUnits = 2, kHartsPerUnit = 2, kHarts = kUnits * kHartsPerUnit, kRounds = 6;
constexpr uint64_t kWindows = 0x20000000;
constexpr uint64_t kRam = 0x40000000, kRamBytes = 4 << 20;
constexpr uint64_t kVars = kRam, kUnitVars = 1 << 20;
constexpr uint64_t kCounter = kRam + (2 << 20), kFlag = kCounter + 64;
const sc_time kQuantum(500, SC_NS), kRamLatency(25, SC_NS);

struct Quirks {
    bool zero_streaming = false; ///< streaming width 0, byte enables null
    bool port_offsets = false;   ///< the bus passes offsets into each target's mapping
    bool strict_quantum = false; ///< the quantum keeper aborts on a lowered delay
    bool silent_memory = false;  ///< the RAM never sets the response status
    bool trap = false;           ///< an error response traps
    bool amo = false;            ///< an amoswap on a command slot under the bus lock
};

/// Address decoder (b_transport and debug) with a global lock for AMOs:
/// while a hart holds it, the other harts' accesses wait.
class ForeignBus : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<ForeignBus, 64> in;
    tlm_utils::multi_passthrough_initiator_socket<ForeignBus, 64> out;

    ForeignBus(const sc_core::sc_module_name& n, bool offsets)
        : sc_module(n), in("in"), out("out"), m_offsets(offsets) {
        in.register_b_transport(this, &ForeignBus::b_transport);
        in.register_transport_dbg(this, &ForeignBus::transport_dbg);
    }
    void map(uint64_t begin, uint64_t end, int port) { m_map.push_back({begin, end, port}); }
    void lock(int hart) {
        wait_unlocked(hart);
        m_owner = hart;
    }
    void unlock() {
        m_owner = -1;
        m_unlocked.notify(sc_core::SC_ZERO_TIME);
    }

private:
    struct Range {
        uint64_t begin, end;
        int port;
    };
    void wait_unlocked(int id) {
        // Only the harts (bound first) are under the ISS's lock.
        while (id < static_cast<int>(kHarts) && m_owner >= 0 && m_owner != id) wait(m_unlocked);
    }
    int decode(tlm::tlm_generic_payload& t) const {
        for (const auto& r : m_map)
            if (t.get_address() >= r.begin && t.get_address() < r.end) {
                if (m_offsets) t.set_address(t.get_address() - r.begin);
                return r.port;
            }
        return -1;
    }
    void b_transport(int id, tlm::tlm_generic_payload& t, sc_time& d) {
        wait_unlocked(id);
        const int p = decode(t);
        if (p < 0) return t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        out[p]->b_transport(t, d);
    }
    unsigned transport_dbg(int, tlm::tlm_generic_payload& t) {
        const int p = decode(t);
        return p < 0 ? 0 : out[p]->transport_dbg(t);
    }
    bool m_offsets;
    std::vector<Range> m_map;
    int m_owner = -1;
    sc_core::sc_event m_unlocked;
};

/// RAM on one bus port, at its own offset 0 when the bus passes offsets.
class ForeignRam : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<ForeignRam, 64> socket;

    ForeignRam(const sc_core::sc_module_name& n, uint64_t base, bool sets_status)
        : sc_module(n), socket("socket"), m_base(base), m_sets_status(sets_status), m_bytes(kRamBytes, 0) {
        socket.register_b_transport(this, &ForeignRam::b_transport);
        socket.register_transport_dbg(this, &ForeignRam::transport_dbg);
    }
    uint64_t word(uint64_t abs) const {
        uint64_t v = 0;
        std::memcpy(&v, &m_bytes[abs - kRam], 8);
        return v;
    }

private:
    unsigned access(tlm::tlm_generic_payload& t) {
        const uint64_t a = t.get_address() - m_base, n = t.get_data_length();
        if (t.get_address() < m_base || a + n > kRamBytes) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return 0;
        }
        if (t.is_read()) std::memcpy(t.get_data_ptr(), &m_bytes[a], n);
        if (t.is_write()) std::memcpy(&m_bytes[a], t.get_data_ptr(), n);
        if (m_sets_status) t.set_response_status(tlm::TLM_OK_RESPONSE);
        return static_cast<unsigned>(n);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_time& d) {
        access(t);
        d += kRamLatency;
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) { return access(t); }
    uint64_t m_base;
    bool m_sets_status;
    std::vector<uint8_t> m_bytes;
};

/// What the harts share: how many hold the semaphore, the first failure.
struct Shared {
    unsigned in_sem = 0, max_in_sem = 0;
    std::string first_failure;
};

/// An LT hart as an ISS drives it: a local time offset synchronised every
/// quantum, plain payloads, Table 2 over its register window.
class ForeignHart : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<ForeignHart, 64> socket;
    unsigned failures = 0, traps = 0;
    bool finished = false;

    SC_HAS_PROCESS(ForeignHart);
    ForeignHart(const sc_core::sc_module_name& n, unsigned id, const Quirks& q, ForeignBus& bus, Shared& shared)
        : sc_module(n), socket("socket"), m_id(id), m_q(q), m_bus(bus), m_shared(shared) {
        SC_THREAD(program);
    }

private:
    /// False when the access trapped (its load register keeps its old value).
    bool transport(bool read, uint64_t addr, uint8_t* data, unsigned len) {
        tlm::tlm_generic_payload t;
        t.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(data);
        t.set_data_length(len);
        t.set_streaming_width(m_q.zero_streaming ? 0 : len);
        t.set_byte_enable_ptr(nullptr);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        const sc_time given = m_offset;
        socket->b_transport(t, m_offset);
        if (m_q.strict_quantum && m_offset < given) {
            std::fprintf(stderr, "%s: quantum keeper: b_transport returned %s, less than the %s it was given\n", name(),
                         m_offset.to_string().c_str(), given.to_string().c_str());
            std::abort();
        }
        if (m_offset >= kQuantum) {
            wait(m_offset);
            m_offset = sc_core::SC_ZERO_TIME;
        }
        if (t.get_response_status() < 0 && m_q.trap) { // an error response (the RAM may leave INCOMPLETE)
            ++traps;
            return false;
        }
        return true;
    }
    uint64_t load(uint64_t addr, unsigned len = 4) {
        uint8_t data[8] = {};
        uint64_t reg = 0xbad0bad0; // what the register held before
        if (transport(true, addr, data, len)) {
            reg = 0;
            std::memcpy(&reg, data, len);
        }
        return reg;
    }
    void store(uint64_t addr, uint64_t v, unsigned len = 4) {
        uint8_t data[8] = {};
        std::memcpy(data, &v, len);
        transport(false, addr, data, len);
    }
    /// amoswap.w: a load and a store under the bus's global lock, no payload extension.
    uint64_t amoswap(uint64_t addr, uint64_t v) {
        m_bus.lock(static_cast<int>(m_id));
        const uint64_t old = load(addr);
        store(addr, v);
        m_bus.unlock();
        return old;
    }

    // "Software": Table 2 over the register window (as syncron_mmio.h does).
    uint64_t window() const { return kWindows + uint64_t(m_id) * SYNCRON_MMIO_DEFAULT_WINDOW; }
    uint32_t sync(unsigned op, uint64_t var, uint64_t info = 0) {
        store(window() + SYNCRON_MMIO_VAR_LO, var, 8);
        store(window() + SYNCRON_MMIO_INFO_LO, info, 8);
        return static_cast<uint32_t>(load(window() + SYNCRON_MMIO_CMD(op)));
    }
    uint32_t async(unsigned op, uint64_t var) {
        store(window() + SYNCRON_MMIO_VAR_LO, var, 8);
        store(window() + SYNCRON_MMIO_CMD(op), 0);
        return static_cast<uint32_t>(load(window() + SYNCRON_MMIO_STATUS));
    }
    void expect(uint32_t got, uint32_t want, const char* what) {
        if (got == want) return;
        ++failures;
        if (m_shared.first_failure.empty())
            m_shared.first_failure = std::string(name()) + ": " + what + " returned " + std::to_string(got) +
                                     ", expected " + std::to_string(want);
    }
    void compute(sc_time t) { m_offset += t; }

    void program() {
        const uint64_t lock = kVars + 0x40, sem = kVars + 0x80, held = kVars + 0xc0, free_lock = kVars + 0x100;
        const uint64_t barrier = kVars + kUnitVars + 0x40, cond = kVars + kUnitVars + 0x80;
        const uint64_t cond_lock = kVars + kUnitVars + 0xc0;
        for (unsigned r = 0; r < kRounds; ++r) {
            expect(sync(SYNCRON_OP_LOCK_ACQUIRE, lock), SYNCRON_ST_OK, "lock_acquire");
            const uint64_t v = load(kCounter, 8);
            compute(sc_time(10 + 3 * m_id, SC_NS));
            store(kCounter, v + 1, 8);
            expect(async(SYNCRON_OP_LOCK_RELEASE, lock), SYNCRON_ST_OK, "lock_release");

            expect(sync(SYNCRON_OP_SEM_WAIT, sem, 2), SYNCRON_ST_OK, "sem_wait");
            m_shared.max_in_sem = std::max(m_shared.max_in_sem, ++m_shared.in_sem);
            wait(sc_time(50, SC_NS) + m_offset); // hold it while the others run
            m_offset = sc_core::SC_ZERO_TIME;
            --m_shared.in_sem;
            expect(async(SYNCRON_OP_SEM_POST, sem), SYNCRON_ST_OK, "sem_post");

            expect(sync(SYNCRON_OP_BARRIER_ACROSS_UNITS, barrier, kHarts), SYNCRON_ST_OK, "barrier_wait_across_units");
        }
        if (m_id == 0) { // failed calls return their STATUS code, trap or not
            expect(sync(SYNCRON_OP_LOCK_ACQUIRE, held), SYNCRON_ST_OK, "lock_acquire");
            expect(sync(SYNCRON_OP_LOCK_ACQUIRE, held), SYNCRON_ST_ALREADY_HELD, "second lock_acquire");
            expect(async(SYNCRON_OP_LOCK_RELEASE, free_lock), SYNCRON_ST_NOT_HELD, "lock_release of a free lock");
            expect(async(SYNCRON_OP_LOCK_RELEASE, held), SYNCRON_ST_OK, "lock_release");
        }
        // Condition variable: hart 0 sets the flag and broadcasts (Mesa: re-check).
        expect(sync(SYNCRON_OP_LOCK_ACQUIRE, cond_lock), SYNCRON_ST_OK, "lock_acquire");
        if (m_id == 0) {
            store(kFlag, 1, 8);
            expect(async(SYNCRON_OP_COND_BROADCAST, cond), SYNCRON_ST_OK, "cond_broadcast");
        } else {
            while (load(kFlag, 8) == 0) {
                expect(sync(SYNCRON_OP_COND_WAIT, cond, cond_lock), SYNCRON_ST_OK, "cond_wait");
                expect(sync(SYNCRON_OP_LOCK_ACQUIRE, cond_lock), SYNCRON_ST_OK, "lock_acquire after cond_wait");
            }
        }
        expect(async(SYNCRON_OP_LOCK_RELEASE, cond_lock), SYNCRON_ST_OK, "lock_release");
        expect(sync(SYNCRON_OP_BARRIER_ACROSS_UNITS, barrier, kHarts), SYNCRON_ST_OK, "barrier_wait_across_units");
        wait(m_offset);
        m_offset = sc_core::SC_ZERO_TIME;
        finished = true;
        if (!m_q.amo) return;
        // Hart 0 holds the lock; hart 1 swaps on its acquire slot under the
        // bus lock, so hart 0's release can never pass: both stay stuck.
        if (m_id == 0) {
            expect(sync(SYNCRON_OP_LOCK_ACQUIRE, lock), SYNCRON_ST_OK, "lock_acquire");
            wait(sc_time(200, SC_NS));
            async(SYNCRON_OP_LOCK_RELEASE, lock);
        } else if (m_id == 1) {
            store(window() + SYNCRON_MMIO_VAR_LO, lock, 8);
            wait(sc_time(100, SC_NS));
            amoswap(window() + SYNCRON_MMIO_CMD(SYNCRON_OP_LOCK_ACQUIRE), 1);
        }
    }

    unsigned m_id;
    Quirks m_q;
    ForeignBus& m_bus;
    Shared& m_shared;
    sc_time m_offset;
};

bool quirks_of(const std::string& c, Quirks& q) {
    const bool all = c == "all";
    q.zero_streaming = all || c == "streaming";
    q.port_offsets = all || c == "offsets";
    q.strict_quantum = all || c == "quantum";
    q.silent_memory = all || c == "memory";
    q.trap = all || c == "trap";
    q.amo = all || c == "amo";
    return all || q.zero_streaming || q.port_offsets || q.strict_quantum || q.silent_memory || q.trap || q.amo;
}

} // namespace

int sc_main(int argc, char* argv[]) {
    Quirks q;
    const std::string which = argc > 1 ? argv[1] : "";
    const bool bare = argc > 2 && std::string(argv[2]) == "bare";
    if (!quirks_of(which, q) || (argc > 2 && !bare)) {
        std::fprintf(stderr, "usage: %s streaming|offsets|quantum|memory|trap|amo|all [bare]\n", argv[0]);
        return 2;
    }
    ForeignBus bus("bus", q.port_offsets);
    ForeignRam ram("ram", q.port_offsets ? 0 : kRam, !q.silent_memory);
    Shared shared;
    std::vector<std::unique_ptr<ForeignHart>> harts;
    for (unsigned h = 0; h < kHarts; ++h) {
        harts.push_back(std::make_unique<ForeignHart>(("hart" + std::to_string(h)).c_str(), h, q, bus, shared));
        harts.back()->socket.bind(bus.in); // bus port h: the harts are bound first
    }

    syncron::FabricParams p;
    p.units = kUnits;
    p.harts_per_unit = kHartsPerUnit;
    p.window_base = kWindows;
    p.vars.var_base = kVars;
    p.vars.unit_bytes = kUnitVars;
    p.se.st_entries = 2; // small: the overflow path into the RAM runs too
    if (!bare) {
        p.port_offsets = q.port_offsets;
        p.monotonic_delay = q.strict_quantum;
        p.se.accept_incomplete_response = q.silent_memory;
        p.error_responses = !q.trap;
    }
    syncron::SyncronFabric<64> fabric("syncron", p);
    for (unsigned u = 0; u < kUnits; ++u) {
        bus.out.bind(fabric.frontend(u).socket);
        bus.map(fabric.unit_window_begin(u), fabric.unit_window_end(u), static_cast<int>(u));
        fabric.overflow(u).bind(bus.in);
    }
    bus.out.bind(ram.socket);
    bus.map(kRam, kRam + kRamBytes, kUnits);

    sc_core::sc_start();

    unsigned failures = 0, traps = 0, unfinished = 0;
    for (const auto& h : harts) {
        failures += h->failures;
        traps += h->traps;
        unfinished += !h->finished;
    }
    const uint64_t counter = ram.word(kCounter);
    std::printf("%s%s: counter %llu (expected %u), semaphore held by at most %u, %u failed calls, %u traps, "
                "%u unfinished, %s simulated\n",
                which.c_str(), bare ? " bare" : "", static_cast<unsigned long long>(counter), kHarts * kRounds,
                shared.max_in_sem, failures, traps, unfinished, sc_core::sc_time_stamp().to_string().c_str());
    if (!shared.first_failure.empty()) std::printf("first failure: %s\n", shared.first_failure.c_str());
    const bool ok =
        counter == kHarts * kRounds && shared.max_in_sem <= 2 && failures == 0 && traps == 0 && unfinished == 0;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    std::fflush(stdout);
    fabric.report_waiting(); // a hart still waiting for a grant is an error: it throws
    return ok ? 0 : 1;
}
