// Crossbar and inter-unit link, approximately-timed path (docs/crossbar.md,
// docs/link.md, "AT"). AT initiators (PayloadPool payloads, 4-phase base
// protocol, BEGIN_RESP answered with TLM_COMPLETED) and small AT targets
// (accept at once or withhold END_REQ, respond after a fixed latency) drive
// the models through the project's ProtocolChecker on every binding. Each
// TEST_CASE elaborates its own design and calls sc_start once (ctest runs
// every case in its own process); processes record what they saw and the test
// asserts after sc_start returns. Where an LT number is the reference, an LT
// bench in the same elaboration measures it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/params.h"
#include "models/interconnect/crossbar.h"
#include "models/interconnect/link.h"
#include "models/interconnect/router.h"
#include "models/memory/backing_store.h"
#include "models/tlm/payload_pool.h"
#include "models/tlm/protocol_checker.h"
#include "testbenches/tests/at_script_initiator.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using syncron::test::ns;
using syncron::test::RecordingTarget;
using syncron::test::ScriptInitiator;

namespace {

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + 7 * i);
    return v;
}

/// Checker violations are counted and displayed instead of thrown, so a test
/// can list them after sc_start.
struct QuietChecker : ProtocolChecker {
    explicit QuietChecker(const sc_core::sc_module_name& n) : ProtocolChecker(n) {
        ProtocolChecker::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY);
    }
};

using AtInitiator = syncron::test::AtScriptInitiator;

struct AtTargetConfig {
    sc_time latency = SC_ZERO_TIME;         ///< END_REQ to BEGIN_RESP
    sc_time hold_until = SC_ZERO_TIME;      ///< no END_REQ before this time
    sc_time accept_interval = SC_ZERO_TIME; ///< at least this between END_REQs
};

/// AT memory-like target. A request is accepted (END_REQ) at
/// max(its BEGIN_REQ, hold_until, previous acceptance + accept_interval):
/// at once by default (TLM_UPDATED), later on the backward path otherwise
/// (a slow target withholding END_REQ). Its data is moved at acceptance and
/// BEGIN_RESP follows `latency` later (one response in its phase at a time).
class AtTarget : public sc_core::sc_module {
public:
    using Config = AtTargetConfig;
    struct Seen {
        uint64_t addr;
        unsigned len;
        tlm::tlm_command cmd;
        sc_time begin_req, end_req;
    };

    tlm_utils::simple_target_socket<AtTarget> socket;
    BackingStore store;
    std::vector<Seen> seen; ///< in BEGIN_REQ order

    AtTarget(const sc_core::sc_module_name& n, Config c = Config())
        : sc_module(n), socket("socket"), m_cfg(c), m_accept_peq(this, &AtTarget::accept_cb),
          m_resp_peq(this, &AtTarget::resp_cb) {
        socket.register_nb_transport_fw(this, &AtTarget::nb_transport_fw);
    }

    size_t requests() const { return seen.size(); }
    /// Protocol mistakes the target saw (request exclusion, unknown phases).
    unsigned errors() const { return m_errors; }

private:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
        const sc_time now = sc_core::sc_time_stamp();
        if (ph == tlm::BEGIN_REQ) {
            if (m_req_open) ++m_errors;
            m_req_open = true;
            t.acquire();
            m_index[&t] = seen.size();
            seen.push_back(Seen{t.get_address(), t.get_data_length(), t.get_command(), now + d, {}});
            sc_time when = std::max(now + d, m_cfg.hold_until);
            if (m_accepted_any) when = std::max(when, m_last_accept + m_cfg.accept_interval);
            if (when == now) {
                accept(t);
                ph = tlm::END_REQ;
                d = SC_ZERO_TIME;
                return tlm::TLM_UPDATED;
            }
            m_accept_peq.notify(t, tlm::END_REQ, when - now);
            return tlm::TLM_ACCEPTED;
        }
        if (ph == tlm::END_RESP) {
            if (m_responding != &t) ++m_errors;
            finish(t);
            send();
            return tlm::TLM_COMPLETED;
        }
        ++m_errors;
        return tlm::TLM_COMPLETED;
    }

    void accept(tlm::tlm_generic_payload& t) {
        m_req_open = false;
        m_accepted_any = true;
        m_last_accept = sc_core::sc_time_stamp();
        seen[m_index.at(&t)].end_req = m_last_accept;
        if (t.is_write())
            store.write(t.get_address(), t.get_data_ptr(), t.get_data_length());
        else if (t.is_read())
            store.read(t.get_address(), t.get_data_ptr(), t.get_data_length());
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        m_resp_peq.notify(t, tlm::BEGIN_RESP, m_cfg.latency);
    }

    void accept_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase&) {
        accept(t);
        tlm::tlm_phase ph = tlm::END_REQ;
        sc_time d = SC_ZERO_TIME;
        socket->nb_transport_bw(t, ph, d);
    }

    void resp_cb(tlm::tlm_generic_payload& t, const tlm::tlm_phase&) {
        m_ready.push_back(&t);
        send();
    }

    void send() {
        while (m_responding == nullptr && !m_ready.empty()) {
            tlm::tlm_generic_payload* t = m_ready.front();
            m_ready.pop_front();
            m_responding = t;
            tlm::tlm_phase ph = tlm::BEGIN_RESP;
            sc_time d = SC_ZERO_TIME;
            const tlm::tlm_sync_enum s = socket->nb_transport_bw(*t, ph, d);
            if (s != tlm::TLM_COMPLETED && !(s == tlm::TLM_UPDATED && ph == tlm::END_RESP)) return;
            finish(*t);
        }
    }

    void finish(tlm::tlm_generic_payload& t) {
        m_responding = nullptr;
        m_index.erase(&t);
        t.release();
    }

    Config m_cfg;
    tlm_utils::peq_with_cb_and_phase<AtTarget> m_accept_peq, m_resp_peq;
    std::unordered_map<const tlm::tlm_generic_payload*, size_t> m_index;
    std::deque<tlm::tlm_generic_payload*> m_ready;
    tlm::tlm_generic_payload* m_responding = nullptr;
    bool m_req_open = false;
    bool m_accepted_any = false;
    sc_time m_last_accept;
    unsigned m_errors = 0;
};

/// Port = addr / 0x1000 for the first `ports` windows, anything else unmapped.
class WindowRouter : public Router {
public:
    explicit WindowRouter(int ports) : m_ports(ports) {}
    int route(uint64_t addr) const override {
        const uint64_t p = addr / 0x1000;
        return p < static_cast<uint64_t>(m_ports) ? static_cast<int>(p) : -1;
    }

private:
    int m_ports;
};

class AllToZero : public Router {
public:
    int route(uint64_t) const override { return 0; }
};

/// N AT initiators -> checkers -> crossbar -> checkers -> M AT targets.
/// `prefix` names the modules so several benches fit one elaboration.
struct XbarAtBench {
    WindowRouter router;
    Crossbar xbar;
    std::vector<std::unique_ptr<AtInitiator>> inits;
    std::vector<std::unique_ptr<AtTarget>> targets;
    std::vector<std::unique_ptr<QuietChecker>> checkers;

    XbarAtBench(const std::string& prefix, std::vector<AtInitiator::Script> scripts,
                std::vector<AtTarget::Config> target_cfgs, const XbarParams& p = XbarParams())
        : router(static_cast<int>(target_cfgs.size())), xbar((prefix + "_xbar").c_str(), p, &router) {
        for (size_t k = 0; k < scripts.size(); ++k) {
            inits.push_back(
                std::make_unique<AtInitiator>((prefix + "_init" + std::to_string(k)).c_str(), std::move(scripts[k])));
            checkers.push_back(std::make_unique<QuietChecker>((prefix + "_chk_in" + std::to_string(k)).c_str()));
            inits.back()->socket.bind(checkers.back()->target);
            checkers.back()->initiator.bind(xbar.in);
        }
        for (size_t k = 0; k < target_cfgs.size(); ++k) {
            targets.push_back(
                std::make_unique<AtTarget>((prefix + "_tgt" + std::to_string(k)).c_str(), target_cfgs[k]));
            checkers.push_back(std::make_unique<QuietChecker>((prefix + "_chk_out" + std::to_string(k)).c_str()));
            xbar.out.bind(checkers.back()->target);
            checkers.back()->initiator.bind(targets.back()->socket);
        }
    }

    /// Every transaction completed, the protocol was respected, nothing leaked.
    void require_clean() const {
        for (const auto& i : inits) {
            REQUIRE(i->done());
            CHECK(i->pool.in_use() == 0);
        }
        for (const auto& c : checkers) {
            for (const auto& m : c->messages()) UNSCOPED_INFO(m);
            CHECK(c->violations() == 0);
            CHECK(c->in_flight() == 0);
        }
        for (const auto& t : targets) CHECK(t->errors() == 0);
        CHECK(xbar.at_in_flight() == 0);
        for (unsigned p = 0; p < xbar.num_ports(); ++p) CHECK(xbar.queue_occupancy(p) == 0);
    }
};

/// One AT initiator -> checker -> link -> checker -> AT target.
struct LinkAtBench {
    Link link;
    AtTarget target;
    AtInitiator init;
    QuietChecker chk_in, chk_out;

    LinkAtBench(const std::string& prefix, AtInitiator::Script script, const LinkParams& p = LinkParams(),
                AtTarget::Config tc = AtTarget::Config(), unsigned src = 0, unsigned dst = 1)
        : link((prefix + "_link").c_str(), src, dst, p), target((prefix + "_tgt").c_str(), tc),
          init((prefix + "_init").c_str(), std::move(script)), chk_in((prefix + "_chk_in").c_str()),
          chk_out((prefix + "_chk_out").c_str()) {
        init.socket.bind(chk_in.target);
        chk_in.initiator.bind(link.in);
        link.out.bind(chk_out.target);
        chk_out.initiator.bind(target.socket);
    }

    void require_clean() const {
        REQUIRE(init.done());
        CHECK(init.pool.in_use() == 0);
        for (const QuietChecker* c : {&chk_in, &chk_out}) {
            for (const auto& m : c->messages()) UNSCOPED_INFO(m);
            CHECK(c->violations() == 0);
            CHECK(c->in_flight() == 0);
        }
        CHECK(target.errors() == 0);
        CHECK(link.queue_occupancy() == 0);
    }
};

/// Fixed pipeline part of a link's latency (latency_ns includes one 64 B line).
double link_fixed_ns(const LinkParams& p = LinkParams()) { return std::max(0.0, p.latency_ns - 64 / p.bandwidth_gbps); }

} // namespace

// ---------------------------------------------------------------- crossbar

TEST_CASE("interconnect: crossbar AT: routes N initiators to M targets and each response back to its initiator",
          "[interconnect][xbar][at]") {
    constexpr unsigned kInits = 3, kTargets = 3;
    std::vector<AtInitiator::Script> scripts;
    std::vector<std::vector<size_t>> reads(kInits);
    for (unsigned k = 0; k < kInits; ++k)
        scripts.push_back([&reads, k](AtInitiator& i) {
            // A distinct word per (initiator, target), then read them all
            // back, pipelined (the reads wait for nothing but END_REQ).
            std::vector<size_t> writes;
            for (unsigned t = 0; t < kTargets; ++t)
                writes.push_back(i.write(t * 0x1000 + k * 8, pattern(8, static_cast<uint8_t>(16 * k + t))));
            for (size_t w : writes) i.wait_done(w);
            for (unsigned t = 0; t < kTargets; ++t) reads[k].push_back(i.read(t * 0x1000 + k * 8, 8));
        });
    AtTarget::Config slowish;
    slowish.latency = ns(7); // responses of different targets interleave
    XbarAtBench b("b", std::move(scripts), {AtTarget::Config(), slowish, AtTarget::Config()});
    sc_core::sc_start();

    b.require_clean();
    for (unsigned k = 0; k < kInits; ++k)
        for (unsigned t = 0; t < kTargets; ++t) {
            INFO("initiator " << k << ", target " << t);
            const auto& x = b.inits[k]->txns[reads[k][t]];
            CHECK(x.status == tlm::TLM_OK_RESPONSE);
            CHECK(x.data == pattern(8, static_cast<uint8_t>(16 * k + t)));
        }
    for (unsigned t = 0; t < kTargets; ++t) {
        CHECK(b.targets[t]->requests() == 2 * kInits);
        for (const auto& s : b.targets[t]->seen) CHECK(s.addr / 0x1000 == t); // addresses are not translated
        CHECK(b.xbar.transfers(t) == 2 * kInits);
        CHECK(b.xbar.bytes(t) == 8 * 2 * kInits);
    }
    CHECK(b.xbar.unrouted() == 0);
}

TEST_CASE("interconnect: crossbar AT: the hop latency equals the LT hop latency in both directions",
          "[interconnect][xbar][at][timing]") {
    // LT reference in the same elaboration.
    sc_time lt_d1, lt_d2;
    AllToZero lt_router;
    Crossbar lt_xbar("lt_xbar", XbarParams(), &lt_router);
    RecordingTarget lt_tgt("lt_tgt");
    ScriptInitiator lt_init("lt_init", [&](ScriptInitiator& i) {
        sc_time d;
        i.write64(0x10, 5, d);
        lt_d1 = d;
        d = ns(100);
        i.write64(0x20, 5, d);
        lt_d2 = d;
    });
    lt_init.socket.bind(lt_xbar.in);
    lt_xbar.out.bind(lt_tgt.socket);

    size_t w1 = 0, w2 = 0;
    AtTarget::Config tc;
    tc.latency = ns(10);
    XbarAtBench b("at", {[&](AtInitiator& i) {
                      w1 = i.write(0x10, pattern(8, 1));
                      i.wait_done(w1);
                      // A timing annotation on BEGIN_REQ: the crossbar takes it at t + 100 ns.
                      w2 = i.write(0x20, pattern(8, 2), ns(100) - sc_core::sc_time_stamp());
                  }},
                  {tc});
    sc_core::sc_start();

    b.require_clean();
    const sc_time hop = b.xbar.hop_latency();
    CHECK(hop == ns(0.8));
    CHECK(lt_d1 == hop);
    CHECK(lt_d2 == ns(100) + hop);
    const auto& t0 = b.targets[0]->seen;
    REQUIRE(t0.size() == 2);
    CHECK(t0[0].begin_req - b.inits[0]->txns[w1].begin_req == lt_d1);
    CHECK(t0[1].begin_req == lt_d2); // the annotated request: 100 ns + the hop
    // The response crosses the crossbar back with the hop latency too.
    CHECK(b.inits[0]->txns[w1].begin_resp == t0[0].end_req + tc.latency + hop);
    CHECK(b.inits[0]->txns[w2].begin_resp == ns(100) + hop + tc.latency + hop);
    CHECK(b.inits[0]->txns[w1].end_req == b.inits[0]->txns[w1].begin_req); // accepted at once
    CHECK(b.xbar.total_queueing_delay() == SC_ZERO_TIME);
    CHECK(b.xbar.max_queue_occupancy(0) == 1);
}

TEST_CASE("interconnect: crossbar AT: two inputs to one output serialize as in LT",
          "[interconnect][xbar][at][timing]") {
    // 64 B (4 flits) and 8 B (1 flit) transfers, two initiators to output 0 at
    // t = 0 and a third to output 1; LT benches give the reference delays.
    struct LtRef {
        AllToZero r0;
        WindowRouter r{2};
        Crossbar xbar;
        RecordingTarget t0, t1;
        std::vector<std::unique_ptr<ScriptInitiator>> inits;
        sc_time d[3];
        LtRef(const std::string& prefix, unsigned len)
            : xbar((prefix + "_xbar").c_str(), XbarParams(), &r), t0((prefix + "_t0").c_str()),
              t1((prefix + "_t1").c_str()) {
            const uint64_t addr[3] = {0x000, 0x040, 0x1000};
            for (unsigned k = 0; k < 3; ++k) {
                inits.push_back(std::make_unique<ScriptInitiator>((prefix + "_i" + std::to_string(k)).c_str(),
                                                                  [this, k, len, a = addr[k]](ScriptInitiator& i) {
                                                                      std::vector<uint8_t> v(len, 1);
                                                                      sc_time dd;
                                                                      i.write(a, v, dd);
                                                                      d[k] = dd;
                                                                  }));
                inits.back()->socket.bind(xbar.in);
            }
            xbar.out.bind(t0.socket);
            xbar.out.bind(t1.socket);
        }
    };
    LtRef lt64("lt64", 64), lt8("lt8", 8);
    auto scripts = [](unsigned len) {
        std::vector<AtInitiator::Script> s;
        for (uint64_t a : {0x000, 0x040, 0x1000})
            s.push_back([a, len](AtInitiator& i) { i.write(a, pattern(len, 3)); });
        return s;
    };
    XbarAtBench b64("at64", scripts(64), {AtTarget::Config(), AtTarget::Config()});
    XbarAtBench b8("at8", scripts(8), {AtTarget::Config(), AtTarget::Config()});
    sc_core::sc_start();

    const sc_time hop = ns(0.8);
    for (XbarAtBench* b : {&b64, &b8}) {
        b->require_clean();
        REQUIRE(b->targets[0]->seen.size() == 2);
        REQUIRE(b->targets[1]->seen.size() == 1);
    }
    // LT: the loser waits for the winner's flits.
    CHECK(std::min(lt64.d[0], lt64.d[1]) == hop);
    CHECK(std::max(lt64.d[0], lt64.d[1]) == hop + ns(1.6));
    CHECK(std::max(lt8.d[0], lt8.d[1]) == hop + ns(0.4));
    // AT: the same arrival times at the target.
    CHECK(b64.targets[0]->seen[0].begin_req == std::min(lt64.d[0], lt64.d[1]));
    CHECK(b64.targets[0]->seen[1].begin_req == std::max(lt64.d[0], lt64.d[1]));
    CHECK(b64.targets[1]->seen[0].begin_req == lt64.d[2]); // another output is not affected
    CHECK(b8.targets[0]->seen[0].begin_req == std::min(lt8.d[0], lt8.d[1]));
    CHECK(b8.targets[0]->seen[1].begin_req == std::max(lt8.d[0], lt8.d[1]));
    CHECK(b8.targets[1]->seen[0].begin_req == lt8.d[2]);
    // Statistics: one transfer queued for 4 flits (1 flit), both sat in the queue.
    CHECK(b64.xbar.queueing_delay(0) == ns(1.6));
    CHECK(b64.xbar.queueing_delay(1) == SC_ZERO_TIME);
    CHECK(b64.xbar.total_queueing_delay() == lt64.xbar.total_queueing_delay());
    CHECK(b8.xbar.queueing_delay(0) == ns(0.4));
    CHECK(b64.xbar.max_queue_occupancy(0) == 2);
    CHECK(b64.xbar.max_queue_occupancy(1) == 1);
    CHECK(b64.xbar.port_timeline(0).busy_time() == ns(3.2));
    CHECK(b64.xbar.withheld(0) == 0);
}

TEST_CASE("interconnect: crossbar AT: a target withholding END_REQ fills the output queue and the crossbar "
          "withholds END_REQ until it is released",
          "[interconnect][xbar][at][backpressure]") {
    // Target 0 accepts nothing before 200 ns, then one request per 10 ns.
    // Three initiators pipeline 6 writes each to it; a fourth only uses
    // target 1, which the full queue of output 0 must not block.
    constexpr unsigned kPer = 6;
    const sc_time release = ns(200), interval = ns(10);
    std::vector<AtInitiator::Script> scripts;
    for (unsigned k = 0; k < 3; ++k)
        scripts.push_back([k](AtInitiator& i) {
            for (unsigned n = 0; n < kPer; ++n)
                i.write(0x100 * k + 8 * n, pattern(8, static_cast<uint8_t>(10 * k + n)));
        });
    scripts.push_back([](AtInitiator& i) {
        sc_core::wait(ns(5)); // the queue of output 0 is full by now
        for (unsigned n = 0; n < 5; ++n) i.write(0x1000 + 8 * n, pattern(8, 99));
    });
    AtTarget::Config slow;
    slow.hold_until = release;
    slow.accept_interval = interval;
    const XbarParams xp; // queue_depth 8
    XbarAtBench b("b", std::move(scripts), {slow, AtTarget::Config()}, xp);
    sc_core::sc_start();

    b.require_clean();
    // Before the release exactly queue_depth requests were accepted for output 0.
    size_t early = 0, total = 0;
    sc_time first_late = sc_core::SC_ZERO_TIME;
    bool any_late = false;
    for (unsigned k = 0; k < 3; ++k) {
        early += b.inits[k]->accepted_before(release);
        total += b.inits[k]->txns.size();
        for (const auto& x : b.inits[k]->txns) {
            CHECK(x.status == tlm::TLM_OK_RESPONSE);
            if (x.end_req >= release && (!any_late || x.end_req < first_late)) {
                first_late = x.end_req;
                any_late = true;
            }
        }
    }
    CHECK(total == 3 * kPer);
    CHECK(early == xp.queue_depth);
    CHECK(b.xbar.max_queue_occupancy(0) == xp.queue_depth);
    CHECK(b.xbar.withheld(0) >= 3); // each initiator was held at least once
    REQUIRE(any_late);
    CHECK(first_late == release); // the target's first END_REQ frees a slot at once
    // The target took them one per 10 ns from the release on.
    const auto& seen = b.targets[0]->seen;
    REQUIRE(seen.size() == 3 * kPer);
    for (size_t n = 0; n < seen.size(); ++n) CHECK(seen[n].end_req == release + interval * static_cast<double>(n));
    // The other output was not blocked.
    for (const auto& x : b.inits[3]->txns) CHECK(x.begin_resp < ns(10));
    CHECK(b.xbar.withheld(1) == 0);
    // Data arrived intact.
    for (unsigned k = 0; k < 3; ++k)
        for (unsigned n = 0; n < kPer; ++n) {
            std::vector<uint8_t> v(8);
            b.targets[0]->store.read(0x100 * k + 8 * n, v.data(), 8);
            CHECK(v == pattern(8, static_cast<uint8_t>(10 * k + n)));
        }
    CHECK(b.xbar.queueing_delay(0) > sc_core::SC_ZERO_TIME);
}

TEST_CASE("interconnect: crossbar AT: an unroutable address gets END_REQ then TLM_ADDRESS_ERROR_RESPONSE",
          "[interconnect][xbar][at][error]") {
    const auto warnings_before = sc_core::sc_report_handler::get_count(sc_core::SC_WARNING);
    size_t bad = 0, good = 0;
    XbarAtBench b("b", {[&](AtInitiator& i) {
                      i.wait_done(bad = i.read(0x5000, 8));
                      good = i.write(0x1008, pattern(8, 4)); // the crossbar still works
                  }},
                  {AtTarget::Config(), AtTarget::Config()});
    sc_core::sc_start();

    b.require_clean();
    const auto& x = b.inits[0]->txns[bad];
    CHECK(x.status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(x.end_req == SC_ZERO_TIME);
    CHECK(x.begin_resp == SC_ZERO_TIME); // no time charged, as in LT
    CHECK(b.inits[0]->txns[good].status == tlm::TLM_OK_RESPONSE);
    CHECK(b.xbar.unrouted() == 1);
    CHECK(b.targets[0]->requests() == 0);
    CHECK(b.targets[1]->requests() == 1);
    CHECK(sc_core::sc_report_handler::get_count(sc_core::SC_WARNING) - warnings_before == 1);
}

// ---------------------------------------------------------------- link

TEST_CASE("interconnect: link AT: one transfer takes the LT latency", "[interconnect][link][at][timing]") {
    const LinkParams lp;
    sc_time lt64, lt32, lt8;
    Link lt_link("lt_link", 0, 1, lp);
    RecordingTarget lt_tgt("lt_tgt");
    ScriptInitiator lt_init("lt_init", [&](ScriptInitiator& i) {
        std::vector<uint8_t> line(64, 3), half(32, 4);
        sc_time d;
        i.write(0x100, line, d);
        lt64 = d;
        d = ns(1000);
        i.write(0x200, half, d);
        lt32 = d - ns(1000);
        d = ns(2000);
        i.read64(0x100, d);
        lt8 = d - ns(2000);
    });
    lt_init.socket.bind(lt_link.in);
    lt_link.out.bind(lt_tgt.socket);

    size_t w64 = 0, w32 = 0, r8 = 0;
    LinkAtBench b("at", [&](AtInitiator& i) {
        i.wait_done(w64 = i.write(0x100, pattern(64, 1)));
        sc_core::wait(ns(1000) - sc_core::sc_time_stamp());
        i.wait_done(w32 = i.write(0x200, pattern(32, 2)));
        sc_core::wait(ns(2000) - sc_core::sc_time_stamp());
        i.wait_done(r8 = i.read(0x100, 8));
    });
    sc_core::sc_start();

    b.require_clean();
    CHECK(lt64 == ns(lp.latency_ns));
    CHECK(lt32 == ns(link_fixed_ns(lp) + 32 / lp.bandwidth_gbps));
    const auto& seen = b.target.seen;
    REQUIRE(seen.size() == 3);
    const auto& tx = b.init.txns;
    CHECK(seen[0].begin_req - tx[w64].begin_req == lt64);
    CHECK(seen[1].begin_req - tx[w32].begin_req == lt32);
    CHECK(seen[2].begin_req - tx[r8].begin_req == lt8);
    // Without a reverse link the response passes back free (as in LT).
    CHECK(tx[w64].begin_resp == seen[0].end_req);
    const auto written = pattern(64, 1);
    CHECK(tx[r8].data == std::vector<uint8_t>(written.begin(), written.begin() + 8));
    CHECK(b.link.transfers() == lt_link.transfers());
    CHECK(b.link.bytes() == lt_link.bytes());
    CHECK(b.link.busy_time() == lt_link.busy_time());
    CHECK(b.link.queueing_delay() == SC_ZERO_TIME);
    CHECK(b.link.max_queue_occupancy() == 1);
    CHECK(b.link.withheld() == 0);
}

TEST_CASE("interconnect: link AT: many pipelining initiators saturate it at no more than 12.8 GB/s",
          "[interconnect][link][at][bandwidth]") {
    // 8 initiators pipeline 40 writes of 64 B each through a crossbar onto
    // one link: far more than the link can carry, so back-pressure reaches
    // the initiators through the crossbar.
    constexpr unsigned kInits = 8, kPer = 40;
    const LinkParams lp;
    AllToZero router;
    Crossbar xbar("xbar", XbarParams(), &router);
    Link link("link", 0, 1, lp);
    AtTarget tgt("tgt");
    QuietChecker chk_link("chk_link"), chk_tgt("chk_tgt");
    std::vector<std::unique_ptr<AtInitiator>> inits;
    for (unsigned k = 0; k < kInits; ++k) {
        inits.push_back(std::make_unique<AtInitiator>(("init" + std::to_string(k)).c_str(), [k](AtInitiator& i) {
            for (unsigned n = 0; n < kPer; ++n) i.write((k * kPer + n) * 64, pattern(64, static_cast<uint8_t>(k)));
        }));
        inits.back()->socket.bind(xbar.in);
    }
    xbar.out.bind(chk_link.target);
    chk_link.initiator.bind(link.in);
    link.out.bind(chk_tgt.target);
    chk_tgt.initiator.bind(tgt.socket);
    sc_core::sc_start();

    for (const auto& i : inits) {
        REQUIRE(i->done());
        CHECK(i->pool.in_use() == 0);
    }
    CHECK(chk_link.violations() == 0);
    CHECK(chk_tgt.violations() == 0);
    const auto& seen = tgt.seen;
    REQUIRE(seen.size() == kInits * kPer);
    // Never above the bandwidth: consecutive deliveries are at least one
    // serialization (5 ns for 64 B) apart, over any window.
    const sc_time ser = link.serialization(64);
    sc_time min_gap = seen[1].begin_req - seen[0].begin_req;
    for (size_t n = 1; n < seen.size(); ++n) min_gap = std::min(min_gap, seen[n].begin_req - seen[n - 1].begin_req);
    CHECK(min_gap >= ser);
    const sc_time window = seen.back().begin_req - seen.front().begin_req + ser;
    const double gbps = 64.0 * static_cast<double>(seen.size()) / (window.to_seconds() * 1e9);
    INFO("delivered " << gbps << " GB/s");
    CHECK(gbps <= lp.bandwidth_gbps);
    CHECK(gbps > 11.0);
    CHECK(link.achieved_gbps(window) <= lp.bandwidth_gbps);
    CHECK(link.max_queue_occupancy() == lp.queue_depth);
    CHECK(link.withheld() > 0);
    CHECK(xbar.withheld(0) > 0);
    CHECK(xbar.max_queue_occupancy(0) == XbarParams().queue_depth);
    CHECK(link.queue_occupancy() == 0);
    CHECK(xbar.at_in_flight() == 0);
}

TEST_CASE("interconnect: link AT: queue_depth 2 withholds END_REQ until a transfer leaves",
          "[interconnect][link][at][backpressure]") {
    LinkParams lp;
    lp.queue_depth = 2;
    constexpr unsigned kN = 6;
    LinkAtBench b(
        "b",
        [](AtInitiator& i) {
            for (unsigned n = 0; n < kN; ++n) i.write(64 * n, pattern(64, static_cast<uint8_t>(n)));
        },
        lp);
    sc_core::sc_start();

    b.require_clean();
    const double fixed = link_fixed_ns(lp), ser = 64 / lp.bandwidth_gbps; // 35, 5
    // Two credits: a transfer is accepted only when the one two places ahead
    // has been delivered, so they arrive in pairs one line latency apart
    // (40, 45, 80, 85, 120, 125 ns): 3.2 GB/s instead of 12.8.
    const auto& seen = b.target.seen;
    REQUIRE(seen.size() == kN);
    const auto& tx = b.init.txns;
    for (unsigned n = 0; n < kN; ++n) {
        INFO("transfer " << n);
        const sc_time accepted = n < 2 ? SC_ZERO_TIME : seen[n - 2].end_req;
        CHECK(tx[n].end_req == accepted); // END_REQ withheld until a credit returns
        const sc_time start = std::max(accepted, n == 0 ? SC_ZERO_TIME : seen[n - 1].begin_req - ns(fixed));
        CHECK(seen[n].begin_req == start + ns(ser + fixed));
    }
    CHECK(seen[0].begin_req == ns(40));
    CHECK(seen[1].begin_req == ns(45));
    CHECK(seen[2].begin_req == ns(80));
    CHECK(seen[3].begin_req == ns(85));
    CHECK(seen[5].begin_req == ns(125));
    CHECK(b.link.max_queue_occupancy() == 2);
    CHECK(b.link.withheld() == kN - 2);
}

TEST_CASE("interconnect: link AT and LT: a READ's data returns on the reverse link and delays its traffic",
          "[interconnect][link][at][reverse]") {
    // A (unit 0) reads 64 B from unit 1 at t = 0; B (unit 1) writes 64 B to
    // unit 0 at t = 37 ns. The read request carries no data (35 ns fixed
    // latency); its data is serialized on link 1->0 during [35, 40), so B's
    // write waits until 40 ns; its response (no data) comes back over 0->1 in
    // the fixed latency.
    const LinkParams lp;
    const double fixed = link_fixed_ns(lp), ser = 64 / lp.bandwidth_gbps;

    // AT
    size_t rd = 0, wr = 0;
    LinkAtBench a(
        "atA", [&](AtInitiator& i) { rd = i.read(0x40, 64); }, lp, AtTarget::Config(), 0, 1);
    LinkAtBench b(
        "atB",
        [&](AtInitiator& i) {
            sc_core::wait(ns(37));
            wr = i.write(0x80, pattern(64, 5));
        },
        lp, AtTarget::Config(), 1, 0);
    a.link.set_reverse(&b.link);
    b.link.set_reverse(&a.link);
    a.target.store.write(0x40, pattern(64, 9).data(), 64);

    // LT, the same story
    Link l01("lt01", 0, 1, lp), l10("lt10", 1, 0, lp);
    l01.set_reverse(&l10);
    l10.set_reverse(&l01);
    RecordingTarget lt_t1("lt_t1"), lt_t0("lt_t0");
    sc_time lt_rd, lt_wr, lt_t0_arrival;
    ScriptInitiator lt_a("lt_a", [&](ScriptInitiator& i) {
        std::vector<uint8_t> v(64);
        sc_time d;
        i.read(0x40, v, d);
        lt_rd = d;
    });
    ScriptInitiator lt_b("lt_b", [&](ScriptInitiator& i) {
        sc_core::wait(ns(1)); // after A has booked the reverse link
        sc_time d = ns(36);
        i.write(0x80, pattern(64, 5), d);
        lt_wr = sc_core::sc_time_stamp() + d;
        lt_t0_arrival = lt_t0.last_arrival();
    });
    lt_a.socket.bind(l01.in);
    l01.out.bind(lt_t1.socket);
    lt_b.socket.bind(l10.in);
    l10.out.bind(lt_t0.socket);
    sc_core::sc_start();

    a.require_clean();
    b.require_clean();
    const auto& r = a.init.txns[rd];
    const auto& w = b.init.txns[wr];
    CHECK(r.data == pattern(64, 9));
    REQUIRE(a.target.seen.size() == 1);
    REQUIRE(b.target.seen.size() == 1);
    CHECK(a.target.seen[0].begin_req == ns(fixed));                     // 35: a read request carries no data
    CHECK(r.begin_resp == ns(fixed + ser + fixed));                     // 75: data on the reverse link
    CHECK(b.target.seen[0].begin_req == ns(fixed + ser + ser + fixed)); // 80, not 77: waited for the read data
    CHECK(w.begin_resp == b.target.seen[0].begin_req + ns(fixed));      // 115: a write response has no data
    CHECK(b.link.queueing_delay() == ns(3));
    CHECK(b.link.bytes() == 128);
    CHECK(b.link.response_transfers() == 1);
    CHECK(a.link.bytes() == 0);
    CHECK(a.link.response_transfers() == 0);
    // LT tells the same story.
    CHECK(lt_rd == r.begin_resp);
    CHECK(lt_t0_arrival == b.target.seen[0].begin_req);
    CHECK(lt_wr == w.begin_resp);
    CHECK(l10.queueing_delay() == b.link.queueing_delay());
    CHECK(l10.bytes() == b.link.bytes());
    CHECK(l01.bytes() == a.link.bytes());
}

TEST_CASE("interconnect: crossbar + link AT: a remote read pays both crossbars both ways and the link both ways",
          "[interconnect][xbar][link][at][integration]") {
    // core -> xbar0 -> link 0->1 -> xbar1 -> target, response back over
    // xbar1 -> link 1->0 (reverse) -> xbar0.
    const LinkParams lp;
    AllToZero r;
    Crossbar xbar0("xbar0", XbarParams(), &r), xbar1("xbar1", XbarParams(), &r);
    Link l01("l01", 0, 1, lp), l10("l10", 1, 0, lp);
    l01.set_reverse(&l10);
    l10.set_reverse(&l01);
    AtTarget::Config tc;
    tc.latency = ns(20);
    AtTarget tgt("tgt", tc);
    size_t rd = 0;
    AtInitiator core("core", [&](AtInitiator& i) { rd = i.read(0x1234 & ~7ull, 8); });
    QuietChecker c0("c0"), c1("c1"), c2("c2"), c3("c3");
    core.socket.bind(c0.target);
    c0.initiator.bind(xbar0.in);
    xbar0.out.bind(c1.target);
    c1.initiator.bind(l01.in);
    l01.out.bind(c2.target);
    c2.initiator.bind(xbar1.in);
    xbar1.out.bind(c3.target);
    c3.initiator.bind(tgt.socket);
    // The reverse link only carries the response data here; its own sockets
    // are bound to idle modules so elaboration completes.
    ScriptInitiator idle("idle", [](ScriptInitiator&) {});
    RecordingTarget sink("sink");
    idle.socket.bind(l10.in);
    l10.out.bind(sink.socket);
    sc_core::sc_start();

    REQUIRE(core.done());
    for (const QuietChecker* c : {&c0, &c1, &c2, &c3}) CHECK(c->violations() == 0);
    CHECK(core.pool.in_use() == 0);
    const double hop = 0.8, fixed = link_fixed_ns(lp), ser8 = 8 / lp.bandwidth_gbps;
    CHECK(core.txns[rd].status == tlm::TLM_OK_RESPONSE);
    CHECK(tgt.seen.at(0).begin_req == ns(hop + fixed + hop));
    CHECK(core.txns[rd].latency() == ns(hop + fixed + hop + 20 + hop + ser8 + fixed + hop));
    CHECK(l10.response_transfers() == 1);
    CHECK(l10.bytes() == 8);
}
