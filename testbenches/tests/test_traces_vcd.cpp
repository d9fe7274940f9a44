// VcdRecorder (traces/vcd_recorder.h) elaborated alone: a small SC_THREAD
// feeds it synthetic probe records -- some with times ahead of the kernel (as
// the loosely timed platform reports them), some out of order, some late --
// the simulation runs, the recorder is closed, and the VCD text is parsed and
// checked: declared signals ($var), value changes at the record times, the
// --trace-filter, bit-vector waiting lists, bad paths, and files left by a
// close() in mid-run or a simulation ended by an error.
//
// Each TEST_CASE elaborates its own kernel; ctest runs each in its own process.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>
#include <unistd.h>

#include "traces/vcd_recorder.h"

using namespace syncron;
using sc_core::sc_time;

namespace {

sc_time ns(double v) { return sc_time(v, sc_core::SC_NS); }
constexpr uint64_t kPsPerNs = 1000; // default resolution 1 ps = the VCD time unit

std::string temp_vcd(const std::string& tag) {
    return (std::filesystem::temp_directory_path() / ("syncron_vcd_" + std::to_string(getpid()) + "_" + tag + ".vcd"))
        .string();
}

/// Runs `body` as an SC_THREAD.
struct Feeder : sc_core::sc_module {
    SC_HAS_PROCESS(Feeder);
    Feeder(sc_core::sc_module_name n, std::function<void()> body) : sc_core::sc_module(n), m_body(std::move(body)) {
        SC_THREAD(run);
    }
    void run() { m_body(); }
    std::function<void()> m_body;
};

// ---------------------------------------------------------------- VCD parser

struct Vcd {
    struct Var {
        std::string id;
        unsigned width = 0;
        std::string range; ///< "[14:0]" or ""
    };
    std::string top_scope;
    std::string timescale;
    std::map<std::string, Var> vars; ///< by hierarchical name without the top scope
    std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> changes; ///< id -> (time, value)
    std::vector<uint64_t> stamps;
    bool ok = true;
    std::string error;

    std::vector<std::pair<uint64_t, uint64_t>> history(const std::string& name) const {
        auto v = vars.find(name);
        if (v == vars.end()) return {{~0ull, ~0ull}};
        auto c = changes.find(v->second.id);
        return c == changes.end() ? std::vector<std::pair<uint64_t, uint64_t>>{} : c->second;
    }
    bool strictly_increasing() const {
        for (size_t i = 1; i < stamps.size(); ++i)
            if (stamps[i] <= stamps[i - 1]) return false;
        return true;
    }
};

Vcd parse_vcd(const std::string& path) {
    Vcd vcd;
    std::ifstream in(path);
    if (!in) {
        vcd.ok = false;
        vcd.error = "cannot open " + path;
        return vcd;
    }
    std::vector<std::string> tok;
    for (std::string w; in >> w;) tok.push_back(w);
    const auto fail = [&](const std::string& why) {
        if (vcd.ok) vcd.error = why;
        vcd.ok = false;
    };
    size_t i = 0;
    const auto until_end = [&](std::string* text) {
        for (++i; i < tok.size() && tok[i] != "$end"; ++i)
            if (text) *text += (text->empty() ? "" : " ") + tok[i];
        if (i == tok.size()) fail("unterminated block");
        ++i;
    };
    std::vector<std::string> scopes;
    bool defs_done = false;
    while (i < tok.size() && !defs_done) {
        const std::string& t = tok[i];
        if (t == "$date" || t == "$version" || t == "$comment") {
            until_end(nullptr);
        } else if (t == "$timescale") {
            until_end(&vcd.timescale);
        } else if (t == "$scope") {
            if (i + 3 >= tok.size() || tok[i + 3] != "$end") return fail("bad $scope"), vcd;
            if (scopes.empty() && vcd.top_scope.empty()) vcd.top_scope = tok[i + 2];
            scopes.push_back(tok[i + 2]);
            i += 4;
        } else if (t == "$upscope") {
            if (scopes.empty()) return fail("unbalanced $upscope"), vcd;
            scopes.pop_back();
            i += 2;
        } else if (t == "$var") {
            Vcd::Var v;
            if (i + 5 >= tok.size()) return fail("bad $var"), vcd;
            v.width = static_cast<unsigned>(std::stoul(tok[i + 2]));
            v.id = tok[i + 3];
            std::string ref = tok[i + 4];
            size_t j = i + 5;
            if (tok[j] != "$end") v.range = tok[j++];
            if (j >= tok.size() || tok[j] != "$end") return fail("bad $var end"), vcd;
            std::string full;
            for (size_t s = 1; s < scopes.size(); ++s) full += scopes[s] + ".";
            vcd.vars[full + ref] = v;
            i = j + 1;
        } else if (t == "$enddefinitions") {
            defs_done = true;
            i += 2;
        } else {
            return fail("unexpected header token " + t), vcd;
        }
    }
    if (!defs_done) return fail("no $enddefinitions"), vcd;
    if (!scopes.empty()) return fail("unclosed scope"), vcd;
    std::set<std::string> ids;
    for (const auto& [name, v] : vcd.vars) ids.insert(v.id);
    uint64_t now = 0;
    bool dumpvars = false;
    for (; i < tok.size(); ++i) {
        const std::string& t = tok[i];
        if (t == "$comment") {
            until_end(nullptr);
            --i;
        } else if (t == "$dumpvars") {
            dumpvars = true;
        } else if (t == "$end") {
            if (!dumpvars) fail("stray $end");
            dumpvars = false;
        } else if (t[0] == '#') {
            const uint64_t s = std::stoull(t.substr(1));
            if (!vcd.stamps.empty() && s < vcd.stamps.back()) fail("time goes back at " + t);
            vcd.stamps.push_back(s);
            now = s;
        } else if (t[0] == 'b' || t[0] == 'B') {
            if (i + 1 >= tok.size() || !ids.count(tok[i + 1])) return fail("bad vector change " + t), vcd;
            const std::string bits = t.substr(1);
            if (bits.empty() || bits.find_first_not_of("01") != std::string::npos) fail("non-binary value " + t);
            vcd.changes[tok[i + 1]].emplace_back(now, std::stoull(bits, nullptr, 2));
            ++i;
        } else if (t[0] == '0' || t[0] == '1') {
            if (!ids.count(t.substr(1))) return fail("unknown id in " + t), vcd;
            vcd.changes[t.substr(1)].emplace_back(now, uint64_t(t[0] - '0'));
        } else {
            return fail("unexpected token " + t), vcd;
        }
    }
    return vcd;
}

using History = std::vector<std::pair<uint64_t, uint64_t>>;

/// 2 units (3 and 2 client cores), one traced variable, both link
/// directions, one queue.
VcdLayout small_layout() {
    VcdLayout l;
    l.units = 2;
    l.client_cores = {3, 2};
    l.st_entries = 64;
    l.counters = 256;
    l.traced_vars = {0x10000};
    l.links = {{0, 1}, {1, 0}};
    l.queues = {"ndp.unit0_vault0"};
    return l;
}

CoreStateRecord core_state(unsigned unit, unsigned core, CoreActivity a, const char* op, uint64_t addr,
                           const sc_time& at) {
    CoreStateRecord r;
    r.unit = unit;
    r.core = core;
    r.activity = a;
    r.operation = op;
    r.addr = addr;
    r.at = at;
    return r;
}

ServiceRecord service(unsigned se, const sc_time& start, const sc_time& end, unsigned st, unsigned waiting,
                      unsigned counters, bool overflow) {
    ServiceRecord r;
    r.se = se;
    r.arrival = start;
    r.start = start;
    r.end = end;
    r.st_occupancy = st;
    r.buffer_waiting = waiting;
    r.counters_in_use = counters;
    r.overflow = overflow;
    return r;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("vcd: the layout's signals are declared under the SystemC scope", "[traces][vcd]") {
    const std::string path = temp_vcd("declare");
    VcdRecorder rec("vcd", path, small_layout());
    sc_core::sc_start();
    rec.close();
    const Vcd vcd = parse_vcd(path);
    INFO(vcd.error);
    REQUIRE(vcd.ok);
    CHECK(vcd.top_scope == "SystemC");
    CHECK(vcd.timescale == "1 ps");
    // 2 SEs x 5, (3 + 2) cores x 3, 1 variable x 2 SEs x 7, 2 links x 2, 1 queue.
    CHECK(vcd.vars.size() == 10 + 15 + 14 + 4 + 1);
    CHECK(rec.signals().size() == vcd.vars.size());
    for (const auto& name : rec.signals()) CHECK(vcd.vars.count(name) == 1);
    const std::map<std::string, unsigned> widths = {
        {"unit0.se.st_occupancy", 16},
        {"unit0.se.buffer_waiting", 32},
        {"unit1.se.spu_busy", 1},
        {"unit1.se.counters_in_use", 16},
        {"unit0.se.overflow", 1},
        {"unit0.core2.state", 2},
        {"unit0.core2.op", 8},
        {"unit1.core1.addr", 64},
        {"var_0x10000.unit0.lock_owner", 32},
        {"var_0x10000.unit0.local_waiting", 3},
        {"var_0x10000.unit1.local_waiting", 2},
        {"var_0x10000.unit1.global_waiting", 2},
        {"var_0x10000.unit1.barrier_count", 32},
        {"var_0x10000.unit0.sem_resources", 32},
        {"var_0x10000.unit0.buffered", 1},
        {"var_0x10000.unit1.in_memory", 1},
        {"link0to1.bytes_in_flight", 32},
        {"link1to0.transfers_in_flight", 32},
        {"queue.ndp.unit0_vault0.depth", 32},
    };
    for (const auto& [name, width] : widths) {
        INFO(name);
        REQUIRE(vcd.vars.count(name) == 1);
        CHECK(vcd.vars.at(name).width == width);
    }
    CHECK(vcd.vars.count("unit1.core2.state") == 0); // unit 1 has 2 client cores
    CHECK(vcd.vars.at("var_0x10000.unit0.local_waiting").range == "[2:0]");
    std::remove(path.c_str());
}

TEST_CASE("vcd: values change at the record times, ahead of time, out of order and late", "[traces][vcd]") {
    const std::string path = temp_vcd("times");
    VcdRecorder rec("vcd", path, small_layout());
    Feeder feed("feed", [&] {
        // t = 0: LT records ahead of the kernel, the later one first.
        rec.on_core_state(core_state(0, 0, CoreActivity::memory, "load", 0x2000, ns(50)));
        rec.on_core_state(core_state(0, 0, CoreActivity::waiting_sync, "lock_acquire_local", 0x10000, ns(20)));
        rec.on_service(service(0, ns(30), ns(40), 5, 2, 1, true));
        rec.on_link({0, 1, 18, false, ns(10), ns(12), ns(25)});
        rec.on_queue({"ndp.unit0_vault0", 3, ns(15)});
        rec.on_queue({"ndp.not_traced", 7, ns(15)});
        sc_core::wait(ns(60));
        // t = 60: a late record (55 ns) shows now; an older one (5 ns) is stale.
        rec.on_core_state(core_state(0, 0, CoreActivity::computing, "compute", 0, ns(55)));
        rec.on_core_state(core_state(0, 0, CoreActivity::done, "done", 0, ns(5)));
        // a record at the current time (AT) shows at once
        rec.on_core_state(core_state(0, 1, CoreActivity::memory, "store", 0x3000, ns(60)));
        sc_core::wait(ns(10));
    });
    sc_core::sc_start();
    CHECK(rec.pending() == 0);
    CHECK(rec.late_changes() == 3); // state, op, addr of the 55 ns record
    CHECK(rec.stale_changes() == 3);
    rec.close();
    const Vcd vcd = parse_vcd(path);
    INFO(vcd.error);
    REQUIRE(vcd.ok);
    CHECK(vcd.strictly_increasing());
    const uint64_t k = kPsPerNs;
    CHECK(vcd.history("unit0.core0.state") == History{{0, 0}, {20 * k, 2}, {50 * k, 1}, {60 * k, 0}});
    CHECK(vcd.history("unit0.core0.op") == History{{0, 0}, {20 * k, 10}, {50 * k, 2}, {60 * k, 1}});
    CHECK(vcd.history("unit0.core0.addr") == History{{0, 0}, {20 * k, 0x10000}, {50 * k, 0x2000}, {60 * k, 0}});
    CHECK(vcd.history("unit0.core1.state") == History{{0, 0}, {60 * k, 1}});
    CHECK(vcd.history("unit0.core1.op") == History{{0, 0}, {60 * k, 3}});
    CHECK(vcd.history("unit0.se.spu_busy") == History{{0, 0}, {30 * k, 1}, {40 * k, 0}});
    CHECK(vcd.history("unit0.se.overflow") == History{{0, 0}, {30 * k, 1}, {40 * k, 0}});
    CHECK(vcd.history("unit0.se.buffer_waiting") == History{{0, 0}, {30 * k, 2}, {40 * k, 1}});
    CHECK(vcd.history("unit0.se.st_occupancy") == History{{0, 0}, {40 * k, 5}});
    CHECK(vcd.history("unit0.se.counters_in_use") == History{{0, 0}, {40 * k, 1}});
    CHECK(vcd.history("unit1.se.spu_busy") == History{{0, 0}});
    CHECK(vcd.history("link0to1.bytes_in_flight") == History{{0, 0}, {10 * k, 18}, {25 * k, 0}});
    CHECK(vcd.history("link0to1.transfers_in_flight") == History{{0, 0}, {10 * k, 1}, {25 * k, 0}});
    CHECK(vcd.history("link1to0.bytes_in_flight") == History{{0, 0}});
    CHECK(vcd.history("queue.ndp.unit0_vault0.depth") == History{{0, 0}, {15 * k, 3}});
    std::remove(path.c_str());
}

TEST_CASE("vcd: back-to-back services keep the SPU busy", "[traces][vcd]") {
    const std::string path = temp_vcd("backtoback");
    VcdRecorder rec("vcd", path, small_layout());
    Feeder feed("feed", [&] {
        rec.on_service(service(1, ns(10), ns(20), 1, 2, 0, false));
        rec.on_service(service(1, ns(20), ns(30), 2, 1, 0, true)); // starts when the first ends
    });
    sc_core::sc_start();
    rec.close();
    const Vcd vcd = parse_vcd(path);
    INFO(vcd.error);
    REQUIRE(vcd.ok);
    const uint64_t k = kPsPerNs;
    CHECK(vcd.history("unit1.se.spu_busy") == History{{0, 0}, {10 * k, 1}, {30 * k, 0}});
    CHECK(vcd.history("unit1.se.overflow") == History{{0, 0}, {20 * k, 1}, {30 * k, 0}});
    CHECK(vcd.history("unit1.se.buffer_waiting") == History{{0, 0}, {10 * k, 2}, {20 * k, 1}, {30 * k, 0}});
    CHECK(vcd.history("unit1.se.st_occupancy") == History{{0, 0}, {20 * k, 1}, {30 * k, 2}});
    std::remove(path.c_str());
}

TEST_CASE("vcd: a traced variable's waiting lists are bit vectors of the SE's width", "[traces][vcd]") {
    const std::string path = temp_vcd("var");
    VcdLayout layout;
    layout.units = 4;
    layout.client_cores = {15, 15, 15, 15};
    layout.traced_vars = {0x10000};
    VcdRecorder rec("vcd", path, layout);
    Feeder feed("feed", [&] {
        ServiceRecord master = service(0, ns(5), ns(10), 1, 1, 0, false);
        VarSnapshot v;
        v.addr = 0x10000;
        v.kind = Primitive::lock;
        v.buffered = true;
        v.local = "0000000000000101"; // the SE's 16 slots, core 0 last: cores 0 and 2
        v.global = "0100";            // SE 2 waits as a whole
        v.lock_held = true;
        v.owner_se = 2;
        v.owner_core = 7;
        master.vars.push_back(v);
        VarSnapshot other = v;
        other.addr = 0x20000; // not traced: ignored
        master.vars.push_back(other);
        rec.on_service(master);

        ServiceRecord local = service(1, ns(8), ns(12), 1, 1, 0, false);
        VarSnapshot s;
        s.addr = 0x10000;
        s.kind = Primitive::semaphore;
        s.in_memory = true;
        s.local = "1000000000001000"; // slot 15 is no client core: dropped
        s.global = "0000";
        s.count = 3;
        s.resources = -2;
        local.vars.push_back(s);
        rec.on_service(local);

        ServiceRecord release = service(0, ns(20), ns(25), 0, 1, 0, false);
        VarSnapshot free;
        free.addr = 0x10000;
        free.local = std::string(16, '0');
        free.global = "0000";
        release.vars.push_back(free);
        rec.on_service(release);
    });
    sc_core::sc_start();
    rec.close();
    const Vcd vcd = parse_vcd(path);
    INFO(vcd.error);
    REQUIRE(vcd.ok);
    const std::string p = "var_0x10000.unit";
    for (unsigned u = 0; u < 4; ++u) {
        INFO("unit " << u);
        REQUIRE(vcd.vars.count(p + std::to_string(u) + ".local_waiting"));
        CHECK(vcd.vars.at(p + std::to_string(u) + ".local_waiting").width == 15);
        CHECK(vcd.vars.at(p + std::to_string(u) + ".local_waiting").range == "[14:0]");
        CHECK(vcd.vars.at(p + std::to_string(u) + ".global_waiting").width == 4);
        CHECK(vcd.vars.at(p + std::to_string(u) + ".global_waiting").range == "[3:0]");
    }
    const uint64_t k = kPsPerNs;
    CHECK(vcd.history(p + "0.local_waiting") == History{{0, 0}, {10 * k, 0b101}, {25 * k, 0}});
    CHECK(vcd.history(p + "0.global_waiting") == History{{0, 0}, {10 * k, 0b0100}, {25 * k, 0}});
    CHECK(vcd.history(p + "0.lock_owner") == History{{0, 0}, {10 * k, VcdRecorder::owner_code(2, 7)}, {25 * k, 0}});
    CHECK(VcdRecorder::owner_code(2, 7) == 2008);
    CHECK(vcd.history(p + "0.buffered") == History{{0, 0}, {10 * k, 1}, {25 * k, 0}});
    CHECK(vcd.history(p + "1.local_waiting") == History{{0, 0}, {12 * k, 0b1000}});
    CHECK(vcd.history(p + "1.barrier_count") == History{{0, 0}, {12 * k, 3}});
    CHECK(vcd.history(p + "1.sem_resources") == History{{0, 0}, {12 * k, 0xfffffffeull}}); // -2, 32-bit
    CHECK(vcd.history(p + "1.in_memory") == History{{0, 0}, {12 * k, 1}});
    CHECK(vcd.history(p + "2.lock_owner") == History{{0, 0}});
    CHECK(vcd.vars.count("var_0x20000.unit0.lock_owner") == 0);
    std::remove(path.c_str());
}

TEST_CASE("vcd: --trace-filter keeps only the matching signals", "[traces][vcd]") {
    CHECK(VcdRecorder::matches("", "unit0.se.spu_busy"));
    CHECK(VcdRecorder::matches(" , ", "unit0.se.spu_busy"));
    CHECK(VcdRecorder::matches("*", "var_0x10000.unit1.lock_owner"));
    CHECK(VcdRecorder::matches("*.state", "unit0.core1.state")); // '*' crosses dots
    CHECK(VcdRecorder::matches("link*, unit0.*", "unit0.se.overflow"));
    CHECK_FALSE(VcdRecorder::matches("unit0.*", "unit1.se.overflow"));
    CHECK_FALSE(VcdRecorder::matches("unit?.core1?.state", "unit0.core1.state"));

    const std::string path = temp_vcd("filter");
    VcdRecorder rec("vcd", path, small_layout(), "unit0.se.*, *.core1.state");
    Feeder feed("feed", [&] {
        rec.on_service(service(0, ns(1), ns(2), 1, 1, 0, false));
        rec.on_service(service(1, ns(1), ns(2), 1, 1, 0, false)); // filtered out
        rec.on_core_state(core_state(1, 1, CoreActivity::waiting_sync, "sem_wait_local", 0x40, ns(3)));
        rec.on_core_state(core_state(0, 0, CoreActivity::memory, "load", 0x80, ns(3))); // filtered out
        rec.on_link({0, 1, 18, false, ns(1), ns(2), ns(3)});                            // filtered out
    });
    sc_core::sc_start();
    rec.close();
    const Vcd vcd = parse_vcd(path);
    INFO(vcd.error);
    REQUIRE(vcd.ok);
    std::set<std::string> names;
    for (const auto& [name, v] : vcd.vars) names.insert(name);
    const std::set<std::string> expected = {"unit0.se.st_occupancy",    "unit0.se.buffer_waiting", "unit0.se.spu_busy",
                                            "unit0.se.counters_in_use", "unit0.se.overflow",       "unit0.core1.state",
                                            "unit1.core1.state"};
    CHECK(names == expected);
    const auto listed = rec.signals();
    CHECK(std::set<std::string>(listed.begin(), listed.end()) == expected);
    const uint64_t k = kPsPerNs;
    CHECK(vcd.history("unit0.se.spu_busy") == History{{0, 0}, {1 * k, 1}, {2 * k, 0}});
    CHECK(vcd.history("unit1.core1.state") == History{{0, 0}, {3 * k, 2}});
    std::remove(path.c_str());
}

TEST_CASE("vcd: the path gets one .vcd and an unwritable path throws naming it", "[traces][vcd]") {
    CHECK(VcdRecorder::file_base("run.vcd") == "run");
    CHECK(VcdRecorder::file_base("out/run") == "out/run");
    CHECK(VcdRecorder::file_base("a.vcd.vcd") == "a.vcd");
    CHECK(VcdRecorder::file_base("run.vcdx") == "run.vcdx");

    const std::string dir = std::filesystem::temp_directory_path().string();
    const std::string base = dir + "/syncron_vcd_" + std::to_string(getpid()) + "_noext";
    {
        VcdRecorder ok("ok", base, small_layout());
        CHECK(ok.file() == base + ".vcd");
        ok.close();
    }
    CHECK(std::filesystem::exists(base + ".vcd"));
    CHECK_FALSE(std::filesystem::exists(base + ".vcd.vcd"));
    CHECK(parse_vcd(base + ".vcd").ok);
    std::remove((base + ".vcd").c_str());

    const std::string bad = "/nonexistent-syncron-dir/sub/run.vcd";
    CHECK_THROWS_AS(VcdRecorder("bad", bad, small_layout()), std::runtime_error);
    CHECK_THROWS_WITH(VcdRecorder("bad2", bad, small_layout()), Catch::Contains(bad));
}

TEST_CASE("vcd: close() in mid-run (an error path) leaves a parsable file", "[traces][vcd]") {
    const std::string path = temp_vcd("early");
    VcdRecorder rec("vcd", path, small_layout());
    Feeder feed("feed", [&] {
        rec.on_core_state(core_state(0, 0, CoreActivity::memory, "load", 0x100, ns(5)));
        rec.on_core_state(core_state(0, 0, CoreActivity::waiting_sync, "barrier_wait_local_across_units", 0x10000,
                                     ns(100))); // ahead of time, still pending at close
        rec.on_core_state(core_state(0, 0, CoreActivity::done, "done", 0, ns(200)));
        rec.on_service(service(1, ns(10), ns(30), 4, 1, 2, false));
        sc_core::wait(ns(25));
        rec.on_core_state(core_state(0, 1, CoreActivity::memory, "store", 0x200, ns(25))); // this time step
        rec.close(); // e.g. the simulator hit an error
        rec.close(); // idempotent
        rec.on_core_state(core_state(0, 2, CoreActivity::memory, "load", 0x300, ns(26))); // ignored
        sc_core::wait(ns(10));
    });
    sc_core::sc_start();
    CHECK(rec.closed());
    CHECK(rec.pending() == 0);
    const Vcd vcd = parse_vcd(path);
    INFO(vcd.error);
    REQUIRE(vcd.ok);
    CHECK(vcd.strictly_increasing());
    const uint64_t k = kPsPerNs;
    CHECK(vcd.history("unit0.core0.state") == History{{0, 0}, {5 * k, 1}, {100 * k, 2}, {200 * k, 3}});
    CHECK(vcd.history("unit0.core0.op") == History{{0, 0}, {5 * k, 2}, {100 * k, 13}, {200 * k, 4}});
    CHECK(vcd.history("unit0.core1.state") == History{{0, 0}, {25 * k, 1}});
    CHECK(vcd.history("unit0.core2.state") == History{{0, 0}});
    CHECK(vcd.history("unit1.se.spu_busy") == History{{0, 0}, {10 * k, 1}, {30 * k, 0}});
    CHECK(vcd.history("unit1.se.st_occupancy") == History{{0, 0}, {30 * k, 4}});
    CHECK(vcd.stamps.back() == 200 * k);
    std::remove(path.c_str());
}

TEST_CASE("vcd: a simulation ended by an exception still leaves a complete file", "[traces][vcd]") {
    const std::string path = temp_vcd("error");
    VcdRecorder rec("vcd", path, small_layout());
    Feeder feed("feed", [&] {
        rec.on_core_state(core_state(1, 0, CoreActivity::memory, "load", 0x100, ns(50)));
        rec.on_core_state(core_state(1, 0, CoreActivity::computing, "compute", 0, ns(80)));
        sc_core::wait(ns(20));
        rec.on_core_state(core_state(1, 1, CoreActivity::waiting_sync, "lock_acquire_local", 0x10000, ns(20)));
        throw std::runtime_error("model error");
    });
    bool threw = false;
    try {
        sc_core::sc_start();
    } catch (const std::exception&) {
        threw = true;
    }
    CHECK(threw);
    rec.close(); // what the simulator does on every exit path
    const Vcd vcd = parse_vcd(path);
    INFO(vcd.error);
    REQUIRE(vcd.ok);
    CHECK(vcd.strictly_increasing());
    const uint64_t k = kPsPerNs;
    // 20 ns: the time step the kernel never finished; 50/80 ns: still pending.
    CHECK(vcd.history("unit1.core1.state") == History{{0, 0}, {20 * k, 2}});
    CHECK(vcd.history("unit1.core1.op") == History{{0, 0}, {20 * k, 10}});
    CHECK(vcd.history("unit1.core0.state") == History{{0, 0}, {50 * k, 1}, {80 * k, 0}});
    CHECK(vcd.history("unit1.core0.op") == History{{0, 0}, {50 * k, 2}, {80 * k, 1}});
    std::remove(path.c_str());
}

TEST_CASE("vcd: core operation codes and names", "[traces][vcd]") {
    CHECK(VcdRecorder::operation_code("") == 0);
    CHECK(VcdRecorder::operation_code(nullptr) == 0);
    CHECK(VcdRecorder::operation_code("compute") == 1);
    CHECK(VcdRecorder::operation_code("load") == 2);
    CHECK(VcdRecorder::operation_code("store") == 3);
    CHECK(VcdRecorder::operation_code("done") == 4);
    const std::vector<std::pair<std::string, std::string>> calls = {
        {"lock_acquire", "lock_acquire_local"},
        {"lock_release", "lock_release_local"},
        {"barrier_wait_within_unit", "barrier_wait_local_within_unit"},
        {"barrier_wait_across_units", "barrier_wait_local_across_units"},
        {"sem_wait", "sem_wait_local"},
        {"sem_post", "sem_post_local"},
        {"cond_wait", "cond_wait_local"},
        {"cond_signal", "cond_signal_local"},
        {"cond_broadcast", "cond_broad_local"},
    };
    unsigned code = 10;
    for (const auto& [call, opcode] : calls) {
        INFO(call);
        CHECK(VcdRecorder::operation_code(call.c_str()) == code);
        CHECK(VcdRecorder::operation_code(opcode.c_str()) == code);
        ++code;
    }
    CHECK(VcdRecorder::operation_code("create_syncvar") == 19);
    CHECK(VcdRecorder::operation_code("destroy_syncvar") == 20);
    CHECK(VcdRecorder::operation_code("lock_grant_global") == 255);
    CHECK(VcdRecorder::var_scope(0x10000) == "var_0x10000");
    CHECK(VcdRecorder::var_scope(0x40010040) == "var_0x40010040");
}

TEST_CASE("vcd: the GTKWave save files name signals the recorder writes", "[traces][vcd]") {
    // The default platform: 4 units x 15 client cores, every link direction,
    // --trace-var 0x10000 (the default lock workload's first variable);
    // test_traces_gtkw.cpp checks the same files against a real run's VCD.
    VcdLayout layout;
    layout.units = 4;
    layout.client_cores = {15, 15, 15, 15};
    layout.st_entries = 64;
    layout.counters = 256;
    layout.traced_vars = {0x10000};
    for (unsigned s = 0; s < 4; ++s)
        for (unsigned d = 0; d < 4; ++d)
            if (s != d) layout.links.emplace_back(s, d);
    const std::string path = temp_vcd("gtkw");
    VcdRecorder rec("vcd", path, layout);
    sc_core::sc_start();
    rec.close();
    const Vcd vcd = parse_vcd(path);
    INFO(vcd.error);
    REQUIRE(vcd.ok);
    std::set<std::string> gtkwave_names; // as GTKWave names VCD signals
    for (const auto& [name, v] : vcd.vars) gtkwave_names.insert(vcd.top_scope + "." + name + v.range);

    const std::filesystem::path source_root = SYNCRON_SOURCE_DIR; // __FILE__ is source-relative (-ffile-prefix-map)
    for (const char* file : {"se.gtkw", "cores.gtkw", "lock_handoff.gtkw"}) {
        INFO(file);
        const std::string text = slurp((source_root / "traces" / file).string());
        REQUIRE_FALSE(text.empty());
        std::istringstream lines(text);
        unsigned signals = 0, begins = 0, ends = 0;
        std::string pending_flag;
        for (std::string line; std::getline(lines, line);) {
            if (line.empty()) continue;
            if (line[0] == '@') {
                pending_flag = line;
                if (line == "@800200") ++begins;
                if (line == "@1000200") ++ends;
                continue;
            }
            if (line[0] == '[' || line[0] == '-' || line[0] == '*' || line[0] == '^' || line[0] == '#') continue;
            INFO(line);
            if (line[0] == '+') line = line.substr(line.find("} ") + 2); // "+{label} signal"
            CHECK(gtkwave_names.count(line) == 1);
            ++signals;
        }
        CHECK(signals > 0);
        CHECK(begins == ends);
        CHECK(begins > 0);
    }
    std::remove(path.c_str());
}
