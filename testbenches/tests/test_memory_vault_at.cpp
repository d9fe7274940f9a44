// Vault controller, approximately-timed path (docs/vault_controller.md, "AT").
// An AT initiator (PayloadPool payloads, 4-phase base protocol, answers
// BEGIN_RESP with TLM_COMPLETED) drives one vault through a small
// base-protocol checker. Each TEST_CASE elaborates its own design and calls
// sc_start once (ctest runs every case in its own process); scripts record
// what they saw and the test asserts after sc_start returns.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/memory/backing_store.h"
#include "models/memory/vault_controller.h"
#include "models/tlm/payload_pool.h"
#include "testbenches/tests/at_script_initiator.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using syncron::test::ns;
using syncron::test::ScriptInitiator;

namespace {

/// Address of (unit, vault, bank, slot) under the default interleaving; slots
/// 0..31 of a bank share row 0 (2 KiB rows of 64 B granules), slot 32 is row 1.
uint64_t addr_of(const AddressMap& map, const MemoryParams& p, unsigned unit, unsigned vault, unsigned bank,
                 uint64_t slot = 0) {
    return map.unit_base(unit) + ((slot * p.banks_per_vault + bank) * p.vaults_per_unit + vault) * p.interleave_bytes;
}
constexpr uint64_t kRowSlots = 2048 / 64;

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + 7 * i);
    return v;
}

const char* phase_name(const tlm::tlm_phase& p) {
    if (p == tlm::BEGIN_REQ) return "BEGIN_REQ";
    if (p == tlm::END_REQ) return "END_REQ";
    if (p == tlm::BEGIN_RESP) return "BEGIN_RESP";
    if (p == tlm::END_RESP) return "END_RESP";
    return "other phase";
}

/// Pass-through TLM-2.0 base-protocol checker (the rules of brief §7): phase
/// order, one request and one response in their phase per socket,
/// non-decreasing effective times per transaction, memory manager and
/// reference count, payload fields untouched while in flight, no blocking call
/// on a payload in flight, no early completion (docs/timing.md).
class BaseProtocolCheck : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<BaseProtocolCheck> in;
    tlm_utils::simple_initiator_socket<BaseProtocolCheck> out;

    explicit BaseProtocolCheck(const sc_core::sc_module_name& n) : sc_module(n), in("in"), out("out") {
        in.register_nb_transport_fw(this, &BaseProtocolCheck::nb_transport_fw);
        in.register_b_transport(this, &BaseProtocolCheck::b_transport);
        in.register_transport_dbg(this, &BaseProtocolCheck::transport_dbg);
        in.register_get_direct_mem_ptr(this, &BaseProtocolCheck::get_direct_mem_ptr);
        out.register_nb_transport_bw(this, &BaseProtocolCheck::nb_transport_bw);
    }

    const std::vector<std::string>& violations() const { return m_violations; }
    size_t in_flight() const { return m_flight.size(); }
    uint64_t transactions() const { return m_transactions; }

private:
    struct Info {
        tlm::tlm_phase phase;
        sc_time time;
        tlm::tlm_command cmd;
        uint64_t addr;
        unsigned len;
        unsigned char* data;
    };

    void fail(const std::string& what) { m_violations.push_back(sc_core::sc_time_stamp().to_string() + ": " + what); }

    void check_fields(const tlm::tlm_generic_payload& t, const Info& i) {
        if (t.get_command() != i.cmd || t.get_address() != i.addr || t.get_data_length() != i.len ||
            t.get_data_ptr() != i.data)
            fail("payload attributes changed while in flight");
    }

    /// A phase of a known transaction at effective time `at`.
    void advance(tlm::tlm_generic_payload& t, const tlm::tlm_phase& ph, const sc_time& at) {
        auto it = m_flight.find(&t);
        if (it == m_flight.end()) {
            fail(std::string(phase_name(ph)) + " for a transaction not in flight");
            return;
        }
        Info& i = it->second;
        if (at < i.time) fail(std::string(phase_name(ph)) + ": timing annotation goes back in time");
        check_fields(t, i);
        if (t.has_mm() && t.get_ref_count() == 0) fail("payload in flight with reference count 0");
        if (ph == tlm::END_REQ) {
            if (i.phase != tlm::BEGIN_REQ || m_req != &t) fail("END_REQ outside the request phase");
            m_req = nullptr;
        } else if (ph == tlm::BEGIN_RESP) {
            if (i.phase == tlm::BEGIN_REQ && m_req == &t)
                m_req = nullptr; // END_REQ implied
            else if (i.phase != tlm::END_REQ)
                fail("BEGIN_RESP out of order");
            if (m_resp != nullptr) fail("BEGIN_RESP while another response is in its phase (response exclusion)");
            m_resp = &t;
        } else if (ph == tlm::END_RESP) {
            if (i.phase != tlm::BEGIN_RESP || m_resp != &t) fail("END_RESP outside the response phase");
        }
        i.phase = ph;
        i.time = at;
    }

    void complete(tlm::tlm_generic_payload& t) {
        if (m_resp == &t) m_resp = nullptr;
        if (m_req == &t) m_req = nullptr;
        m_flight.erase(&t);
    }

    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
        const sc_time at = sc_core::sc_time_stamp() + d;
        if (ph == tlm::BEGIN_REQ) {
            if (!t.has_mm())
                fail("BEGIN_REQ without a memory manager");
            else if (t.get_ref_count() == 0)
                fail("BEGIN_REQ with reference count 0");
            if (m_req != nullptr) fail("BEGIN_REQ before END_REQ of the previous request (request exclusion)");
            if (m_flight.count(&t)) fail("BEGIN_REQ for a payload already in flight");
            m_flight[&t] = Info{ph, at, t.get_command(), t.get_address(), t.get_data_length(), t.get_data_ptr()};
            m_req = &t;
            ++m_transactions;
        } else if (ph == tlm::END_RESP) {
            advance(t, ph, at);
        } else {
            fail(std::string(phase_name(ph)) + " on the forward path");
        }
        const tlm::tlm_phase sent = ph;
        const tlm::tlm_sync_enum s = out->nb_transport_fw(t, ph, d);
        if (s == tlm::TLM_UPDATED) {
            advance(t, ph, sc_core::sc_time_stamp() + d);
            if (ph == tlm::END_RESP) complete(t);
        } else if (s == tlm::TLM_COMPLETED) {
            if (sent == tlm::BEGIN_REQ) fail("early completion of BEGIN_REQ (not used, docs/timing.md)");
            complete(t);
        }
        return s;
    }

    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
        const tlm::tlm_phase sent = ph;
        if (ph != tlm::END_REQ && ph != tlm::BEGIN_RESP) fail(std::string(phase_name(ph)) + " on the backward path");
        advance(t, ph, sc_core::sc_time_stamp() + d);
        const tlm::tlm_sync_enum s = in->nb_transport_bw(t, ph, d);
        if (sent == tlm::END_REQ && s != tlm::TLM_ACCEPTED) fail("END_REQ not answered with TLM_ACCEPTED");
        if (sent == tlm::BEGIN_RESP) {
            if (s == tlm::TLM_COMPLETED)
                complete(t);
            else if (s == tlm::TLM_UPDATED && ph == tlm::END_RESP) {
                advance(t, ph, sc_core::sc_time_stamp() + d);
                complete(t);
            }
        }
        return s;
    }

    void b_transport(tlm::tlm_generic_payload& t, sc_time& d) {
        if (m_flight.count(&t)) fail("b_transport on a payload in flight on nb_transport");
        out->b_transport(t, d);
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) {
        if (m_flight.count(&t)) fail("transport_dbg on a payload in flight on nb_transport");
        if (t.get_data_length() > 0 && t.get_data_ptr() == nullptr) fail("debug payload without data");
        const sc_time before = sc_core::sc_time_stamp();
        const unsigned n = out->transport_dbg(t);
        if (sc_core::sc_time_stamp() != before) fail("debug transport advanced time");
        return n;
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) { return out->get_direct_mem_ptr(t, dmi); }

    std::map<const tlm::tlm_generic_payload*, Info> m_flight;
    const tlm::tlm_generic_payload* m_req = nullptr;
    const tlm::tlm_generic_payload* m_resp = nullptr;
    std::vector<std::string> m_violations;
    uint64_t m_transactions = 0;
};

using AtInitiator = syncron::test::AtScriptInitiator;

MemoryParams params_with(PagePolicy policy, unsigned depth = MemoryParams{}.queue_depth) {
    MemoryParams p;
    p.page_policy = policy;
    p.queue_depth = depth;
    return p;
}

/// One vault of one unit driven by an AT script through a protocol checker.
/// `prefix` names the modules so several benches fit one elaboration.
struct AtBench {
    MemoryParams params;
    AddressMap map;
    BackingStore store;
    VaultController vault;
    BaseProtocolCheck checker;
    AtInitiator init;

    AtBench(const std::string& prefix, const MemoryParams& p, unsigned unit, unsigned vault_index,
            AtInitiator::Script script)
        : params(p), map(4, 16, params), vault((prefix + "_vault").c_str(), unit, vault_index, params, map, store),
          checker((prefix + "_checker").c_str()), init((prefix + "_init").c_str(), std::move(script)) {
        init.socket.bind(checker.in);
        checker.out.bind(vault.socket);
    }

    /// Every transaction completed, the protocol was respected, no payload leaked.
    void require_clean() const {
        REQUIRE(init.done());
        for (const auto& v : checker.violations()) UNSCOPED_INFO(v);
        CHECK(checker.violations().empty());
        CHECK(checker.in_flight() == 0);
        CHECK(init.pool.in_use() == 0);
        CHECK(vault.queue_occupancy() == 0);
    }
};

} // namespace

TEST_CASE("memory: vault AT: read after write returns the data", "[memory][vault][at]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const uint64_t a = addr_of(m, p, 1, 5, 3, 7);
    const uint64_t b_addr = addr_of(m, p, 1, 5, 3, 8); // same bank and row
    const uint64_t c = addr_of(m, p, 1, 5, 9, 100);    // another bank
    const auto line = pattern(64, 11), line2 = pattern(64, 77), word = pattern(8, 200);
    size_t w1 = 0, r1 = 0, w2 = 0, r2 = 0, w3 = 0, r3 = 0, r_zero = 0;
    AtBench b("at", p, 1, 5, [&](AtInitiator& i) {
        // Sequential: each waits for its response.
        w1 = i.transact_write(a, line);
        r1 = i.transact_read(a);
        // Pipelined: the read is queued behind the write to the same address
        // (same bank and row, so FR-FCFS keeps their order).
        w2 = i.write(b_addr, line2);
        r2 = i.read(b_addr);
        w3 = i.write(c + 8, word);
        r3 = i.read(c + 8, 8);
        r_zero = i.read(c + 64 * 16 * 32); // never written
    });
    sc_core::sc_start();
    b.require_clean();
    for (size_t id : {w1, r1, w2, r2, w3, r3, r_zero}) CHECK(b.init.txns[id].status == tlm::TLM_OK_RESPONSE);
    CHECK(b.init.txns[r1].data == line);
    CHECK(b.init.txns[r2].data == line2);
    CHECK(b.init.txns[r3].data == word);
    CHECK(std::all_of(b.init.txns[r_zero].data.begin(), b.init.txns[r_zero].data.end(),
                      [](uint8_t x) { return x == 0; }));
    CHECK(b.init.txns[r2].begin_resp > b.init.txns[w2].begin_resp);
    // The shared store holds system addresses.
    std::vector<uint8_t> direct(64);
    b.store.read(a, direct.data(), 64);
    CHECK(direct == line);
    CHECK(b.vault.writes() == 3);
    CHECK(b.vault.reads() == 4);
    CHECK(b.vault.bytes() == 64 * 5 + 8 * 2);
    CHECK(b.vault.errors() == 0);
    CHECK(b.checker.transactions() == 7);
}

TEST_CASE("memory: vault AT: one access takes the LT latency (closed page)", "[memory][vault][at][timing]") {
    const MemoryParams p; // closed page by default
    const AddressMap m(4, 16, p);
    const uint64_t bank0 = addr_of(m, p, 0, 0, 0, 0), bank0_other = addr_of(m, p, 0, 0, 0, 40);
    const uint64_t bank2 = addr_of(m, p, 0, 0, 2, 0), bank3 = addr_of(m, p, 0, 0, 3, 0),
                   bank3_row1 = addr_of(m, p, 0, 0, 3, 1);
    std::vector<uint8_t> line(64);
    sc_time lt_read, lt_read128, lt_write, lt_second, lt_wr_rd;
    size_t rd = 0, rd128 = 0, wr = 0, first = 0, second = 0, wr2 = 0, rd_after_wr = 0;

    AtBench at("at", p, 0, 0, [&](AtInitiator& i) {
        rd = i.transact_read(bank0);
        sc_core::wait(ns(1000)); // banks idle again
        rd128 = i.transact_read(bank2, 128);
        sc_core::wait(ns(1000));
        wr = i.transact_write(bank3, line);
        sc_core::wait(ns(1000));
        // Two reads to one bank issued at the same time, then write + read.
        first = i.read(bank0);
        second = i.read(bank0_other);
        i.wait_all();
        sc_core::wait(ns(1000));
        wr2 = i.write(bank3, line);
        rd_after_wr = i.read(bank3_row1);
    });
    // The same sequence on the LT path of another instance.
    MemoryParams lp = p;
    AddressMap lmap(4, 16, lp);
    BackingStore lstore;
    VaultController lt_vault("lt_vault", 0, 0, lp, lmap, lstore);
    ScriptInitiator lt_init("lt_init", [&](ScriptInitiator& i) {
        sc_time d;
        i.read(bank0, line, d);
        lt_read = d;
        d = ns(1000);
        std::vector<uint8_t> two(128);
        i.read(bank2, two, d);
        lt_read128 = d - ns(1000);
        d = ns(2000);
        i.write(bank3, line, d);
        lt_write = d - ns(2000);
        sc_time d1 = ns(3000), d2 = ns(3000);
        i.read(bank0, line, d1);
        i.read(bank0_other, line, d2);
        lt_second = d2 - ns(3000);
        sc_time d3 = ns(4000), d4 = ns(4000);
        i.write(bank3, line, d3);
        i.read(bank3_row1, line, d4);
        lt_wr_rd = d4 - ns(4000);
    });
    lt_init.socket.bind(lt_vault.socket);
    sc_core::sc_start();
    at.require_clean();
    const auto& t = at.init.txns;
    CHECK(t[rd].latency() == lt_read);
    CHECK(t[rd].latency() == at.vault.access_latency(false, 64));
    CHECK(t[rd].latency() == ns(p.t_rcd_ns + p.t_cl_ns + p.t_burst_ns));
    CHECK(t[rd128].latency() == lt_read128);
    CHECK(t[wr].latency() == lt_write);
    CHECK(t[wr].latency() == ns(p.t_rcd_ns + p.t_burst_ns));
    CHECK(t[first].latency() == lt_read);
    CHECK(t[second].latency() == lt_second);
    CHECK(t[second].latency() == at.vault.bank_occupancy(false, 64) + at.vault.access_latency(false, 64));
    CHECK(t[wr2].latency() == ns(p.t_rcd_ns + p.t_burst_ns));
    CHECK(t[rd_after_wr].latency() == lt_wr_rd);
    CHECK(t[rd_after_wr].latency() ==
          ns(p.t_rcd_ns + p.t_burst_ns + p.t_wr_ns + p.t_rp_ns) + at.vault.access_latency(false, 64));
    // Same statistics on both paths.
    CHECK(at.vault.accesses() == lt_vault.accesses());
    CHECK(at.vault.total_latency() == lt_vault.total_latency());
    CHECK(at.vault.average_latency() == lt_vault.average_latency());
    CHECK(at.vault.bank_conflicts() == lt_vault.bank_conflicts());
    CHECK(at.vault.bank_conflicts() == 2);
    CHECK(at.vault.row_misses() == 7);
    CHECK(lt_vault.row_misses() == 7);
    CHECK(at.vault.row_hits() == 0);
    CHECK(at.vault.row_conflicts() == 0);
    CHECK(!at.vault.at_row_open(0)); // closed page precharges after every access
    // Queueing: the two second accesses each waited for the bank.
    CHECK(at.vault.queueing_delay() == at.vault.bank_occupancy(false, 64) + at.vault.bank_occupancy(true, 64));
}

TEST_CASE("memory: vault AT: open page makes a row hit faster and a row conflict slower",
          "[memory][vault][at][timing]") {
    const MemoryParams open = params_with(PagePolicy::open), closed = params_with(PagePolicy::closed);
    const AddressMap m(4, 16, open);
    const uint64_t row0 = addr_of(m, open, 0, 0, 6, 0), row0_b = addr_of(m, open, 0, 0, 6, 5),
                   row1 = addr_of(m, open, 0, 0, 6, kRowSlots);
    const uint64_t wrow0 = addr_of(m, open, 0, 0, 8, 0), wrow1 = addr_of(m, open, 0, 0, 8, kRowSlots);
    REQUIRE(m.row_of(row0) == m.row_of(row0_b));
    REQUIRE(m.row_of(row0) != m.row_of(row1));
    REQUIRE(m.bank_of(row0) == m.bank_of(row1));
    size_t o_miss = 0, o_hit = 0, o_conf = 0, o_wmiss = 0, o_wconf = 0, c_a = 0, c_b = 0, c_c = 0;
    auto script = [&](size_t& miss, size_t& hit, size_t& conf) {
        return [&, row0, row0_b, row1](AtInitiator& i) {
            // Spaced so that the closed-page bank has precharged in between.
            miss = i.transact_read(row0);
            sc_core::wait(ns(100));
            hit = i.transact_read(row0_b);
            sc_core::wait(ns(100));
            conf = i.transact_read(row1);
        };
    };
    AtBench o("open", open, 0, 0, [&](AtInitiator& i) {
        script(o_miss, o_hit, o_conf)(i);
        // A write, then a read of another row of the bank: tWR holds the precharge.
        o_wmiss = i.transact_write(wrow0, pattern(64, 1));
        o_wconf = i.transact_read(wrow1);
    });
    AtBench c("closed", closed, 0, 0, script(c_a, c_b, c_c));
    sc_core::sc_start();
    o.require_clean();
    c.require_clean();
    const auto& ot = o.init.txns;
    const auto& ct = c.init.txns;
    const VaultController& v = o.vault;
    using RO = VaultController::RowOutcome;
    CHECK(ot[o_miss].latency() == v.row_latency(RO::miss, false, 64));
    CHECK(ot[o_miss].latency() == ct[c_a].latency()); // first access: same in both policies
    CHECK(ot[o_hit].latency() == v.row_latency(RO::hit, false, 64));
    CHECK(ot[o_hit].latency() == ns(open.t_cl_ns + open.t_burst_ns));
    CHECK(ot[o_hit].latency() < ct[c_b].latency());
    // Row 0 has been open longer than tRAS: the conflict precharges at once.
    CHECK(ot[o_conf].latency() == v.row_latency(RO::conflict, false, 64));
    CHECK(ot[o_conf].latency() == ns(open.t_rp_ns + open.t_rcd_ns + open.t_cl_ns + open.t_burst_ns));
    CHECK(ot[o_conf].latency() > ct[c_c].latency());
    CHECK(ct[c_b].latency() == c.vault.access_latency(false, 64));
    CHECK(ct[c_c].latency() == c.vault.access_latency(false, 64));
    // Write miss, then a conflicting read: precharge waits tWR after the data.
    CHECK(ot[o_wmiss].latency() == v.row_latency(RO::miss, true, 64));
    CHECK(ot[o_wconf].latency() == ns(open.t_wr_ns) + v.row_latency(RO::conflict, false, 64));
    CHECK(v.row_hits() == 1);
    CHECK(v.row_misses() == 2);
    CHECK(v.row_conflicts() == 2);
    CHECK(v.at_row_open(6));
    CHECK(c.vault.row_hits() == 0);
    CHECK(c.vault.row_misses() == 3);
    CHECK(c.vault.row_conflicts() == 0);
}

TEST_CASE("memory: vault AT: FR-FCFS serves a younger row hit before an older row conflict",
          "[memory][vault][at][scheduler]") {
    const MemoryParams open = params_with(PagePolicy::open), closed = params_with(PagePolicy::closed);
    const AddressMap m(4, 16, open);
    const uint64_t row0 = addr_of(m, open, 0, 0, 3, 0), row0_b = addr_of(m, open, 0, 0, 3, 1),
                   row0_c = addr_of(m, open, 0, 0, 3, 2), row1 = addr_of(m, open, 0, 0, 3, kRowSlots);
    struct Ids {
        size_t open_row = 0, busy = 0, conflict = 0, hit = 0;
    };
    Ids oi, ci;
    auto script = [&](Ids& ids) {
        return [&](AtInitiator& i) {
            ids.open_row = i.transact_read(row0); // row 0 open (open page)
            ids.busy = i.read(row0_b);            // keeps the bank busy
            ids.conflict = i.read(row1);          // older, other row
            ids.hit = i.read(row0_c);             // younger, open row
        };
    };
    AtBench o("open", open, 0, 0, script(oi));
    AtBench c("closed", closed, 0, 0, script(ci));
    sc_core::sc_start();
    o.require_clean();
    c.require_clean();
    const auto& ot = o.init.txns;
    const auto& ct = c.init.txns;
    // All three were queued at the same time, the conflict first.
    CHECK(ot[oi.conflict].begin_req == ot[oi.hit].begin_req);
    CHECK(ot[oi.conflict].end_req <= ot[oi.hit].begin_req);
    // Open page: FR-FCFS picks the row hit first.
    CHECK(ot[oi.busy].order == 2);
    CHECK(ot[oi.hit].order == 3);
    CHECK(ot[oi.conflict].order == 4);
    CHECK(ot[oi.hit].begin_resp < ot[oi.conflict].begin_resp);
    const VaultController& v = o.vault;
    const sc_time burst = ns(open.t_burst_ns);
    const sc_time t0 = ot[oi.busy].begin_req;
    CHECK(ot[oi.busy].begin_resp == t0 + v.row_latency(VaultController::RowOutcome::hit, false, 64));
    CHECK(ot[oi.hit].begin_resp == t0 + burst + v.row_latency(VaultController::RowOutcome::hit, false, 64));
    CHECK(ot[oi.conflict].begin_resp ==
          t0 + 2 * burst + v.row_latency(VaultController::RowOutcome::conflict, false, 64));
    CHECK(v.row_hits() == 2);
    CHECK(v.row_conflicts() == 1);
    CHECK(v.row_misses() == 1);
    CHECK(v.max_queue_occupancy() == 2);
    // Closed page: no row hits, first come first served.
    CHECK(ct[ci.busy].order == 2);
    CHECK(ct[ci.conflict].order == 3);
    CHECK(ct[ci.hit].order == 4);
    CHECK(c.vault.row_hits() == 0);
}

TEST_CASE("memory: vault AT: a full queue withholds END_REQ and every request completes",
          "[memory][vault][at][backpressure]") {
    const MemoryParams p = params_with(PagePolicy::closed, 2);
    const AddressMap m(4, 16, p);
    std::vector<size_t> ids;
    std::vector<size_t> spread;
    AtBench b("full", p, 0, 0, [&](AtInitiator& i) {
        // Four reads to one bank at t = 0, pipelined.
        for (uint64_t k = 0; k < 4; ++k) ids.push_back(i.read(addr_of(m, p, 0, 0, 7, k * kRowSlots)));
    });
    AtBench s("spread", p, 0, 0, [&](AtInitiator& i) {
        // Four reads to four banks: each is issued at once, the queue never fills.
        for (unsigned k = 0; k < 4; ++k) spread.push_back(i.read(addr_of(m, p, 0, 0, k)));
    });
    sc_core::sc_start();
    b.require_clean();
    s.require_clean();
    const auto& t = b.init.txns;
    const sc_time occ = b.vault.bank_occupancy(false, 64), lat = b.vault.access_latency(false, 64);
    // The first is issued at once, the next two wait in the queue (2 slots),
    // the fourth is accepted only when the second goes to the bank.
    for (size_t k = 0; k < 3; ++k) CHECK(t[ids[k]].end_req == SC_ZERO_TIME);
    CHECK(t[ids[3]].begin_req == SC_ZERO_TIME);
    CHECK(t[ids[3]].end_req == occ);
    for (size_t k = 0; k < 4; ++k) {
        CHECK(t[ids[k]].status == tlm::TLM_OK_RESPONSE);
        CHECK(t[ids[k]].latency() == static_cast<double>(k) * occ + lat);
    }
    CHECK(b.vault.backpressured() == 1);
    CHECK(b.vault.max_queue_occupancy() == 2);
    CHECK(b.vault.reads() == 4);
    // Latency counts from BEGIN_REQ, so it includes the withheld time.
    CHECK(b.vault.total_latency() == 6.0 * occ + 4.0 * lat);
    CHECK(b.vault.queueing_delay() == 6.0 * occ);
    CHECK(s.vault.backpressured() == 0);
    CHECK(s.vault.max_queue_occupancy() == 1);
    for (size_t id : spread) {
        CHECK(s.init.txns[id].end_req == SC_ZERO_TIME);
        CHECK(s.init.txns[id].latency() == lat);
    }
}

TEST_CASE("memory: vault AT: more requests in flight to one bank raise the average latency",
          "[memory][vault][at][timing]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    auto addr = [&](unsigned bank, unsigned k) { return addr_of(m, p, 0, 0, bank, k * kRowSlots); };
    AtBench one("one", p, 0, 0, [&](AtInitiator& i) {
        for (unsigned k = 0; k < 4; ++k) {
            i.transact_read(addr(4, k)); // one in flight
            sc_core::wait(ns(200));      // bank idle again
        }
    });
    AtBench seq("seq", p, 0, 0, [&](AtInitiator& i) {
        for (unsigned k = 0; k < 4; ++k) i.transact_read(addr(4, k)); // back to back
    });
    AtBench four("four", p, 0, 0, [&](AtInitiator& i) {
        for (unsigned k = 0; k < 4; ++k) i.read(addr(4, k)); // four in flight
    });
    AtBench banks("banks", p, 0, 0, [&](AtInitiator& i) {
        for (unsigned k = 0; k < 4; ++k) i.read(addr(k, 0)); // four in flight, four banks
    });
    sc_core::sc_start();
    for (AtBench* b : {&one, &seq, &four, &banks}) b->require_clean();
    const sc_time occ = one.vault.bank_occupancy(false, 64), lat = one.vault.access_latency(false, 64);
    CHECK(one.vault.average_latency() == lat);
    CHECK(banks.vault.average_latency() == lat);
    CHECK(seq.vault.average_latency() == (lat + 3.0 * occ) / 4.0);
    CHECK(four.vault.average_latency() == lat + 1.5 * occ);
    CHECK(four.vault.average_latency() > seq.vault.average_latency());
    CHECK(seq.vault.average_latency() > one.vault.average_latency());
    CHECK(four.vault.average_queueing_delay() == 1.5 * occ);
    CHECK(one.vault.queueing_delay() == SC_ZERO_TIME);
    CHECK(four.vault.bank_conflicts(4) == 3);
    CHECK(four.vault.max_queue_occupancy() == 3);
}

TEST_CASE("memory: vault AT: transport_dbg in the middle changes no timing", "[memory][vault][at][debug]") {
    const MemoryParams p = params_with(PagePolicy::open);
    const AddressMap m(4, 16, p);
    const uint64_t a = addr_of(m, p, 0, 0, 2, 0), b_row0 = addr_of(m, p, 0, 0, 2, 3),
                   c_row1 = addr_of(m, p, 0, 0, 2, kRowSlots), dbg_addr = addr_of(m, p, 0, 0, 2, 9);
    const auto dbg_data = pattern(64, 42);
    unsigned dbg_bytes = 0;
    sc_time before, after;
    size_t dbg_read = 0;
    auto script = [&](bool with_debug) {
        return [&, with_debug](AtInitiator& i) {
            i.read(a);
            i.read(c_row1);
            if (with_debug) {
                before = sc_core::sc_time_stamp();
                for (int k = 0; k < 20; ++k) {
                    auto buf = dbg_data;
                    dbg_bytes += i.debug(tlm::TLM_WRITE_COMMAND, dbg_addr, buf.data(), 64);
                    dbg_bytes += i.debug(tlm::TLM_READ_COMMAND, c_row1, buf.data(), 64);
                }
                after = sc_core::sc_time_stamp();
            }
            i.read(b_row0);
            i.wait_all();
            const size_t id = i.transact_read(dbg_addr);
            if (with_debug) dbg_read = id;
        };
    };
    AtBench plain("plain", p, 0, 0, script(false));
    AtBench dbg("dbg", p, 0, 0, script(true));
    sc_core::sc_start();
    plain.require_clean();
    dbg.require_clean();
    CHECK(dbg_bytes == 40 * 64);
    CHECK(before == after);
    REQUIRE(plain.init.txns.size() == dbg.init.txns.size());
    for (size_t k = 0; k < plain.init.txns.size(); ++k) {
        CHECK(plain.init.txns[k].end_req == dbg.init.txns[k].end_req);
        CHECK(plain.init.txns[k].begin_resp == dbg.init.txns[k].begin_resp);
    }
    CHECK(dbg.init.txns[dbg_read].data == dbg_data); // the debug write landed
    CHECK(dbg.vault.row_hits() == plain.vault.row_hits());
    CHECK(dbg.vault.row_conflicts() == plain.vault.row_conflicts());
    CHECK(dbg.vault.reads() == 4);
    CHECK(dbg.vault.writes() == 0);
    CHECK(dbg.vault.total_latency() == plain.vault.total_latency());
}

TEST_CASE("memory: vault AT: responses wait for END_RESP of the previous one (response exclusion)",
          "[memory][vault][at]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    std::vector<size_t> ids;
    AtBench b("slow", p, 0, 0, [&](AtInitiator& i) {
        for (unsigned k = 0; k < 4; ++k) ids.push_back(i.read(addr_of(m, p, 0, 0, k))); // four banks
    });
    b.init.end_resp_delay = ns(10);
    sc_core::sc_start();
    b.require_clean();
    const auto& t = b.init.txns;
    const sc_time lat = b.vault.access_latency(false, 64);
    // Data of all four is done at `lat`; BEGIN_RESP goes one at a time, each
    // after the END_RESP of the one before.
    for (size_t k = 0; k < 4; ++k) {
        CHECK(t[ids[k]].order == k + 1);
        CHECK(t[ids[k]].begin_resp == lat + static_cast<double>(k) * ns(10));
    }
    CHECK(b.vault.total_latency() == 4.0 * lat + ns(60));
}

TEST_CASE("memory: vault AT: a bad address or byte enables get an error response through the AT path",
          "[memory][vault][at][error]") {
    const MemoryParams p;
    const AddressMap m(4, 16, p);
    const std::vector<uint8_t> enables(64, 0xFF);
    size_t other_unit = 0, other_vault = 0, io = 0, be = 0, ok = 0;
    const auto warnings_before = sc_core::sc_report_handler::get_count(sc_core::SC_WARNING);
    AtBench b("err", p, 1, 0, [&](AtInitiator& i) {
        sc_core::wait(ns(10));
        other_unit = i.read(addr_of(m, p, 0, 0, 0));                   // unit 0 memory
        other_vault = i.write(addr_of(m, p, 1, 1, 0), pattern(64, 3)); // unit 1, vault 1
        io = i.read(AddressMap::kIoBase);
        i.wait_all();
        be = i.issue(tlm::TLM_WRITE_COMMAND, m.unit_base(1), pattern(64, 5), enables.data());
        i.wait_all();
        ok = i.transact_read(m.unit_base(1));
    });
    sc_core::sc_start();
    b.require_clean();
    const auto& t = b.init.txns;
    for (size_t id : {other_unit, other_vault, io}) {
        CHECK(t[id].status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
        CHECK(t[id].end_req == ns(10));    // the usual END_REQ first
        CHECK(t[id].begin_resp == ns(10)); // errors cost no time
    }
    CHECK(t[be].status == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    CHECK(t[ok].status == tlm::TLM_OK_RESPONSE);
    CHECK(t[ok].latency() == b.vault.access_latency(false, 64));
    CHECK(b.vault.errors() == 4);
    CHECK(b.vault.accesses() == 1);
    CHECK(b.vault.average_latency() == b.vault.access_latency(false, 64)); // errors not counted
    CHECK(b.store.bytes_allocated() == 0);
    CHECK(sc_core::sc_report_handler::get_count(sc_core::SC_WARNING) - warnings_before == 3);
}

TEST_CASE("memory: vault AT: b_transport still works on a vault driven through nb_transport", "[memory][vault][at]") {
    // Both styles on one instance (not mixed at one time): the LT path keeps its
    // closed-page timeline, the AT path its row state.
    const MemoryParams p = params_with(PagePolicy::open);
    const AddressMap m(4, 16, p);
    const uint64_t a = addr_of(m, p, 0, 0, 1, 0);
    MemoryParams params = p;
    AddressMap map(4, 16, params);
    BackingStore store;
    VaultController vault("vault", 0, 0, params, map, store);
    BaseProtocolCheck checker("checker");
    sc_time lt_delay;
    std::vector<uint8_t> lt_data(64);
    size_t at_read = 0;
    AtInitiator at("at", [&](AtInitiator& i) {
        i.transact_write(a, pattern(64, 9));
        at_read = i.transact_read(a); // row hit
    });
    ScriptInitiator lt("lt", [&](ScriptInitiator& i) {
        sc_core::wait(ns(500));
        sc_time d;
        i.read(a, lt_data, d);
        lt_delay = d;
    });
    // The vault has one target socket: a small fan-in forwards nb_transport
    // from the AT initiator and b_transport from the LT initiator to it.
    struct Fan : sc_core::sc_module {
        tlm_utils::simple_target_socket<Fan> at_in, lt_in;
        tlm_utils::simple_initiator_socket<Fan> out;
        explicit Fan(const sc_core::sc_module_name& n) : sc_module(n), at_in("at_in"), lt_in("lt_in"), out("out") {
            at_in.register_nb_transport_fw(this, &Fan::fw);
            lt_in.register_b_transport(this, &Fan::bt);
            out.register_nb_transport_bw(this, &Fan::bw);
        }
        tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
            return out->nb_transport_fw(t, ph, d);
        }
        tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
            return at_in->nb_transport_bw(t, ph, d);
        }
        void bt(tlm::tlm_generic_payload& t, sc_time& d) { out->b_transport(t, d); }
    } fan("fan");
    at.socket.bind(checker.in);
    checker.out.bind(fan.at_in);
    lt.socket.bind(fan.lt_in);
    fan.out.bind(vault.socket);
    sc_core::sc_start();
    REQUIRE(at.done());
    REQUIRE(lt.done());
    CHECK(checker.violations().empty());
    CHECK(at.txns[at_read].data == pattern(64, 9));
    CHECK(at.txns[at_read].latency() == vault.row_latency(VaultController::RowOutcome::hit, false, 64));
    CHECK(lt_data == pattern(64, 9));
    CHECK(lt_delay == vault.access_latency(false, 64)); // LT: closed page whatever page_policy says
    CHECK(vault.reads() == 2);
    CHECK(vault.writes() == 1);
}
