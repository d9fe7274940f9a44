// Vault controller atomics (docs/vault_controller.md, "Atomics"): cas, swap
// and faa carried by an AtomicExtension on a TLM_WRITE_COMMAND, in the LT and
// AT paths, errors, debug transport, and through crossbar + link. Each
// TEST_CASE elaborates its own design and calls sc_start once (ctest runs every
// case in its own process); scripts record what they saw and the test asserts
// after sc_start returns.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/interconnect/crossbar.h"
#include "models/interconnect/link.h"
#include "models/interconnect/router.h"
#include "models/memory/backing_store.h"
#include "models/memory/vault_controller.h"
#include "models/protocol/tlm/atomic_extension.h"
#include "models/tlm/protocol_checker.h"
#include "models/tlm/trace_sink.h"
#include "testbenches/tests/at_script_initiator.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using syncron::test::ns;
using syncron::test::ScriptInitiator;
using AtInitiator = syncron::test::AtScriptInitiator;

namespace {

/// Address of (unit, vault, bank, slot) under the default interleaving; slots
/// 0..31 of a bank share row 0 (2 KiB rows of 64 B granules), slot 32 is row 1.
uint64_t addr_of(const AddressMap& map, const MemoryParams& p, unsigned unit, unsigned vault, unsigned bank,
                 uint64_t slot = 0) {
    return map.unit_base(unit) + ((slot * p.banks_per_vault + bank) * p.vaults_per_unit + vault) * p.interleave_bytes;
}

uint64_t load_le(const uint8_t* p, unsigned len) {
    uint64_t v = 0;
    for (unsigned i = std::min(len, 8u); i-- > 0;) v = (v << 8) | p[i];
    return v;
}
std::vector<uint8_t> le(uint64_t v, unsigned len) {
    std::vector<uint8_t> b(len);
    for (unsigned i = 0; i < len; ++i, v >>= 8) b[i] = static_cast<uint8_t>(v);
    return b;
}
void poke(BackingStore& s, uint64_t addr, uint64_t v, unsigned len) {
    const auto b = le(v, len);
    s.write(addr, b.data(), len);
}
uint64_t peek(const BackingStore& s, uint64_t addr, unsigned len) {
    uint8_t b[8] = {};
    s.read(addr, b, len);
    return load_le(b, len);
}
std::vector<uint8_t> bytes_at(const BackingStore& s, uint64_t addr, size_t n) {
    std::vector<uint8_t> b(n);
    s.read(addr, b.data(), n);
    return b;
}

/// One atomic (or malformed atomic) request for the blocking/debug helpers.
struct AtomicReq {
    AtomicOp op = AtomicOp::faa;
    uint64_t addr = 0;
    unsigned len = 8;
    uint64_t operand = 0;
    uint64_t compare = 0;
    tlm::tlm_command cmd = tlm::TLM_WRITE_COMMAND;
    bool byte_enables = false;
    unsigned streaming_width = 0;  ///< 0: the data length
    bool performed_before = false; ///< the extension's flag before the call
};
struct AtomicResult {
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    uint64_t old = 0; ///< first min(len, 8) bytes of the buffer after the call
    bool performed = false;
    std::array<uint8_t, 32> buf{};  ///< the whole data buffer after the call
    std::array<uint8_t, 32> sent{}; ///< ... and before it
    unsigned debug_bytes = 0;
};
constexpr uint8_t kFill = 0xEE; // buffer bytes past the operand

enum class Via { blocking, debug };

/// Builds the payload with an AtomicExtension on the stack and sends it
/// through `socket` (b_transport or transport_dbg).
template <class Socket>
AtomicResult run_atomic(Socket& socket, const AtomicReq& r, sc_time& delay, Via via = Via::blocking) {
    AtomicResult res;
    res.buf.fill(kFill);
    const auto op_bytes = le(r.operand, std::min(r.len, 8u));
    std::copy(op_bytes.begin(), op_bytes.end(), res.buf.begin());
    res.sent = res.buf;
    std::array<uint8_t, 32> enables;
    enables.fill(0xFF);
    AtomicExtension ext(r.op, r.compare);
    ext.performed = r.performed_before;
    tlm::tlm_generic_payload t;
    t.set_command(r.cmd);
    t.set_address(r.addr);
    t.set_data_ptr(res.buf.data());
    t.set_data_length(r.len);
    t.set_streaming_width(r.streaming_width ? r.streaming_width : r.len);
    if (r.byte_enables) {
        t.set_byte_enable_ptr(enables.data());
        t.set_byte_enable_length(r.len);
    }
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_extension(&ext);
    if (via == Via::blocking)
        socket->b_transport(t, delay);
    else
        res.debug_bytes = socket->transport_dbg(t);
    t.clear_extension(&ext); // ours, on the stack: the payload must not free it
    res.status = t.get_response_status();
    res.old = ext.old_value;
    res.performed = ext.performed;
    return res;
}

/// Pass-through on one binding (LT and AT). It can attach an AtomicExtension
/// to the next BEGIN_REQ (arm() right before AtScriptInitiator::issue(), which
/// has no extension hook), and it records, per BEGIN_REQ / b_transport in
/// order (= the AtScriptInitiator's transaction ids), the extension it saw on
/// the way in and the data on the way back (the AtScriptInitiator keeps read
/// data only).
class AtomicTap : public sc_core::sc_module {
public:
    struct Seen {
        bool atomic = false; ///< an AtomicExtension was on the request
        AtomicOp op = AtomicOp::faa;
        uint64_t compare = 0;
        bool responded = false;
        uint64_t old = 0; ///< data (little-endian) at BEGIN_RESP / return
        bool performed = false;
        tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    };

    tlm_utils::simple_target_socket<AtomicTap> in;
    tlm_utils::simple_initiator_socket<AtomicTap> out;
    std::vector<Seen> seen;

    explicit AtomicTap(const sc_core::sc_module_name& n) : sc_module(n), in("in"), out("out") {
        in.register_nb_transport_fw(this, &AtomicTap::nb_transport_fw);
        in.register_b_transport(this, &AtomicTap::b_transport);
        in.register_transport_dbg(this, &AtomicTap::transport_dbg);
        in.register_get_direct_mem_ptr(this, &AtomicTap::get_direct_mem_ptr);
        out.register_nb_transport_bw(this, &AtomicTap::nb_transport_bw);
    }

    /// The next BEGIN_REQ gets this extension (freed with the pooled payload).
    void arm(AtomicOp op, uint64_t compare = 0, bool performed_before = false) {
        m_armed = AtomicExtension(op, compare);
        m_armed.performed = performed_before;
        m_is_armed = true;
    }

private:
    void note(tlm::tlm_generic_payload& t) {
        m_ids[&t] = seen.size();
        seen.emplace_back();
        if (const AtomicExtension* e = t.get_extension<AtomicExtension>()) {
            seen.back().atomic = true;
            seen.back().op = e->op;
            seen.back().compare = e->compare;
        }
    }
    void responded(tlm::tlm_generic_payload& t) {
        auto it = m_ids.find(&t);
        if (it == m_ids.end()) return;
        Seen& s = seen[it->second];
        m_ids.erase(it);
        s.responded = true;
        s.status = t.get_response_status();
        if (const AtomicExtension* e = t.get_extension<AtomicExtension>()) {
            s.performed = e->performed;
            s.old = e->old_value;
        }
    }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
        if (ph == tlm::BEGIN_REQ) {
            if (m_is_armed) {
                t.set_auto_extension(new AtomicExtension(m_armed));
                m_is_armed = false;
            }
            note(t);
        }
        const tlm::tlm_sync_enum s = out->nb_transport_fw(t, ph, d);
        if ((s == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP) || (s == tlm::TLM_COMPLETED && ph == tlm::BEGIN_REQ))
            responded(t);
        return s;
    }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
        if (ph == tlm::BEGIN_RESP) responded(t); // before the initiator may release it
        return in->nb_transport_bw(t, ph, d);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_time& d) {
        note(t);
        out->b_transport(t, d);
        responded(t);
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) { return out->transport_dbg(t); }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) { return out->get_direct_mem_ptr(t, dmi); }

    AtomicExtension m_armed;
    bool m_is_armed = false;
    std::unordered_map<const tlm::tlm_generic_payload*, size_t> m_ids;
};

/// Counts and continues (the default SC_ERROR action throws).
struct CountingChecker : ProtocolChecker {
    explicit CountingChecker(const sc_core::sc_module_name& n) : ProtocolChecker(n) {
        ProtocolChecker::set_actions(sc_core::SC_ERROR, sc_core::SC_DO_NOTHING);
    }
    /// Violations other than payload_modified.
    uint64_t other_violations() const { return violations() - violations(Rule::payload_modified); }
};

class AllToZero : public Router {
public:
    int route(uint64_t) const override { return 0; }
};

/// Records the AT queue-depth probe of the vault.
struct QueueSink : TraceSink {
    std::vector<unsigned> depths;
    void on_queue(const QueueRecord& r) override { depths.push_back(r.depth); }
};

/// LT: one vault of unit 0 (vault 0) driven by a script, named by `prefix`
/// so several benches (with different parameters) fit one elaboration.
struct LtBench {
    MemoryParams params;
    AddressMap map;
    BackingStore store;
    VaultController vault;
    ScriptInitiator init;

    LtBench(const std::string& prefix, ScriptInitiator::Script script, const MemoryParams& p = MemoryParams(),
            unsigned unit = 0, unsigned vault_index = 0)
        : params(p), map(4, 16, params), vault((prefix + "_vault").c_str(), unit, vault_index, params, map, store),
          init((prefix + "_init").c_str(), std::move(script)) {
        init.socket.bind(vault.socket);
    }
};

/// AT: initiator -> tap -> checker -> vault 0 of unit 0.
struct AtBench {
    MemoryParams params;
    AddressMap map;
    BackingStore store;
    VaultController vault;
    AtInitiator init;
    AtomicTap tap;
    CountingChecker checker;

    AtBench(const std::string& prefix, AtInitiator::Script script, const MemoryParams& p = MemoryParams())
        : params(p), map(4, 16, params), vault((prefix + "_vault").c_str(), 0, 0, params, map, store),
          init((prefix + "_init").c_str(), std::move(script)), tap((prefix + "_tap").c_str()),
          checker((prefix + "_check").c_str()) {
        init.socket.bind(tap.in);
        tap.out.bind(checker.target);
        checker.initiator.bind(vault.socket);
    }
    /// An atomic through the tap, waiting for its response.
    size_t transact(AtInitiator& i, AtomicOp op, uint64_t addr, unsigned len, uint64_t operand, uint64_t cmp = 0) {
        tap.arm(op, cmp);
        const size_t id = i.issue(tlm::TLM_WRITE_COMMAND, addr, le(operand, len));
        i.wait_done(id);
        return id;
    }
};

/// Fixed pipeline part of a link's latency (latency_ns includes one 64 B line).
double link_fixed_ns(const LinkParams& p) { return std::max(0.0, p.latency_ns - 64 / p.bandwidth_gbps); }

} // namespace

// ---------------------------------------------------------------- functional (LT)

TEST_CASE("memory: atomics: cas, swap and faa at 4 and 8 bytes return the old value and update memory",
          "[memory][atomics]") {
    struct Case {
        AtomicOp op;
        unsigned len;
        uint64_t init;
        uint64_t operand;
        uint64_t compare;
        uint64_t want; ///< memory afterwards
        bool preload;  ///< false: never written memory (reads zero)
    };
    const std::vector<Case> cases = {
        {AtomicOp::faa, 8, 100, 23, 0, 123, true},
        {AtomicOp::faa, 8, 0xFFFFFFFFFFFFFFFEull, 5, 0, 3, true}, // wraps at 64 bits
        {AtomicOp::faa, 4, 7, 0xFFFFFFFFull, 0, 6, true},         // + (-1) at 32 bits
        {AtomicOp::faa, 4, 0xFFFFFFF0ull, 0x20, 0, 0x10, true},   // wraps at 32 bits, no carry out
        {AtomicOp::swap, 8, 0x1122334455667788ull, 0x99AABBCCDDEEFF00ull, 0, 0x99AABBCCDDEEFF00ull, true},
        {AtomicOp::swap, 4, 0x11223344, 0xCAFEF00D, 0, 0xCAFEF00D, true},
        {AtomicOp::cas, 8, 42, 77, 42, 77, true},                       // success
        {AtomicOp::cas, 8, 42, 77, 41, 42, true},                       // failure
        {AtomicOp::cas, 8, 0x100000005ull, 9, 5, 0x100000005ull, true}, // low half equal only: failure
        {AtomicOp::cas, 4, 5, 9, 0xFFFFFFFF00000005ull, 9, true},       // compared at 32 bits: success
        {AtomicOp::cas, 4, 5, 9, 6, 5, true},                           // failure
        {AtomicOp::cas, 8, 0, 1, 0, 1, false},                          // untouched memory is zero
        {AtomicOp::faa, 4, 0, 0xABCD, 0, 0xABCD, false},
    };
    const uint64_t sentinel = 0xA5A5A5A5A5A5A5A5ull;
    std::vector<AtomicResult> got(cases.size());
    std::vector<uint64_t> addrs;
    MemoryParams p;
    AddressMap m(4, 16, p);
    for (size_t k = 0; k < cases.size(); ++k) addrs.push_back(addr_of(m, p, 0, 0, k % 16, 1 + k / 16));
    LtBench b("b", [&](ScriptInitiator& i) {
        for (size_t k = 0; k < cases.size(); ++k) {
            sc_time d;
            got[k] = run_atomic(i.socket, {cases[k].op, addrs[k], cases[k].len, cases[k].operand, cases[k].compare}, d);
        }
    });
    for (size_t k = 0; k < cases.size(); ++k) {
        if (!cases[k].preload) continue;
        poke(b.store, addrs[k], cases[k].init, cases[k].len);
        poke(b.store, addrs[k] + cases[k].len, sentinel, 8); // the bytes right after the word
    }
    sc_core::sc_start();

    REQUIRE(b.init.done());
    uint64_t failures = 0, bytes = 0;
    for (size_t k = 0; k < cases.size(); ++k) {
        const Case& c = cases[k];
        INFO("case " << k << ": " << to_string(c.op) << " " << c.len << " B");
        CHECK(got[k].status == tlm::TLM_OK_RESPONSE);
        CHECK(got[k].performed);
        CHECK(got[k].old == c.init);
        CHECK(peek(b.store, addrs[k], c.len) == c.want);
        if (c.preload) CHECK(peek(b.store, addrs[k] + c.len, 8) == sentinel);
        // The old value comes back in the extension; the WRITE's buffer is the
        // initiator's and returns exactly as sent (IEEE 1666-2011 §14.7).
        CHECK(got[k].buf == got[k].sent);
        if (c.op == AtomicOp::cas && c.want == c.init && c.operand != c.init) ++failures;
        bytes += c.len;
    }
    CHECK(failures == 3);
    CHECK(b.vault.cas_failures() == failures);
    CHECK(b.vault.atomics(AtomicOp::faa) == 5);
    CHECK(b.vault.atomics(AtomicOp::swap) == 2);
    CHECK(b.vault.atomics(AtomicOp::cas) == 6);
    CHECK(b.vault.atomics() == cases.size());
    // An atomic is one read and one write of its length.
    CHECK(b.vault.reads() == cases.size());
    CHECK(b.vault.writes() == cases.size());
    CHECK(b.vault.bytes_read() == bytes);
    CHECK(b.vault.bytes_written() == bytes);
    CHECK(b.vault.row_misses() == cases.size());
    CHECK(b.vault.errors() == 0);
    b.vault.reset_stats();
    CHECK(b.vault.atomics() == 0);
    CHECK(b.vault.cas_failures() == 0);
}

// ---------------------------------------------------------------- LT timing

TEST_CASE("memory: atomics: LT latency is tRCD + tCL + tBurst + t_alu + tBurst, the bank busy until tWR + tRP",
          "[memory][atomics][timing]") {
    // Default parameters, and a set where tRAS dominates the occupancy and
    // t_alu is not the default (the formula must use the parameters).
    MemoryParams slow;
    slow.t_alu_ns = 2.5;
    slow.t_ras_ns = 120;
    slow.t_burst_ns = 3.2;
    struct Seen {
        sc_time d8, d4, d_later, now_after;
    };
    Seen a, s;
    auto script = [](Seen& out, const MemoryParams& p) {
        return [&out, p](ScriptInitiator& i) {
            const AddressMap m(4, 16, p);
            sc_time d;
            run_atomic(i.socket, {AtomicOp::faa, addr_of(m, p, 0, 0, 0), 8, 1}, d);
            out.d8 = d;
            d = SC_ZERO_TIME;
            run_atomic(i.socket, {AtomicOp::swap, addr_of(m, p, 0, 0, 1) + 4, 4, 1}, d);
            out.d4 = d;
            d = ns(1000); // from its own effective time
            run_atomic(i.socket, {AtomicOp::cas, addr_of(m, p, 0, 0, 2), 8, 1}, d);
            out.d_later = d;
            out.now_after = sc_core::sc_time_stamp();
        };
    };
    LtBench def("def", script(a, MemoryParams()));
    LtBench sl("slow", script(s, slow), slow);
    sc_core::sc_start();

    for (auto [bench, seen] : {std::pair<LtBench*, Seen*>{&def, &a}, {&sl, &s}}) {
        const MemoryParams& p = bench->params;
        const VaultController& v = bench->vault;
        const sc_time lat = ns(p.t_rcd_ns + p.t_cl_ns + p.t_burst_ns + p.t_alu_ns + p.t_burst_ns);
        const sc_time occ =
            ns(std::max(p.t_ras_ns, p.t_rcd_ns + p.t_cl_ns + 2 * p.t_burst_ns + p.t_alu_ns + p.t_wr_ns) + p.t_rp_ns);
        INFO(v.name());
        CHECK(seen->d8 == lat);
        CHECK(seen->d4 == lat); // one burst either way
        CHECK(seen->d_later == ns(1000) + lat);
        CHECK(seen->now_after == SC_ZERO_TIME); // the target never waits
        CHECK(v.atomic_latency(8) == lat);
        CHECK(v.atomic_latency(4) == lat);
        CHECK(v.atomic_bank_occupancy(8) == occ);
        CHECK(v.bank_timeline(0).busy_time() == occ);
        CHECK(v.bank_busy_until(2) == ns(1000) + occ);
        CHECK(v.atomic_row_latency(VaultController::RowOutcome::hit, 8) == lat - ns(p.t_rcd_ns));
        CHECK(v.atomic_row_latency(VaultController::RowOutcome::conflict, 8) == lat + ns(p.t_rp_ns));
        CHECK(v.atomic_column_to_precharge(8) == v.atomic_column_latency(8) + ns(p.t_wr_ns));
        CHECK(v.total_latency() == 3 * lat);
        CHECK(v.bank_conflicts() == 0);
    }
    // The defaults: 17 + 17 + 6.4 + 0.8 + 6.4 = 47.6 ns, busy 17 + 17 + 6.4 + 0.8 + 6.4 + 19 + 17 = 83.6 ns.
    CHECK(a.d8 == ns(47.6));
    CHECK(def.vault.atomic_bank_occupancy(8) == ns(83.6));
    // tRAS longer than the row's work: the occupancy is tRAS + tRP.
    CHECK(sl.vault.atomic_bank_occupancy(8) == ns(120 + slow.t_rp_ns));
}

TEST_CASE("memory: atomics: LT atomics to one bank serialize with each other and with loads and stores",
          "[memory][atomics][timing]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t w = addr_of(m, p, 0, 0, 2, 0);       // bank 2, row 0
    const uint64_t w_row1 = addr_of(m, p, 0, 0, 2, 40); // bank 2, another row
    const uint64_t other_bank = addr_of(m, p, 0, 0, 3, 0);
    const uint64_t b5 = addr_of(m, p, 0, 0, 5, 0);
    sc_time d1, d2, d3, d4, d_read, d_after_write;
    AtomicResult r1, r3;
    LtBench b("b", [&](ScriptInitiator& i) {
        // All at the same effective time (t = 0, delay 0).
        r1 = run_atomic(i.socket, {AtomicOp::faa, w, 8, 10}, d1);
        run_atomic(i.socket, {AtomicOp::swap, w_row1, 8, 1}, d2);
        r3 = run_atomic(i.socket, {AtomicOp::faa, w, 8, 5}, d3);
        run_atomic(i.socket, {AtomicOp::faa, other_bank, 8, 1}, d4);
        std::vector<uint8_t> line(64);
        i.read(w, line, d_read);
        sc_time dw;
        i.write(b5, std::vector<uint8_t>(64, 1), dw);
        run_atomic(i.socket, {AtomicOp::faa, b5 + 8, 8, 1}, d_after_write);
    });
    REQUIRE(m.bank_of(w) == m.bank_of(w_row1));
    REQUIRE(m.row_of(w) != m.row_of(w_row1));
    sc_core::sc_start();

    const VaultController& v = b.vault;
    const sc_time lat = v.atomic_latency(8), occ = v.atomic_bank_occupancy(8);
    CHECK(d1 == lat);
    CHECK(d2 == occ + lat);                                   // waits for the first atomic's bank occupancy
    CHECK(d3 == 2 * occ + lat);                               // and the second's
    CHECK(d4 == lat);                                         // another bank is free
    CHECK(d_read == 3 * occ + v.access_latency(false, 64));   // a load waits for the atomics too
    CHECK(d_after_write == v.bank_occupancy(true, 64) + lat); // an atomic waits for a store
    CHECK(r1.old == 0);
    CHECK(r3.old == 10); // performed after the first
    CHECK(peek(b.store, w, 8) == 15);
    CHECK(v.bank_conflicts(2) == 3);
    CHECK(v.bank_conflicts(3) == 0);
    CHECK(v.bank_conflicts(5) == 1);
    CHECK(v.bank_timeline(2).busy_time() == 3 * occ + v.bank_occupancy(false, 64));
}

TEST_CASE("memory: atomics: LT through the base-protocol checker: no report, the write buffer comes back as sent",
          "[memory][atomics][checker]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t w = addr_of(m, p, 0, 0, 1, 0);
    BackingStore store;
    VaultController vault("vault", 0, 0, p, m, store);
    CountingChecker checker("check");
    AtomicResult changed, same;
    ScriptInitiator init("init", [&](ScriptInitiator& i) {
        sc_time d;
        i.write64(w + 8, 7, d);
        changed = run_atomic(i.socket, {AtomicOp::faa, w, 8, 5}, d); // old 0 != operand
        same = run_atomic(i.socket, {AtomicOp::swap, w, 8, 5}, d);   // old 5 == operand
        i.read64(w + 8, d);
    });
    init.socket.bind(checker.target);
    checker.initiator.bind(vault.socket);
    sc_core::sc_start();

    REQUIRE(init.done());
    CHECK(changed.old == 0);
    CHECK(same.old == 5);
    CHECK(changed.buf == changed.sent);
    CHECK(same.buf == same.sent);
    CHECK(checker.b_transports() == 4);
    for (const auto& msg : checker.messages()) UNSCOPED_INFO(msg);
    CHECK(checker.other_violations() == 0);
    CHECK(checker.violations(ProtocolChecker::Rule::payload_modified) == 0); // hashed like any WRITE
    CHECK(checker.messages().empty());
}

// ---------------------------------------------------------------- concurrency

TEST_CASE("memory: atomics: concurrent faa from decoupled LT initiators lose no update and return distinct old values",
          "[memory][atomics][concurrency]") {
    constexpr unsigned kInits = 4, kOps = 50;
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t counter = addr_of(m, p, 0, 0, 6, 3);       // 8 B, +1 by everybody
    const uint64_t counter4 = addr_of(m, p, 0, 0, 6, 40) + 4; // 4 B, +(k + 1) by initiator k, same bank
    BackingStore store;
    AllToZero router;
    Crossbar xbar("xbar", XbarParams(), &router);
    VaultController vault("vault", 0, 0, p, m, store);
    std::vector<uint64_t> olds, olds4;
    unsigned bad_status = 0, not_performed = 0;
    std::vector<std::unique_ptr<ScriptInitiator>> inits;
    for (unsigned k = 0; k < kInits; ++k) {
        inits.push_back(
            std::make_unique<ScriptInitiator>(("init" + std::to_string(k)).c_str(), [&, k](ScriptInitiator& i) {
                // Temporally decoupled, each with its own pace.
                syncron::test::QuantumKeeper qk(ns(100));
                qk.reset();
                for (unsigned n = 0; n < kOps; ++n) {
                    sc_time d = qk.get_local_time();
                    const AtomicResult r = run_atomic(i.socket, {AtomicOp::faa, counter, 8, 1}, d);
                    const AtomicResult r4 = run_atomic(i.socket, {AtomicOp::faa, counter4, 4, k + 1}, d);
                    olds.push_back(r.old);
                    olds4.push_back(r4.old);
                    bad_status += (r.status != tlm::TLM_OK_RESPONSE) + (r4.status != tlm::TLM_OK_RESPONSE);
                    not_performed += !r.performed + !r4.performed;
                    qk.set(d);
                    qk.inc(ns(3 + 7 * k));
                    if (qk.need_sync()) qk.sync();
                }
            }));
        inits.back()->socket.bind(xbar.in);
    }
    xbar.out.bind(vault.socket);
    sc_core::sc_start();

    for (const auto& i : inits) REQUIRE(i->done());
    CHECK(bad_status == 0);
    CHECK(not_performed == 0);
    const uint64_t n = uint64_t(kInits) * kOps;
    CHECK(peek(store, counter, 8) == n);
    CHECK(peek(store, counter4, 4) == kOps * (1 + 2 + 3 + 4));
    // +1 each: the old values are exactly 0 .. n-1, each once.
    std::vector<uint64_t> want(n);
    std::iota(want.begin(), want.end(), 0);
    std::sort(olds.begin(), olds.end());
    CHECK(olds == want);
    std::sort(olds4.begin(), olds4.end());
    CHECK(std::adjacent_find(olds4.begin(), olds4.end()) == olds4.end()); // distinct
    CHECK(vault.atomics(AtomicOp::faa) == 2 * n);
    CHECK(vault.bank_conflicts() > 0); // they did contend for the bank
}

TEST_CASE("memory: atomics: concurrent faa from AT initiators serialize in service order and lose no update",
          "[memory][atomics][concurrency][at]") {
    constexpr unsigned kInits = 4, kOps = 20;
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t counter = addr_of(m, p, 0, 0, 9, 1);       // 8 B, +1
    const uint64_t counter4 = addr_of(m, p, 0, 0, 9, 33) + 4; // 4 B, +(k + 1), same bank, another row
    BackingStore store;
    AllToZero router;
    Crossbar xbar("xbar", XbarParams(), &router);
    VaultController vault("vault", 0, 0, p, m, store);
    CountingChecker checker("check_vault");
    std::vector<std::unique_ptr<AtInitiator>> inits;
    std::vector<std::unique_ptr<AtomicTap>> taps;
    for (unsigned k = 0; k < kInits; ++k) {
        taps.push_back(std::make_unique<AtomicTap>(("tap" + std::to_string(k)).c_str()));
        AtomicTap* tap = taps.back().get();
        inits.push_back(std::make_unique<AtInitiator>(("init" + std::to_string(k)).c_str(),
                                                      [tap, k, counter, counter4](AtInitiator& i) {
                                                          // Pipelined: a new request as soon as the previous one is accepted.
                                                          for (unsigned n = 0; n < kOps; ++n) {
                                                              tap->arm(AtomicOp::faa);
                                                              i.issue(tlm::TLM_WRITE_COMMAND, counter, le(1, 8));
                                                              tap->arm(AtomicOp::faa);
                                                              i.issue(tlm::TLM_WRITE_COMMAND, counter4, le(k + 1, 4));
                                                              if (n % 4 == k) sc_core::wait(ns(5 * k + 1));
                                                          }
                                                      }));
        inits.back()->socket.bind(tap->in);
        tap->out.bind(xbar.in);
    }
    xbar.out.bind(checker.target);
    checker.initiator.bind(vault.socket);
    sc_core::sc_start();

    struct Resp {
        sc_time at;
        uint64_t addr, old, addend;
    };
    std::vector<Resp> resps;
    unsigned bad = 0;
    for (unsigned k = 0; k < kInits; ++k) {
        REQUIRE(inits[k]->done());
        CHECK(inits[k]->pool.in_use() == 0);
        REQUIRE(taps[k]->seen.size() == inits[k]->txns.size());
        for (size_t id = 0; id < inits[k]->txns.size(); ++id) {
            const auto& x = inits[k]->txns[id];
            const auto& s = taps[k]->seen[id];
            bad += x.status != tlm::TLM_OK_RESPONSE || !s.performed || !s.responded;
            resps.push_back({x.begin_resp, x.addr, s.old, x.addr == counter ? 1u : k + 1});
        }
    }
    CHECK(bad == 0);
    const uint64_t n = uint64_t(kInits) * kOps;
    REQUIRE(resps.size() == 2 * n);
    CHECK(peek(store, counter, 8) == n);
    CHECK(peek(store, counter4, 4) == kOps * (1 + 2 + 3 + 4));
    // Both words share a bank: every response at its own time, and per word,
    // in response order, each old value is the previous one plus its addend.
    std::sort(resps.begin(), resps.end(), [](const Resp& a, const Resp& b) { return a.at < b.at; });
    CHECK(std::adjacent_find(resps.begin(), resps.end(), [](const Resp& a, const Resp& b) { return a.at == b.at; }) ==
          resps.end());
    unsigned out_of_order = 0, data_changed = 0;
    for (const Resp& r : resps) data_changed += r.old != r.addend;
    for (uint64_t word : {counter, counter4}) {
        uint64_t expect = 0;
        for (const Resp& r : resps) {
            if (r.addr != word) continue;
            out_of_order += r.old != expect;
            expect += r.addend;
        }
    }
    CHECK(out_of_order == 0);
    CHECK(vault.atomics(AtomicOp::faa) == 2 * n);
    CHECK(vault.max_queue_occupancy() == p.queue_depth); // they queued up
    CHECK(vault.backpressured() > 0);
    CHECK(vault.queue_occupancy() == 0);
    // The checker hashes an atomic's WRITE data like any other: had the vault
    // written an old value into a buffer (most differ from the operand), it
    // would report payload_modified.
    for (const auto& msg : checker.messages()) UNSCOPED_INFO(msg);
    CHECK(checker.other_violations() == 0);
    CHECK(data_changed > 0);
    CHECK(checker.violations(ProtocolChecker::Rule::payload_modified) == 0);
    CHECK(checker.messages().empty());
    CHECK(checker.in_flight() == 0);
}

// ---------------------------------------------------------------- AT

TEST_CASE("memory: atomics: AT through the base-protocol checker: old values, LT latency, statistics",
          "[memory][atomics][at]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t w8 = addr_of(m, p, 0, 0, 1, 2), w4 = addr_of(m, p, 0, 0, 2, 2) + 4, ws = addr_of(m, p, 0, 0, 3, 2),
                   wc = addr_of(m, p, 0, 0, 4, 2), wf = addr_of(m, p, 0, 0, 5, 2) + 4;
    const uint64_t pa = addr_of(m, p, 0, 0, 7, 0);
    const uint64_t plain = addr_of(m, p, 0, 0, 8, 0);
    size_t faa8 = 0, faa4 = 0, swap8 = 0, cas_ok = 0, cas_fail = 0, pipe_a = 0, pipe_b = 0, rd = 0, wr = 0;
    uint64_t while_queued = 99, after_both = 99;
    QueueSink sink;
    AtBench* bp = nullptr;
    AtBench b("b", [&](AtInitiator& i) {
        AtBench& bb = *bp;
        faa8 = bb.transact(i, AtomicOp::faa, w8, 8, 23);
        faa4 = bb.transact(i, AtomicOp::faa, w4, 4, 0x20);
        swap8 = bb.transact(i, AtomicOp::swap, ws, 8, 0xDEADBEEFCAFEF00Dull);
        cas_ok = bb.transact(i, AtomicOp::cas, wc, 8, 99, 1000);
        cas_fail = bb.transact(i, AtomicOp::cas, wf, 4, 5, 1);
        // Two atomics to one word in flight at the same time. While the second
        // waits for the bank, memory holds the first one's result only: the
        // RMW happens at issue, neither at acceptance nor at the response.
        bb.tap.arm(AtomicOp::faa);
        pipe_a = i.issue(tlm::TLM_WRITE_COMMAND, pa, le(1, 8));
        bb.tap.arm(AtomicOp::faa);
        pipe_b = i.issue(tlm::TLM_WRITE_COMMAND, pa, le(2, 8));
        sc_core::wait(ns(10));
        i.debug(tlm::TLM_READ_COMMAND, pa, reinterpret_cast<uint8_t*>(&while_queued), 8);
        i.wait_all();
        i.debug(tlm::TLM_READ_COMMAND, pa, reinterpret_cast<uint8_t*>(&after_both), 8);
        // Plain traffic on the same vault: no reports for it.
        wr = i.transact_write(plain, std::vector<uint8_t>(64, 3));
        rd = i.transact_read(w8, 8);
    });
    bp = &b;
    b.vault.set_trace(&sink);
    poke(b.store, w8, 100, 8);
    poke(b.store, w4, 0xFFFFFFF0, 4);
    poke(b.store, w4 + 4, 0xA5A5A5A5, 4);
    poke(b.store, ws, 1, 8);
    poke(b.store, wc, 1000, 8);
    poke(b.store, wf, 7, 4);
    sc_core::sc_start();

    REQUIRE(b.init.done());
    CHECK(b.init.pool.in_use() == 0);
    const auto& x = b.init.txns;
    const auto& s = b.tap.seen;
    for (size_t id : {faa8, faa4, swap8, cas_ok, cas_fail, pipe_a, pipe_b}) {
        INFO("transaction " << id);
        CHECK(x[id].status == tlm::TLM_OK_RESPONSE);
        CHECK(s[id].performed);
    }
    CHECK(s[faa8].old == 100);
    CHECK(s[faa4].old == 0xFFFFFFF0);
    CHECK(s[swap8].old == 1);
    CHECK(s[cas_ok].old == 1000);
    CHECK(s[cas_fail].old == 7);
    CHECK(while_queued == 1);
    CHECK(s[pipe_a].old == 0);
    CHECK(s[pipe_b].old == 1);
    CHECK(after_both == 3);
    CHECK(peek(b.store, w8, 8) == 123);
    CHECK(peek(b.store, w4, 4) == 0x10);
    CHECK(peek(b.store, w4 + 4, 4) == 0xA5A5A5A5);
    CHECK(peek(b.store, ws, 8) == 0xDEADBEEFCAFEF00Dull);
    CHECK(peek(b.store, wc, 8) == 99);
    CHECK(peek(b.store, wf, 4) == 7);
    CHECK(load_le(x[rd].data.data(), 8) == 123); // a read after the atomic sees its result

    // Closed page on a free bank: exactly the LT latency; the second atomic to
    // the bank waits for the first one's occupancy, as in LT.
    const sc_time lat = b.vault.atomic_latency(8), occ = b.vault.atomic_bank_occupancy(8);
    CHECK(lat == ns(p.t_rcd_ns + p.t_cl_ns + p.t_burst_ns + p.t_alu_ns + p.t_burst_ns));
    for (size_t id : {faa8, faa4, swap8, cas_ok, cas_fail, pipe_a}) CHECK(x[id].latency() == lat);
    CHECK(x[pipe_b].begin_req == x[pipe_a].begin_req);
    CHECK(x[pipe_b].latency() == occ + lat);

    const VaultController& v = b.vault;
    CHECK(v.atomics(AtomicOp::faa) == 4);
    CHECK(v.atomics(AtomicOp::swap) == 1);
    CHECK(v.atomics(AtomicOp::cas) == 2);
    CHECK(v.cas_failures() == 1);
    CHECK(v.reads() == 7 + 1);
    CHECK(v.writes() == 7 + 1);
    CHECK(v.bytes_read() == 5 * 8 + 2 * 4 + 8);
    CHECK(v.row_misses() == 9);
    CHECK(v.bank_conflicts(7) == 1);
    CHECK(v.errors() == 0);
    CHECK(v.total_latency() == 6 * lat + occ + lat + x[wr].latency() + x[rd].latency());
    // Atomics go through the request queue: one record in, one out, each.
    CHECK(sink.depths.size() == 2 * 9);

    // The old value in an atomic's WRITE buffer is not a payload
    // modification (docs/protocol_checker.md); nothing else is reported.
    for (const auto& msg : b.checker.messages()) UNSCOPED_INFO(msg);
    CHECK(b.checker.other_violations() == 0);
    CHECK(b.checker.violations(ProtocolChecker::Rule::payload_modified) ==
          0); // an atomic may return its old value in the data
    CHECK(b.checker.messages().empty());
    CHECK(b.checker.in_flight() == 0);
}

TEST_CASE("memory: atomics: AT open page: row hit, conflict after tWR, the bank busy until the write data",
          "[memory][atomics][at][timing]") {
    MemoryParams op;
    op.page_policy = PagePolicy::open;
    const AddressMap m(4, 16, op);
    const uint64_t r0 = addr_of(m, op, 0, 0, 4, 0), r0w = addr_of(m, op, 0, 0, 4, 1);
    const uint64_t r1 = addr_of(m, op, 0, 0, 4, 40), r1w = addr_of(m, op, 0, 0, 4, 41);
    size_t rd0 = 0, hit = 0, conflict = 0, hit2 = 0, rd_after = 0;
    AtBench* bp = nullptr;
    AtBench b(
        "b",
        [&](AtInitiator& i) {
            AtBench& bb = *bp;
            rd0 = i.transact_read(r0, 64);                       // miss: opens row 0
            hit = bb.transact(i, AtomicOp::faa, r0w, 8, 5);      // hit
            conflict = bb.transact(i, AtomicOp::faa, r1w, 8, 7); // conflict, right after the hit's data
            bb.tap.arm(AtomicOp::faa);
            hit2 = i.issue(tlm::TLM_WRITE_COMMAND, r1w, le(1, 8)); // hit on row 1
            rd_after = i.read(r1, 64);                             // same row, same time: waits for the write data
            i.wait_all();
        },
        op);
    bp = &b;
    REQUIRE(m.bank_of(r0) == m.bank_of(r1));
    REQUIRE(m.row_of(r0) == m.row_of(r0w));
    REQUIRE(m.row_of(r1) == m.row_of(r1w));
    REQUIRE(m.row_of(r0) != m.row_of(r1));
    sc_core::sc_start();

    REQUIRE(b.init.done());
    using RO = VaultController::RowOutcome;
    const VaultController& v = b.vault;
    const auto& x = b.init.txns;
    CHECK(x[rd0].latency() == v.row_latency(RO::miss, false, 64));
    CHECK(x[hit].latency() == v.atomic_row_latency(RO::hit, 8));
    CHECK(x[hit].latency() == ns(op.t_cl_ns + op.t_burst_ns + op.t_alu_ns + op.t_burst_ns));
    // Issued when the hit's write data is in: the precharge waits for tWR.
    CHECK(x[conflict].begin_req == x[hit].begin_resp);
    CHECK(x[conflict].latency() == ns(op.t_wr_ns) + v.atomic_row_latency(RO::conflict, 8));
    CHECK(x[hit2].latency() == v.atomic_row_latency(RO::hit, 8));
    CHECK(x[rd_after].begin_req == x[hit2].begin_req);
    CHECK(x[rd_after].latency() == v.atomic_column_latency(8) + v.column_latency(false, 64));
    CHECK(v.row_hits() == 3);
    CHECK(v.row_misses() == 1);
    CHECK(v.row_conflicts() == 1);
    CHECK(v.at_row_open(4));
    CHECK(b.tap.seen[hit].old == 0);
    CHECK(b.tap.seen[conflict].old == 0);
    CHECK(b.tap.seen[hit2].old == 7);
    CHECK(peek(b.store, r0w, 8) == 5);
    CHECK(peek(b.store, r1w, 8) == 8);
    CHECK(b.checker.other_violations() == 0);
}

// ---------------------------------------------------------------- errors

TEST_CASE("memory: atomics: malformed atomics get their error status in LT and leave memory unchanged",
          "[memory][atomics][error]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t w = addr_of(m, p, 1, 0, 3, 0); // unit 1, vault 0
    struct Bad {
        const char* what;
        AtomicReq req;
        tlm::tlm_response_status want;
    };
    AtomicReq base;
    base.addr = w;
    base.operand = 0x1111111111111111ull;
    base.performed_before = true; // the vault must clear it
    auto with = [&](auto f) {
        AtomicReq r = base;
        f(r);
        return r;
    };
    const std::vector<Bad> bad = {
        {"read command", with([](AtomicReq& r) { r.cmd = tlm::TLM_READ_COMMAND; }), tlm::TLM_COMMAND_ERROR_RESPONSE},
        {"ignore command", with([](AtomicReq& r) { r.cmd = tlm::TLM_IGNORE_COMMAND; }),
         tlm::TLM_COMMAND_ERROR_RESPONSE},
        {"2 bytes", with([](AtomicReq& r) { r.len = 2; }), tlm::TLM_BURST_ERROR_RESPONSE},
        {"16 bytes", with([](AtomicReq& r) { r.len = 16; }), tlm::TLM_BURST_ERROR_RESPONSE},
        {"0 bytes", with([](AtomicReq& r) { r.len = 0; }), tlm::TLM_BURST_ERROR_RESPONSE},
        {"streaming width 4 for 8 bytes", with([](AtomicReq& r) { r.streaming_width = 4; }),
         tlm::TLM_BURST_ERROR_RESPONSE},
        {"8 bytes at +4", with([](AtomicReq& r) { r.addr += 4; }), tlm::TLM_ADDRESS_ERROR_RESPONSE},
        {"4 bytes at +2", with([](AtomicReq& r) { r.addr += 2, r.len = 4; }), tlm::TLM_ADDRESS_ERROR_RESPONSE},
        {"byte enables", with([](AtomicReq& r) { r.byte_enables = true; }), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE},
        {"unknown op", with([](AtomicReq& r) { r.op = static_cast<AtomicOp>(3); }), tlm::TLM_GENERIC_ERROR_RESPONSE},
        {"unknown op 255", with([](AtomicReq& r) { r.op = static_cast<AtomicOp>(255), r.compare = 1; }),
         tlm::TLM_GENERIC_ERROR_RESPONSE},
        {"other vault", with([&](AtomicReq& r) { r.addr = addr_of(m, p, 1, 1, 3, 0); }),
         tlm::TLM_ADDRESS_ERROR_RESPONSE},
        {"other unit", with([&](AtomicReq& r) { r.addr = addr_of(m, p, 0, 0, 3, 0); }),
         tlm::TLM_ADDRESS_ERROR_RESPONSE},
    };
    std::vector<AtomicResult> got(bad.size());
    std::vector<sc_time> delays(bad.size());
    std::vector<bool> mem_same(bad.size());
    std::vector<uint8_t> before;
    AtomicResult good;
    LtBench* bp = nullptr;
    const auto warnings_before = sc_core::sc_report_handler::get_count(sc_core::SC_WARNING);
    LtBench b(
        "b",
        [&](ScriptInitiator& i) {
            for (size_t k = 0; k < bad.size(); ++k) {
                sc_time d = ns(10);
                got[k] = run_atomic(i.socket, bad[k].req, d);
                delays[k] = d;
                mem_same[k] = bytes_at(bp->store, w - 8, 32) == before;
            }
            sc_time d;
            good = run_atomic(i.socket, base, d); // the same word, well formed
        },
        p, 1, 0);
    bp = &b;
    for (unsigned k = 0; k < 4; ++k) poke(b.store, w - 8 + 8 * k, 0x0102030405060708ull * (k + 1), 8);
    before = bytes_at(b.store, w - 8, 32);
    const size_t pages = b.store.pages_allocated();
    sc_core::sc_start();

    REQUIRE(b.init.done());
    for (size_t k = 0; k < bad.size(); ++k) {
        INFO(bad[k].what);
        CHECK(got[k].status == bad[k].want);
        CHECK_FALSE(got[k].performed);
        CHECK(mem_same[k]);
        CHECK(got[k].buf == got[k].sent); // nothing returned in the buffer either
        CHECK(delays[k] == ns(10));       // rejected requests cost no time
    }
    CHECK(b.store.pages_allocated() == pages);
    CHECK(b.vault.errors() == bad.size());
    // Address errors warn (two misaligned, two foreign); the others do not.
    CHECK(sc_core::sc_report_handler::get_count(sc_core::SC_WARNING) - warnings_before == 4);
    CHECK(good.status == tlm::TLM_OK_RESPONSE);
    CHECK(good.performed);
    CHECK(good.old == 0x020406080A0C0E10ull); // 0x0102030405060708 * 2
    CHECK(b.vault.atomics() == 1);
    CHECK(b.vault.reads() == 1);
    CHECK(b.vault.writes() == 1);
}

TEST_CASE("memory: atomics: malformed atomics through AT get END_REQ and their error status, memory unchanged",
          "[memory][atomics][error][at]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t w = addr_of(m, p, 0, 0, 6, 0);
    size_t rd = 0, len2 = 0, misaligned = 0, be = 0, bad_op = 0, ignore = 0, ok = 0;
    const std::vector<uint8_t> enables(8, 0xFF);
    std::vector<uint8_t> before;
    AtBench* bp = nullptr;
    AtBench b("b", [&](AtInitiator& i) {
        AtomicTap& tap = bp->tap;
        tap.arm(AtomicOp::faa, 0, true);
        rd = i.read(w, 8);
        tap.arm(AtomicOp::faa, 0, true);
        len2 = i.issue(tlm::TLM_WRITE_COMMAND, w, le(1, 2));
        tap.arm(AtomicOp::swap, 0, true);
        misaligned = i.issue(tlm::TLM_WRITE_COMMAND, w + 4, le(1, 8));
        tap.arm(AtomicOp::cas, 0, true);
        be = i.issue(tlm::TLM_WRITE_COMMAND, w, le(1, 8), enables.data());
        tap.arm(static_cast<AtomicOp>(7), 0, true);
        bad_op = i.issue(tlm::TLM_WRITE_COMMAND, w, le(1, 8));
        tap.arm(AtomicOp::faa, 0, true);
        ignore = i.issue(tlm::TLM_IGNORE_COMMAND, w, le(1, 8));
        i.wait_all();
        ok = bp->transact(i, AtomicOp::faa, w, 8, 1);
    });
    bp = &b;
    poke(b.store, w, 41, 8);
    poke(b.store, w + 8, 0x5A5A5A5A5A5A5A5Aull, 8);
    before = bytes_at(b.store, w, 16);
    sc_core::sc_start();

    REQUIRE(b.init.done());
    CHECK(b.init.pool.in_use() == 0);
    const auto& x = b.init.txns;
    const auto& s = b.tap.seen;
    const std::vector<std::pair<size_t, tlm::tlm_response_status>> want = {
        {rd, tlm::TLM_COMMAND_ERROR_RESPONSE},         {len2, tlm::TLM_BURST_ERROR_RESPONSE},
        {misaligned, tlm::TLM_ADDRESS_ERROR_RESPONSE}, {be, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE},
        {bad_op, tlm::TLM_GENERIC_ERROR_RESPONSE},     {ignore, tlm::TLM_COMMAND_ERROR_RESPONSE},
    };
    for (auto [id, st] : want) {
        INFO("transaction " << id);
        CHECK(x[id].status == st);
        CHECK(x[id].accepted);
        CHECK(x[id].latency() == SC_ZERO_TIME); // errors cost no time
        CHECK(s[id].atomic);
        CHECK_FALSE(s[id].performed);
    }
    // The only change to memory is the final good faa.
    auto after = bytes_at(b.store, w, 16);
    CHECK(std::equal(after.begin() + 8, after.end(), before.begin() + 8));
    CHECK(peek(b.store, w, 8) == 42);
    CHECK(s[ok].old == 41);
    CHECK(x[ok].status == tlm::TLM_OK_RESPONSE);
    CHECK(b.vault.errors() == want.size());
    CHECK(b.vault.atomics() == 1);
    CHECK(b.vault.reads() == 1);
    CHECK(b.vault.writes() == 1);
    // The error responses leave the data buffers alone; the good atomic's
    // old value is no violation either.
    for (const auto& msg : b.checker.messages()) UNSCOPED_INFO(msg);
    CHECK(b.checker.other_violations() == 0);
    CHECK(b.checker.violations(ProtocolChecker::Rule::payload_modified) ==
          0); // an atomic may return its old value in the data
    CHECK(b.checker.in_flight() == 0);
}

TEST_CASE("memory: atomics: transport_dbg with an atomic returns 0 and changes nothing, and no DMI",
          "[memory][atomics][debug]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t w = addr_of(m, p, 0, 0, 0, 0);
    std::vector<AtomicResult> dbg;
    sc_time before, after, timed;
    bool granted = true;
    tlm::tlm_dmi dmi;
    uint64_t plain_dbg = 0;
    LtBench b("b", [&](ScriptInitiator& i) {
        before = sc_core::sc_time_stamp();
        sc_time d;
        for (AtomicOp op : {AtomicOp::faa, AtomicOp::swap, AtomicOp::cas}) {
            AtomicReq r;
            r.op = op;
            r.addr = w;
            r.operand = 5;
            r.compare = 1000; // would succeed
            dbg.push_back(run_atomic(i.socket, r, d, Via::debug));
        }
        AtomicReq r4;
        r4.addr = w;
        r4.len = 4;
        r4.operand = 5;
        dbg.push_back(run_atomic(i.socket, r4, d, Via::debug));
        after = sc_core::sc_time_stamp();
        // A plain debug read still works; no bank state was touched.
        i.debug(tlm::TLM_READ_COMMAND, w, reinterpret_cast<uint8_t*>(&plain_dbg), 8);
        sc_time dt;
        run_atomic(i.socket, {AtomicOp::faa, w, 8, 1}, dt);
        timed = dt;
        // DMI is never granted, an atomic request least of all.
        tlm::tlm_generic_payload t;
        AtomicExtension ext(AtomicOp::faa, 0);
        t.set_address(w);
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_extension(&ext);
        granted = i.socket->get_direct_mem_ptr(t, dmi);
        t.clear_extension(&ext);
    });
    poke(b.store, w, 1000, 8);
    sc_core::sc_start();

    REQUIRE(b.init.done());
    REQUIRE(dbg.size() == 4);
    for (const AtomicResult& r : dbg) {
        CHECK(r.debug_bytes == 0);
        CHECK(r.status == tlm::TLM_COMMAND_ERROR_RESPONSE);
        CHECK_FALSE(r.performed);
        CHECK(r.buf == r.sent);
    }
    CHECK(before == after);
    CHECK(plain_dbg == 1000);                  // unchanged by the debug atomics
    CHECK(timed == b.vault.atomic_latency(8)); // no bank conflict from them
    CHECK(peek(b.store, w, 8) == 1001);
    CHECK(b.vault.atomics() == 1);
    CHECK(b.vault.errors() == 0); // debug has no statistics
    CHECK(b.vault.bank_conflicts() == 0);
    CHECK_FALSE(granted);
    CHECK(dmi.is_none_allowed());
    CHECK(sc_core::sc_time_stamp() == SC_ZERO_TIME);
}

// ---------------------------------------------------------------- interconnect

TEST_CASE("memory: atomics: an LT atomic through crossbar, link and crossbar keeps its extension and returns the "
          "old value",
          "[memory][atomics][interconnect]") {
    // unit 0 core -> xbar0 -> link 0->1 -> xbar1 -> probe -> vault 3 of unit 1
    const MemoryParams mp;
    const AddressMap map(4, 16, mp);
    const LinkParams lp;
    AllToZero r;
    Crossbar xbar0("xbar0", XbarParams(), &r), xbar1("xbar1", XbarParams(), &r);
    Link link("link01", 0, 1, lp);
    BackingStore store1;
    VaultController vault("vault", 1, 3, mp, map, store1);
    AtomicTap probe("probe");
    const uint64_t a = map.unit_base(1) + 3 * 64 + 8;
    AtomicResult faa, cas_fail, cas_ok;
    sc_time d_faa;
    ScriptInitiator core("core", [&](ScriptInitiator& i) {
        sc_time d;
        faa = run_atomic(i.socket, {AtomicOp::faa, a, 8, 5}, d);
        d_faa = d;
        d = ns(1000);
        cas_fail = run_atomic(i.socket, {AtomicOp::cas, a, 8, 77, 1000}, d);
        d = ns(2000);
        cas_ok = run_atomic(i.socket, {AtomicOp::cas, a, 8, 77, 1005}, d);
    });
    core.socket.bind(xbar0.in);
    xbar0.out.bind(link.in);
    link.out.bind(xbar1.in);
    xbar1.out.bind(probe.in);
    probe.out.bind(vault.socket);
    REQUIRE(map.vault_of(a) == 3);
    poke(store1, a, 1000, 8);
    sc_core::sc_start();

    REQUIRE(core.done());
    // At the vault: the extension with the initiator's op and compare.
    REQUIRE(probe.seen.size() == 3);
    CHECK(probe.seen[0].atomic);
    CHECK(probe.seen[0].op == AtomicOp::faa);
    CHECK(probe.seen[1].op == AtomicOp::cas);
    CHECK(probe.seen[1].compare == 1000);
    CHECK(probe.seen[2].compare == 1005);
    // Back at the initiator: the old values (a plain write would return the operand).
    CHECK(faa.status == tlm::TLM_OK_RESPONSE);
    CHECK(faa.performed);
    CHECK(faa.old == 1000);
    CHECK(cas_fail.old == 1005);
    CHECK(cas_ok.old == 1005);
    CHECK(cas_ok.performed);
    CHECK(peek(store1, a, 8) == 77);
    CHECK(vault.cas_failures() == 1);
    const double hops = 2 * 0.8, wire = link_fixed_ns(lp) + 8 / lp.bandwidth_gbps;
    CHECK(d_faa == ns(hops + wire) + vault.atomic_latency(8));
}

TEST_CASE("memory: atomics: an AT atomic through crossbar, link and crossbar keeps its extension and returns the "
          "old value",
          "[memory][atomics][interconnect][at]") {
    // core -> tap -> c0 -> xbar0 -> link 0->1 -> xbar1 -> probe -> c1 -> vault 3 of unit 1;
    // responses over xbar1 -> link 1->0 (reverse) -> xbar0.
    const MemoryParams mp;
    const AddressMap map(4, 16, mp);
    const LinkParams lp;
    AllToZero r;
    Crossbar xbar0("xbar0", XbarParams(), &r), xbar1("xbar1", XbarParams(), &r);
    Link l01("l01", 0, 1, lp), l10("l10", 1, 0, lp);
    l01.set_reverse(&l10);
    l10.set_reverse(&l01);
    BackingStore store1;
    VaultController vault("vault", 1, 3, mp, map, store1);
    AtomicTap tap("tap"), probe("probe");
    CountingChecker c0("c0"), c1("c1");
    const uint64_t a = map.unit_base(1) + 3 * 64 + 4;
    size_t faa = 0, cas = 0, rd = 0;
    AtInitiator core("core", [&](AtInitiator& i) {
        tap.arm(AtomicOp::faa);
        faa = i.issue(tlm::TLM_WRITE_COMMAND, a, le(5, 4));
        i.wait_done(faa);
        tap.arm(AtomicOp::cas, 1005);
        cas = i.issue(tlm::TLM_WRITE_COMMAND, a, le(0xFFFFFFFF, 4));
        i.wait_done(cas);
        rd = i.transact_read(a, 4);
    });
    core.socket.bind(tap.in);
    tap.out.bind(c0.target);
    c0.initiator.bind(xbar0.in);
    xbar0.out.bind(l01.in);
    l01.out.bind(xbar1.in);
    xbar1.out.bind(probe.in);
    probe.out.bind(c1.target);
    c1.initiator.bind(vault.socket);
    // The reverse link only carries the responses; its sockets are bound to
    // idle modules so elaboration completes.
    ScriptInitiator idle("idle", [](ScriptInitiator&) {});
    syncron::test::RecordingTarget sink("sink");
    idle.socket.bind(l10.in);
    l10.out.bind(sink.socket);
    REQUIRE(map.vault_of(a) == 3);
    poke(store1, a, 1000, 4);
    sc_core::sc_start();

    REQUIRE(core.done());
    CHECK(core.pool.in_use() == 0);
    REQUIRE(probe.seen.size() == 3);
    CHECK(probe.seen[faa].atomic);
    CHECK(probe.seen[faa].op == AtomicOp::faa);
    CHECK(probe.seen[cas].op == AtomicOp::cas);
    CHECK(probe.seen[cas].compare == 1005);
    CHECK_FALSE(probe.seen[rd].atomic);
    CHECK(core.txns[faa].status == tlm::TLM_OK_RESPONSE);
    CHECK(tap.seen[faa].performed);
    CHECK(tap.seen[faa].old == 1000);
    CHECK(tap.seen[cas].performed);
    CHECK(tap.seen[cas].old == 1005);
    CHECK(peek(store1, a, 4) == 0xFFFFFFFF);
    CHECK(load_le(core.txns[rd].data.data(), 4) == 0xFFFFFFFF);
    // Both crossbars both ways, the link with the 4 B operand out, the
    // response with the 4 B old value back over the reverse link.
    const sc_time hop = xbar0.hop_latency();
    CHECK(hop == ns(0.8));
    CHECK(core.txns[faa].latency() == hop + l01.serialization(4) + l01.latency() + hop + vault.atomic_latency(4) + hop +
                                          l10.serialization(4) + l10.latency() + hop);
    for (const CountingChecker* c : {&c0, &c1}) {
        for (const auto& msg : c->messages()) UNSCOPED_INFO(msg);
        CHECK(c->other_violations() == 0);
        CHECK(c->violations(ProtocolChecker::Rule::payload_modified) ==
              0); // an atomic may return its old value in the data
        CHECK(c->in_flight() == 0);
    }
}
