// Crossbar and inter-unit link. Each TEST_CASE elaborates its own design and
// calls sc_start once (ctest runs every case in its own process).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/interconnect/crossbar.h"
#include "models/interconnect/link.h"
#include "models/interconnect/router.h"
#include "models/memory/backing_store.h"
#include "models/memory/vault_controller.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using syncron::test::ns;
using syncron::test::QuantumKeeper;
using syncron::test::RecordingTarget;
using syncron::test::ScriptInitiator;
using sc_core::sc_time;

namespace {

/// [0, 0x1000) -> port 0, [0x1000, 0x2000) -> port 1, anything else unmapped.
class TwoWindowRouter : public Router {
public:
    int route(uint64_t addr) const override {
        if (addr < 0x1000) return 0;
        if (addr < 0x2000) return 1;
        return -1;
    }
};

/// Every address to port 0.
class AllToZero : public Router {
public:
    int route(uint64_t) const override { return 0; }
};

/// Crossbar with n initiators in front and two recording targets behind.
struct XbarBench {
    TwoWindowRouter router;
    Crossbar xbar;
    RecordingTarget t0, t1;
    std::vector<std::unique_ptr<ScriptInitiator>> inits;

    explicit XbarBench(std::vector<ScriptInitiator::Script> scripts, const XbarParams& p = XbarParams())
        : xbar("xbar", p), t0("t0"), t1("t1") {
        xbar.set_router(&router);
        for (size_t k = 0; k < scripts.size(); ++k) {
            inits.push_back(
                std::make_unique<ScriptInitiator>(("init" + std::to_string(k)).c_str(), std::move(scripts[k])));
            inits.back()->socket.bind(xbar.in);
        }
        xbar.out.bind(t0.socket);
        xbar.out.bind(t1.socket);
    }
};

/// An initiator driving one link into a recording target.
struct LinkBench {
    Link link;
    RecordingTarget target;
    ScriptInitiator init;

    explicit LinkBench(ScriptInitiator::Script script, const LinkParams& p = LinkParams())
        : link("link", 0, 1, p), target("target"), init("init", std::move(script)) {
        init.socket.bind(link.in);
        link.out.bind(target.socket);
    }
};

/// Fixed pipeline part of a link's latency: latency_ns is one 64 B line,
/// serialization included.
double link_fixed_ns(const LinkParams& p = LinkParams()) { return std::max(0.0, p.latency_ns - 64 / p.bandwidth_gbps); }

/// `cores` temporally decoupled initiators, each doing `per_core` blocking
/// 64 B writes back to back, through a crossbar onto one link. Each core keeps
/// its own quantum, so benches with different quanta share one elaboration.
struct LinkTraffic : sc_core::sc_module {
    AllToZero router;
    Crossbar xbar;
    Link link;
    RecordingTarget target;
    std::vector<std::unique_ptr<ScriptInitiator>> cores;
    unsigned n_cores, per_core;
    sc_time quantum;
    sc_time end;       ///< latest local time at which a core finished its writes
    sc_time first_end; ///< earliest one (the spread shows how unfair the order was)

    LinkTraffic(const sc_core::sc_module_name& name, unsigned n, unsigned per, sc_time q)
        : sc_module(name), xbar("xbar", XbarParams(), &router), link("link", 0, 1, LinkParams()), target("target"),
          n_cores(n), per_core(per), quantum(q) {
        for (unsigned c = 0; c < n; ++c) {
            cores.push_back(
                std::make_unique<ScriptInitiator>(("core" + std::to_string(c)).c_str(), [this, c](ScriptInitiator& i) {
                    QuantumKeeper qk(quantum);
                    qk.reset();
                    std::vector<uint8_t> line(64, static_cast<uint8_t>(c));
                    for (unsigned k = 0; k < per_core; ++k) {
                        sc_time d = qk.get_local_time();
                        i.write((c * per_core + k) * 64, line, d);
                        qk.set(d);
                        if (qk.need_sync()) qk.sync();
                    }
                    const sc_time done = qk.get_current_time();
                    end = std::max(end, done);
                    first_end = first_end == sc_core::SC_ZERO_TIME ? done : std::min(first_end, done);
                    qk.sync();
                }));
            cores.back()->socket.bind(xbar.in);
        }
        xbar.out.bind(link.in);
        link.out.bind(target.socket);
    }

    double gbps() const { return link.achieved_gbps(end); }
    /// Mean wait for the link per transfer, in ns.
    double link_wait_ns() const {
        return link.queueing_delay().to_seconds() * 1e9 / static_cast<double>(link.transfers());
    }
};

} // namespace

TEST_CASE("interconnect: crossbar: routes by address to its output ports", "[interconnect][xbar]") {
    tlm::tlm_response_status s0{}, s1{};
    uint64_t r0 = 0, r1 = 0;
    XbarBench b({[&](ScriptInitiator& i) {
        sc_time d;
        s0 = i.write64(0x0040, 0x1111, d);
        s1 = i.write64(0x1040, 0x2222, d);
        r0 = i.read64(0x0040, d);
        r1 = i.read64(0x1040, d);
    }});
    sc_core::sc_start();
    CHECK(s0 == tlm::TLM_OK_RESPONSE);
    CHECK(s1 == tlm::TLM_OK_RESPONSE);
    CHECK(r0 == 0x1111);
    CHECK(r1 == 0x2222);
    CHECK(b.t0.transports() == 2);
    CHECK(b.t1.transports() == 2);
    CHECK(b.t1.last_address() == 0x1040); // addresses are not translated
    CHECK(b.xbar.num_ports() == 2);
    CHECK(b.xbar.transfers(0) == 2);
    CHECK(b.xbar.bytes(1) == 16);
    CHECK(b.xbar.total_transfers() == 4);
    CHECK(b.xbar.total_bytes() == 32);
}

TEST_CASE("interconnect: crossbar: unmapped address gives TLM_ADDRESS_ERROR_RESPONSE", "[interconnect][xbar][error]") {
    tlm::tlm_response_status st{}, dbg_st{};
    unsigned dbg_n = 99;
    sc_time d_err;
    const auto warnings_before = sc_core::sc_report_handler::get_count(sc_core::SC_WARNING);
    XbarBench b({[&](ScriptInitiator& i) {
        sc_time d;
        st = i.write64(0x5000, 1, d);
        d_err = d;
        uint64_t v = 0;
        dbg_n = i.debug(tlm::TLM_READ_COMMAND, 0x5000, reinterpret_cast<uint8_t*>(&v), 8, &dbg_st);
    }});
    sc_core::sc_start();
    CHECK(st == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(dbg_st == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(dbg_n == 0);
    CHECK(d_err == sc_core::SC_ZERO_TIME);
    CHECK(b.t0.transports() + b.t1.transports() == 0);
    CHECK(b.xbar.unrouted() == 1);
    CHECK(b.xbar.total_transfers() == 0);
    CHECK(sc_core::sc_report_handler::get_count(sc_core::SC_WARNING) - warnings_before == 1);
}

TEST_CASE("interconnect: crossbar: hop latency is arbiter + hop cycles (0.8 ns at 2.5 GHz)",
          "[interconnect][xbar][timing]") {
    sc_time d1, d2;
    XbarBench b({[&](ScriptInitiator& i) {
        sc_time d;
        i.write64(0x10, 5, d);
        d1 = d;
        d = ns(100); // temporally decoupled request: timing starts at its effective time
        i.write64(0x20, 5, d);
        d2 = d;
    }});
    sc_core::sc_start();
    CHECK(b.xbar.hop_latency() == ns(0.8));
    CHECK(d1 == ns(0.8));
    CHECK(d2 == ns(100.8));
    CHECK(b.t0.last_arrival() == ns(100.8)); // the target sees the hop already added
    CHECK(b.xbar.total_queueing_delay() == sc_core::SC_ZERO_TIME);
}

TEST_CASE("interconnect: crossbar: output-port contention adds delay", "[interconnect][xbar][timing]") {
    // Two initiators send 64 B at the same time to port 0; a third goes to port 1.
    std::vector<uint8_t> line(64, 1);
    sc_time a, c, other;
    XbarBench b({[&](ScriptInitiator& i) {
                     sc_time d;
                     i.write(0x000, line, d);
                     a = d;
                 },
                 [&](ScriptInitiator& i) {
                     sc_time d;
                     i.write(0x040, line, d);
                     c = d;
                 },
                 [&](ScriptInitiator& i) {
                     sc_time d;
                     i.write(0x1000, line, d);
                     other = d;
                 }});
    sc_core::sc_start();
    const sc_time hop = ns(0.8);
    const sc_time ser = ns(4 * 0.4); // 64 B = 4 flits of 16 B, one per 2.5 GHz cycle
    CHECK(std::min(a, c) == hop);
    CHECK(std::max(a, c) == hop + ser); // the loser waits for the port
    CHECK(other == hop);                // another port is not affected
    CHECK(b.xbar.total_queueing_delay() == ser);
    CHECK(b.xbar.port_busy_until(0) == 2 * ser);
    CHECK(b.xbar.bytes(0) == 128);
}

TEST_CASE("interconnect: crossbar: a port booked ahead by a decoupled initiator does not delay an earlier transfer",
          "[interconnect][xbar][timing]") {
    // Init 0 runs first and books port 0 at t = 100 ns; init 1, simulated
    // after it but at t = 0, finds the port idle. Init 2 arrives while the
    // future booking holds the port and waits for it.
    std::vector<uint8_t> line(64, 1);
    sc_time ahead, early, overlapping;
    const sc_time hop = ns(0.8), ser = ns(4 * 0.4);
    XbarBench b({[&](ScriptInitiator& i) {
                     sc_time d = ns(100);
                     i.write(0x000, line, d);
                     ahead = d;
                 },
                 [&](ScriptInitiator& i) {
                     sc_time d;
                     i.write(0x040, line, d);
                     early = d;
                 },
                 [&](ScriptInitiator& i) {
                     sc_time d = ns(100) - ser / 2;
                     i.write(0x080, line, d);
                     overlapping = d;
                 }});
    sc_core::sc_start();
    CHECK(ahead == ns(100) + hop);
    CHECK(early == hop);
    CHECK(overlapping == ns(100) + ser + hop);
    CHECK(b.xbar.total_queueing_delay() == ser / 2 + ser);
    CHECK(b.xbar.port_busy_until(0) == ns(100) + 2 * ser);
    CHECK(b.xbar.port_timeline(0).busy_time() == 3 * ser);
}

TEST_CASE("interconnect: crossbar: a small transfer holds the port at least one flit", "[interconnect][xbar][timing]") {
    sc_time d1, d2;
    XbarBench b({[&](ScriptInitiator& i) {
        sc_time x, y;
        uint8_t byte = 1;
        i.transport(tlm::TLM_WRITE_COMMAND, 0x0, &byte, 1, x);
        i.transport(tlm::TLM_WRITE_COMMAND, 0x1, &byte, 1, y);
        d1 = x;
        d2 = y;
    }});
    sc_core::sc_start();
    CHECK(b.xbar.flits(0) == 1);
    CHECK(b.xbar.flits(17) == 2);
    CHECK(d1 == ns(0.8));
    CHECK(d2 == ns(0.8 + 0.4));
}

TEST_CASE("interconnect: crossbar: transport_dbg forwards without timing", "[interconnect][xbar][debug]") {
    unsigned n = 0;
    uint64_t v = 0;
    XbarBench b({[&](ScriptInitiator& i) {
        uint64_t w = 0xfeed;
        n = i.debug(tlm::TLM_WRITE_COMMAND, 0x1008, reinterpret_cast<uint8_t*>(&w), 8);
        i.debug(tlm::TLM_READ_COMMAND, 0x1008, reinterpret_cast<uint8_t*>(&v), 8);
    }});
    sc_core::sc_start();
    CHECK(n == 8);
    CHECK(v == 0xfeed);
    CHECK(b.t1.debug_transports() == 2);
    CHECK(b.xbar.total_transfers() == 0);
    CHECK(b.xbar.port_busy_until(1) == sc_core::SC_ZERO_TIME);
}

TEST_CASE("interconnect: link: one 64 B line takes latency_ns, other sizes add len/bandwidth",
          "[interconnect][link][timing]") {
    const LinkParams lp;
    const double fixed = link_fixed_ns(lp); // 40 - 5 = 35 ns
    sc_time d64, d128, d8;
    std::vector<uint8_t> line(64, 3), two(128, 4);
    LinkBench b([&](ScriptInitiator& i) {
        sc_time d;
        i.write(0x100, line, d);
        d64 = d;
        d = ns(1000); // well after the link is free again
        i.write(0x200, two, d);
        d128 = d;
        d = ns(2000);
        i.read64(0x100, d);
        d8 = d;
    });
    sc_core::sc_start();
    CHECK(d64 == ns(lp.latency_ns)); // the paper's "40 ns per 64 B cache line"
    CHECK(d128 == ns(1000 + fixed + 128 / lp.bandwidth_gbps));
    CHECK(d8 == ns(2000 + fixed + 8 / lp.bandwidth_gbps));
    CHECK(b.link.latency() == ns(fixed));
    CHECK(b.link.transfer_latency(64) == ns(lp.latency_ns));
    CHECK(b.link.transfers() == 3);
    CHECK(b.link.bytes() == 200);
    CHECK(b.link.busy_time() == ns(200 / lp.bandwidth_gbps));
    CHECK(b.link.queueing_delay() == sc_core::SC_ZERO_TIME);
    CHECK(b.link.src_unit() == 0);
    CHECK(b.link.dst_unit() == 1);
    CHECK(b.target.store().bytes_allocated() > 0); // data went through
}

TEST_CASE("interconnect: link: a latency below the line serialization leaves no fixed part",
          "[interconnect][link][timing]") {
    LinkParams lp;
    lp.latency_ns = 1.0; // < 64 B / 12.8 GB/s = 5 ns
    sc_time d64, d8;
    std::vector<uint8_t> line(64, 3);
    LinkBench b(
        [&](ScriptInitiator& i) {
            sc_time d;
            i.write(0x100, line, d);
            d64 = d;
            d = ns(100);
            i.read64(0x100, d);
            d8 = d - ns(100);
        },
        lp);
    sc_core::sc_start();
    CHECK(b.link.latency() == sc_core::SC_ZERO_TIME);
    CHECK(d64 == ns(64 / lp.bandwidth_gbps)); // serialization only
    CHECK(d8 == ns(8 / lp.bandwidth_gbps));
}

TEST_CASE("interconnect: link: back-to-back 64 B transfers cannot exceed 12.8 GB/s",
          "[interconnect][link][bandwidth]") {
    // All N transfers are offered at the same effective time (as if posted).
    constexpr unsigned kN = 200;
    const LinkParams lp;
    const double ser = 64 / lp.bandwidth_gbps; // 5 ns
    std::vector<uint8_t> line(64, 9);
    sc_time last;
    LinkBench b([&](ScriptInitiator& i) {
        for (unsigned k = 0; k < kN; ++k) {
            sc_time d;
            i.write(64 * k, line, d);
            last = std::max(last, d);
        }
    });
    sc_core::sc_start();
    const sc_time floor = ns(kN * ser);
    CHECK(last >= floor);
    CHECK(last == floor + ns(link_fixed_ns(lp))); // fully pipelined behind the serializer
    CHECK(b.link.achieved_gbps(last) <= lp.bandwidth_gbps);
    CHECK(b.link.achieved_gbps(floor) == Approx(lp.bandwidth_gbps));
    CHECK(b.link.utilization(floor) == Approx(1.0));
    CHECK(b.link.busy_until() == floor);
    // Waits: 0, 5, 10, ... ns.
    CHECK(b.link.queueing_delay() == ns(ser * kN * (kN - 1) / 2));
    CHECK(b.link.serializer().size() == 1); // touching bookings merged
}

TEST_CASE("interconnect: link: a transfer simulated later but arriving earlier uses the idle link",
          "[interconnect][link][timing]") {
    const LinkParams lp;
    const double ser = 64 / lp.bandwidth_gbps;
    std::vector<uint8_t> line(64, 9);
    sc_time ahead, early;
    LinkBench b([&](ScriptInitiator& i) {
        sc_time d = ns(100); // an initiator running ahead books [100, 105)
        i.write(0x0, line, d);
        ahead = d;
        d = ns(50); // idle at 50: no wait
        i.write(0x40, line, d);
        early = d;
    });
    sc_core::sc_start();
    CHECK(ahead == ns(100 + lp.latency_ns));
    CHECK(early == ns(50 + lp.latency_ns));
    CHECK(b.link.queueing_delay() == sc_core::SC_ZERO_TIME);
    CHECK(b.link.busy_until() == ns(100 + ser));
}

TEST_CASE("interconnect: link: many decoupled initiators through a crossbar saturate it at 12.8 GB/s",
          "[interconnect][link][bandwidth]") {
    // 16 cores, each with one outstanding 64 B write, offer ~25 GB/s to one
    // link at the preset quantum (100 ns): the link must cap the throughput
    // and, with first-fit bookings, actually reach the cap.
    const CoreParams cp;
    LinkTraffic t("t", 16, 50, ns(cp.quantum_ns));
    sc_core::sc_start();

    const unsigned n = t.n_cores * t.per_core;
    CHECK(t.link.transfers() == n);
    CHECK(t.target.transports() == n);
    CHECK(t.end >= ns(n * 64 / 12.8));
    CHECK(t.gbps() <= 12.8);
    CHECK(t.gbps() > 12.0);
}

TEST_CASE("interconnect: link: temporal decoupling barely changes the bandwidth seen by 4 and 16 cores",
          "[interconnect][link][bandwidth][decoupling]") {
    // One elaboration holds a bench per (cores, quantum); docs/link.md
    // "LT contention and temporal decoupling" lists these numbers.
    constexpr unsigned kPerCore = 200;
    const std::vector<double> quanta{1, 10, 100, 1000};
    std::vector<std::unique_ptr<LinkTraffic>> b4, b16;
    for (double q : quanta) {
        const std::string tag = std::to_string(static_cast<int>(q));
        b4.push_back(std::make_unique<LinkTraffic>(("c4_q" + tag).c_str(), 4, kPerCore, ns(q)));
        b16.push_back(std::make_unique<LinkTraffic>(("c16_q" + tag).c_str(), 16, kPerCore, ns(q)));
    }
    sc_core::sc_start();

    std::printf("| quantum | 4 cores | 16 cores | 16 cores: mean link wait | 16 cores: first/last core done |\n"
                "|---|---|---|---|---|\n");
    for (size_t k = 0; k < quanta.size(); ++k)
        std::printf("| %g ns | %.2f GB/s | %.2f GB/s | %.1f ns | %.0f / %.0f ns |\n", quanta[k], b4[k]->gbps(),
                    b16[k]->gbps(), b16[k]->link_wait_ns(), b16[k]->first_end.to_seconds() * 1e9,
                    b16[k]->end.to_seconds() * 1e9);
    for (size_t k = 0; k < quanta.size(); ++k) {
        INFO("quantum " << quanta[k] << " ns");
        CHECK(b4[k]->link.transfers() == 4 * kPerCore);
        CHECK(b16[k]->link.transfers() == 16 * kPerCore);
        CHECK(b16[k]->gbps() <= 12.8);
        CHECK(b4[k]->gbps() <= 12.8);
    }
    // quanta[0] = 1 ns, quanta[2] = 100 ns (the preset)
    CHECK(b4[2]->gbps() >= 0.8 * b4[0]->gbps());
    CHECK(b16[2]->gbps() >= 0.8 * b16[0]->gbps());
}

TEST_CASE("interconnect: link + crossbar + vault: a remote access pays both hops + the link + the DRAM",
          "[interconnect][memory][integration]") {
    // unit 0 core -> xbar0 -> link 0->1 -> xbar1 -> vault 3 of unit 1
    const MemoryParams mp;
    const AddressMap map(4, 16, mp);
    class ToLink : public Router {
    public:
        int route(uint64_t) const override { return 0; }
    } r0;
    class ToVault : public Router {
    public:
        explicit ToVault(const AddressMap& m) : m_map(m) {}
        int route(uint64_t a) const override { return m_map.vault_of(a) == 3 ? 0 : -1; }

    private:
        const AddressMap& m_map;
    } r1(map);
    BackingStore store1;
    const uint64_t a = map.unit_base(1) + 3 * 64;
    uint64_t value = 0;
    sc_time d_write, d_read;
    ScriptInitiator core("core", [&](ScriptInitiator& i) {
        sc_time d;
        i.write64(a, 0xabcdef, d);
        d_write = d;
        d = ns(1000);
        value = i.read64(a, d);
        d_read = d - ns(1000);
    });
    Crossbar xbar0("xbar0", XbarParams(), &r0), xbar1("xbar1", XbarParams(), &r1);
    Link link("link01", 0, 1, LinkParams());
    VaultController vault("vault", 1, 3, mp, map, store1);
    core.socket.bind(xbar0.in);
    xbar0.out.bind(link.in);
    link.out.bind(xbar1.in);
    xbar1.out.bind(vault.socket);
    sc_core::sc_start();

    CHECK(value == 0xabcdef);
    const LinkParams lp;
    const double hops = 2 * 0.8, wire = link_fixed_ns(lp) + 8 / lp.bandwidth_gbps;
    CHECK(d_write == ns(hops + wire + mp.t_rcd_ns + mp.t_burst_ns));
    CHECK(d_read == ns(hops + wire + mp.t_rcd_ns + mp.t_cl_ns + mp.t_burst_ns));
}
