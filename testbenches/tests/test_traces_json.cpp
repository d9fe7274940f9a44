// Timeline JSON (TimelineJson, --trace-json) fed with synthetic records, and
// the terminal progress line (ProgressReporter).
// The TimelineJson cases elaborate nothing; each ProgressReporter case
// elaborates its own small model (ctest runs each TEST_CASE in its own process).
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <systemc>
#include <unistd.h>

#include "models/tlm/trace_sink.h"
#include "traces/progress.h"
#include "traces/timeline_json.h"

using namespace syncron;
using nlohmann::json;
using sc_core::sc_time;

namespace {

sc_time ns(double v) { return sc_time(v, sc_core::SC_NS); }

/// A fresh file name in the temporary directory (removed by the destructor).
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& tag) {
        path = (std::filesystem::temp_directory_path() /
                ("syncron_test_" + tag + "_" + std::to_string(::getpid()) + ".json"))
                   .string();
        std::remove(path.c_str());
    }
    ~TempFile() { std::remove(path.c_str()); }
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

json parse_file(const std::string& path) { return json::parse(slurp(path)); }

CoreStateRecord state(unsigned unit, unsigned core, CoreActivity a, const char* op, uint64_t addr, sc_time at) {
    CoreStateRecord r;
    r.unit = unit;
    r.core = core;
    r.global_id = unit * 16 + core;
    r.activity = a;
    r.operation = op;
    r.addr = addr;
    r.at = at;
    return r;
}

ServiceRecord service(unsigned se, Opcode op, uint64_t addr, sc_time arrival, sc_time start, sc_time end,
                      unsigned occupancy, bool overflow) {
    ServiceRecord r;
    r.se = se;
    r.msg.op = op;
    r.msg.addr = addr;
    r.msg.core = 2;
    r.arrival = arrival;
    r.start = start;
    r.end = end;
    r.st_occupancy = occupancy;
    r.buffer_waiting = 1;
    r.overflow = overflow;
    return r;
}

/// The trace indexed by track: process and thread names from the metadata,
/// and the X events of each (pid, tid).
struct Trace {
    json doc;
    std::map<int64_t, std::string> process;                         // pid -> name
    std::map<std::pair<int64_t, int64_t>, std::string> thread;      // (pid, tid) -> name
    std::map<std::pair<int64_t, int64_t>, std::vector<json>> spans; // (pid, tid) -> X events

    explicit Trace(const std::string& path) : doc(parse_file(path)) {
        for (const auto& e : doc.at("traceEvents")) {
            const std::string ph = e.at("ph");
            if (ph == "M") {
                if (e.at("name") == "process_name") process[e.at("pid")] = e.at("args").at("name");
                if (e.at("name") == "thread_name") thread[{e.at("pid"), e.at("tid")}] = e.at("args").at("name");
            } else if (ph == "X") {
                spans[{e.at("pid"), e.at("tid")}].push_back(e);
            }
        }
        for (auto& [track, v] : spans)
            std::stable_sort(v.begin(), v.end(), [](const json& a, const json& b) {
                return a.at("ts").get<double>() < b.at("ts").get<double>();
            });
    }

    /// X events of the track named `thread_name` in the process named `process_name`, by ts.
    std::vector<json> track(const std::string& process_name, const std::string& thread_name) const {
        for (const auto& [key, name] : thread)
            if (name == thread_name && process.count(key.first) && process.at(key.first) == process_name) {
                auto it = spans.find(key);
                return it == spans.end() ? std::vector<json>{} : it->second;
            }
        FAIL("no track '" << thread_name << "' in process '" << process_name << "'");
        return {};
    }
};

/// ts / dur are microseconds with ns precision.
bool at_us(const json& e, double ts_us, double dur_us) {
    return std::abs(e.at("ts").get<double>() - ts_us) < 1e-7 && std::abs(e.at("dur").get<double>() - dur_us) < 1e-7;
}

/// No two spans of one track partially overlap, no duration is negative.
bool well_nested(const std::vector<json>& spans) {
    for (size_t i = 0; i < spans.size(); ++i) {
        const double a0 = spans[i].at("ts"), a1 = a0 + spans[i].at("dur").get<double>();
        if (spans[i].at("dur").get<double>() < 0) return false;
        for (size_t j = 0; j < spans.size(); ++j) {
            if (i == j) continue;
            const double b0 = spans[j].at("ts"), b1 = b0 + spans[j].at("dur").get<double>();
            const bool disjoint = a1 <= b0 + 1e-9 || b1 <= a0 + 1e-9;
            const bool a_in_b = a0 >= b0 - 1e-9 && a1 <= b1 + 1e-9;
            const bool b_in_a = b0 >= a0 - 1e-9 && b1 <= a1 + 1e-9;
            if (!disjoint && !a_in_b && !b_in_a) return false;
        }
    }
    return true;
}

} // namespace

TEST_CASE("traces: json: metadata names one process per unit and one track per core and per SE", "[traces][json]") {
    TempFile f("json_meta");
    {
        TimelineJson tl(f.path);
        tl.on_core_state(state(0, 0, CoreActivity::computing, "compute", 0, ns(0)));
        tl.on_core_state(state(1, 3, CoreActivity::computing, "compute", 0, ns(5)));
        tl.on_core_state(state(0, 0, CoreActivity::done, "", 0, ns(10)));
        tl.on_core_state(state(1, 3, CoreActivity::done, "", 0, ns(20)));
        tl.on_service(service(1, Opcode::lock_acquire_local, 0x40, ns(1), ns(2), ns(4), 1, false));
        tl.close();
    }
    const Trace t(f.path);
    CHECK(t.doc.at("displayTimeUnit") == "ns");
    REQUIRE(t.process.size() == 2);
    CHECK(t.process.at(TimelineJson::pid_of(0)) == "unit 0");
    CHECK(t.process.at(TimelineJson::pid_of(1)) == "unit 1");
    CHECK(t.thread.at({TimelineJson::pid_of(0), TimelineJson::core_tid(0, 0)}) == "core 0");
    CHECK(t.thread.at({TimelineJson::pid_of(1), TimelineJson::core_tid(1, 3)}) == "core 3");
    CHECK(t.thread.at({TimelineJson::pid_of(1), TimelineJson::se_tid(1)}) == "SE");
    CHECK(t.thread.size() == 3);
    // Thread IDs are unique across processes and never 0.
    std::vector<int64_t> tids;
    for (const auto& [key, name] : t.thread) tids.push_back(key.second);
    std::sort(tids.begin(), tids.end());
    CHECK(std::adjacent_find(tids.begin(), tids.end()) == tids.end());
    CHECK(tids.front() > 0);
    CHECK(t.track("unit 0", "core 0").size() == 1);
    CHECK(t.track("unit 1", "core 3").size() == 1);
}

TEST_CASE("traces: json: core spans run from one record to the next with ts and dur in microseconds",
          "[traces][json]") {
    TempFile f("json_spans");
    {
        TimelineJson tl(f.path);
        tl.on_core_state(state(0, 2, CoreActivity::computing, "compute", 0, ns(0)));
        tl.on_core_state(state(0, 2, CoreActivity::memory, "load", 0x40, ns(100)));
        tl.on_core_state(state(0, 2, CoreActivity::waiting_sync, "lock_acquire", 0x12345678, ns(350)));
        tl.on_core_state(state(0, 2, CoreActivity::computing, "compute", 0, ns(1350)));
        // Same time twice: the zero-length span is not written.
        tl.on_core_state(state(0, 2, CoreActivity::memory, "store", 0x80, ns(2000)));
        tl.on_core_state(state(0, 2, CoreActivity::memory, "load", 0xc0, ns(2000)));
        // Sub-ns times are rounded to the ns.
        tl.on_core_state(state(0, 2, CoreActivity::done, "", 0, sc_time(2500.4, sc_core::SC_NS)));
        tl.close();
    }
    const Trace t(f.path);
    const auto s = t.track("unit 0", "core 2");
    REQUIRE(s.size() == 5);
    CHECK(s[0].at("name") == "compute");
    CHECK(s[0].at("args").at("op") == "compute");
    CHECK(at_us(s[0], 0.0, 0.1));
    CHECK(s[1].at("name") == "memory");
    CHECK(s[1].at("args").at("op") == "load");
    CHECK(s[1].at("args").at("addr") == "0x40");
    CHECK(at_us(s[1], 0.1, 0.25));
    CHECK(s[2].at("name") == "waiting");
    CHECK(s[2].at("args").at("op") == "lock_acquire");
    CHECK(s[2].at("args").at("addr") == "0x12345678");
    CHECK(at_us(s[2], 0.35, 1.0));
    CHECK(s[3].at("name") == "compute");
    CHECK(at_us(s[3], 1.35, 0.65));
    CHECK(s[4].at("args").at("op") == "load");
    CHECK(s[4].at("args").at("addr") == "0xc0");
    CHECK(at_us(s[4], 2.0, 0.5));
    // Exact text: three decimals of a microsecond.
    CHECK(slurp(f.path).find("\"ts\":1.350,\"dur\":0.650") != std::string::npos);
    // After "done" nothing is open: closing adds no span.
    CHECK(well_nested(s));
}

TEST_CASE("traces: json: records out of time order still give well-formed spans", "[traces][json]") {
    TempFile f("json_order");
    TimelineJson tl(f.path);
    // Two cores reporting out of order with each other (LT temporal
    // decoupling: core 1 runs ahead by a quantum).
    tl.on_core_state(state(0, 1, CoreActivity::computing, "compute", 0, ns(0)));
    tl.on_core_state(state(0, 1, CoreActivity::memory, "load", 0x100, ns(500)));
    tl.on_core_state(state(0, 1, CoreActivity::computing, "compute", 0, ns(800)));
    tl.on_core_state(state(0, 0, CoreActivity::computing, "compute", 0, ns(0)));
    tl.on_service(service(0, Opcode::lock_release_local, 0x40, ns(700), ns(700), ns(720), 0, false));
    tl.on_core_state(state(0, 0, CoreActivity::waiting_sync, "barrier_wait", 0x80, ns(200)));
    tl.on_service(service(0, Opcode::lock_acquire_local, 0x40, ns(100), ns(150), ns(170), 1, false));
    tl.on_core_state(state(0, 1, CoreActivity::done, "", 0, ns(1000)));
    tl.on_core_state(state(0, 0, CoreActivity::computing, "compute", 0, ns(600)));
    // A record of core 0 earlier than its open span (not produced by the
    // models): drawn inside the span covering its time, marked late.
    tl.on_core_state(state(0, 0, CoreActivity::memory, "store", 0x200, ns(400)));
    // Another before everything written so far.
    tl.on_core_state(state(0, 0, CoreActivity::memory, "store", 0x240, ns(50)));
    tl.on_core_state(state(0, 0, CoreActivity::done, "", 0, ns(900)));
    CHECK(tl.late_records() == 2);
    tl.close();

    const Trace t(f.path);
    const auto c1 = t.track("unit 0", "core 1");
    REQUIRE(c1.size() == 3);
    CHECK(at_us(c1[0], 0.0, 0.5));
    CHECK(at_us(c1[1], 0.5, 0.3));
    CHECK(at_us(c1[2], 0.8, 0.2));
    const auto c0 = t.track("unit 0", "core 0");
    REQUIRE(c0.size() == 5);
    CHECK(well_nested(c0));
    CHECK(well_nested(c1));
    // The in-order spans of core 0.
    std::vector<json> normal, late;
    for (const auto& e : c0) (e.at("args").contains("late") ? late : normal).push_back(e);
    REQUIRE(normal.size() == 3);
    CHECK(at_us(normal[0], 0.0, 0.2));
    CHECK(normal[1].at("name") == "waiting");
    CHECK(at_us(normal[1], 0.2, 0.4));
    CHECK(at_us(normal[2], 0.6, 0.3));
    // The late ones nest inside the waiting span [200, 600).
    REQUIRE(late.size() == 2);
    for (const auto& e : late) {
        CHECK(e.at("name") == "memory");
        CHECK(e.at("ts").get<double>() >= 0.2 - 1e-9);
        CHECK(e.at("ts").get<double>() + e.at("dur").get<double>() == Approx(0.6));
    }
    // SE events are written as they come, in any order.
    CHECK(t.track("unit 0", "SE").size() == 2);
}

TEST_CASE("traces: json: one SE event per service with opcode address wait occupancy and overflow", "[traces][json]") {
    TempFile f("json_se");
    {
        TimelineJson tl(f.path);
        tl.on_service(service(2, Opcode::lock_acquire_global, 0xabc0, ns(10), ns(40), ns(55), 3, false));
        tl.on_service(service(2, Opcode::sem_wait_overflow, 0x1000, ns(60), ns(60), ns(90), 16, true));
        tl.on_service(service(0, Opcode::barrier_wait_local_within_unit, 0x80, ns(5), ns(5), ns(6), 1, false));
        tl.close();
    }
    const Trace t(f.path);
    CHECK(t.process.at(TimelineJson::pid_of(2)) == "unit 2");
    const auto se2 = t.track("unit 2", "SE");
    REQUIRE(se2.size() == 2);
    CHECK(se2[0].at("name") == "lock_acquire_global");
    CHECK(at_us(se2[0], 0.04, 0.015));
    CHECK(se2[0].at("args").at("addr") == "0xabc0");
    CHECK(se2[0].at("args").at("wait_ns") == 30);
    CHECK(se2[0].at("args").at("st_occupancy") == 3);
    CHECK(se2[0].at("args").at("overflow") == false);
    CHECK(se2[1].at("name") == "sem_wait_overflow");
    CHECK(at_us(se2[1], 0.06, 0.03));
    CHECK(se2[1].at("args").at("wait_ns") == 0);
    CHECK(se2[1].at("args").at("st_occupancy") == 16);
    CHECK(se2[1].at("args").at("overflow") == true);
    const auto se0 = t.track("unit 0", "SE");
    REQUIRE(se0.size() == 1);
    CHECK(se0[0].at("name") == "barrier_wait_local_within_unit");
}

TEST_CASE("traces: json: a file closed mid-run is valid and ends open spans at the last known time", "[traces][json]") {
    TempFile f("json_mid");
    TimelineJson tl(f.path);
    tl.on_core_state(state(0, 0, CoreActivity::computing, "compute", 0, ns(0)));
    tl.on_core_state(state(0, 0, CoreActivity::waiting_sync, "lock_acquire", 0x40, ns(100)));
    tl.on_core_state(state(0, 1, CoreActivity::memory, "load", 0x80, ns(50)));
    // The latest thing known: a message delivered at 400 ns.
    MessageRecord m;
    m.sent = ns(300);
    m.arrived = ns(400);
    tl.on_message(m);
    tl.close(); // e.g. the run stopped on an error
    CHECK_FALSE(tl.is_open());
    tl.close(); // idempotent
    tl.close(ns(5000));
    tl.on_core_state(state(0, 0, CoreActivity::done, "", 0, ns(500))); // ignored after close

    const Trace t(f.path);
    const auto c0 = t.track("unit 0", "core 0");
    REQUIRE(c0.size() == 2);
    CHECK(at_us(c0[1], 0.1, 0.3));
    const auto c1 = t.track("unit 0", "core 1");
    REQUIRE(c1.size() == 1);
    CHECK(at_us(c1[0], 0.05, 0.35));

    // close(end) ends them at a later time when given one.
    TempFile g("json_mid_end");
    {
        TimelineJson tl2(g.path);
        tl2.on_core_state(state(0, 0, CoreActivity::computing, "compute", 0, ns(10)));
        tl2.close(ns(1000));
    }
    const Trace t2(g.path);
    REQUIRE(t2.track("unit 0", "core 0").size() == 1);
    CHECK(at_us(t2.track("unit 0", "core 0")[0], 0.01, 0.99));

    // The destructor alone leaves a valid file; so does an empty trace.
    TempFile h("json_dtor");
    {
        TimelineJson tl3(h.path);
        tl3.on_core_state(state(0, 0, CoreActivity::computing, "compute", 0, ns(0)));
        tl3.on_core_state(state(0, 0, CoreActivity::memory, "load", 0x40, ns(10)));
    }
    CHECK(Trace(h.path).track("unit 0", "core 0").size() == 1);
    TempFile e("json_empty");
    { TimelineJson tl4(e.path); }
    CHECK(parse_file(e.path).at("traceEvents").empty());
}

namespace {
TimelineJson* g_signal_timeline = nullptr;
extern "C" void close_timeline_on_signal(int) {
    if (g_signal_timeline) g_signal_timeline->close();
}
} // namespace

TEST_CASE("traces: json: close() from a signal handler leaves a valid file", "[traces][json]") {
    TempFile f("json_signal");
    TimelineJson tl(f.path);
    g_signal_timeline = &tl;
    const auto old = std::signal(SIGUSR1, close_timeline_on_signal);
    for (unsigned i = 0; i < 1000; ++i)
        tl.on_core_state(state(0, i % 4, i % 2 ? CoreActivity::memory : CoreActivity::computing,
                               i % 2 ? "load" : "compute", 0x40 * i, ns(10.0 * i)));
    std::raise(SIGUSR1);
    std::signal(SIGUSR1, old);
    g_signal_timeline = nullptr;
    CHECK_FALSE(tl.is_open());
    const Trace t(f.path);
    // Core 0 got records at 0, 40, ..., 9960 ns: 249 closed spans + the open
    // one ended at the last known time (9990 ns).
    const auto c0 = t.track("unit 0", "core 0");
    REQUIRE(c0.size() == 250);
    CHECK(at_us(c0.back(), 9.96, 0.03));
}

TEST_CASE("traces: json: events are streamed to the file with a bounded buffer", "[traces][json]") {
    TempFile f("json_stream");
    TimelineJson tl(f.path);
    const unsigned cores = 8, per_core = 20000;
    for (unsigned i = 0; i < per_core; ++i)
        for (unsigned c = 0; c < cores; ++c)
            tl.on_core_state(state(c / 4, c % 4, i % 2 ? CoreActivity::waiting_sync : CoreActivity::computing,
                                   i % 2 ? "lock_acquire" : "compute", 0x1000 + c, ns(10.0 * i + c)));
    // Already on disk before close (more than the 64 KiB buffer).
    // The latest thing known comes after every core's last record.
    MessageRecord m;
    m.sent = m.arrived = ns(10.0 * per_core + 100);
    tl.on_message(m);
    struct stat st {};
    REQUIRE(::stat(tl.temporary().c_str(), &st) == 0); // under its final name once closed
    CHECK(st.st_size > 10 * 1024 * 1024);
    tl.close();
    CHECK_FALSE(tl.failed());
    const Trace t(f.path);
    size_t spans = 0;
    for (const auto& [track, v] : t.spans) {
        spans += v.size();
        CHECK(v.size() == per_core); // per_core - 1 closed + the open one ended at the last time
    }
    CHECK(spans == size_t(cores) * per_core);
    CHECK(t.spans.size() == cores);
}

TEST_CASE("traces: json: an unwritable path throws naming it", "[traces][json]") {
    const std::string path = "/nonexistent-syncron-dir/sub/timeline.json";
    CHECK_THROWS_AS(TimelineJson(path), std::runtime_error);
    CHECK_THROWS_WITH(TimelineJson(path), Catch::Contains(path));
}

// ------------------------------------------------------------------ progress

namespace {

/// Counts `n` operations, one every `step`; optionally tells the reporter
/// when it is done.
struct Worker : sc_core::sc_module {
    uint64_t ops = 0;
    unsigned n;
    sc_time step;
    ProgressReporter* reporter = nullptr;
    SC_HAS_PROCESS(Worker);
    Worker(sc_core::sc_module_name name, unsigned count, sc_time s) : sc_module(name), n(count), step(s) {
        SC_THREAD(run);
    }
    void run() {
        for (unsigned i = 0; i < n; ++i) {
            wait(step);
            ++ops;
        }
        if (reporter) reporter->stop();
    }
};

/// Like the platform's SIGINT watch: re-arms every microsecond while the
/// kernel has anything else pending.
struct Poller : sc_core::sc_module {
    SC_HAS_PROCESS(Poller);
    explicit Poller(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(run); }
    void run() {
        for (;;) {
            wait(1, sc_core::SC_US);
            if (!sc_core::sc_pending_activity()) return;
        }
    }
};

/// Never completes an operation: waits for an event nobody notifies.
struct Stuck : sc_core::sc_module {
    sc_core::sc_event never;
    SC_HAS_PROCESS(Stuck);
    explicit Stuck(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(run); }
    void run() { wait(never); }
};

} // namespace

TEST_CASE("traces: progress: a forced reporter prints ops and does not keep the kernel alive", "[traces][progress]") {
    std::ostringstream out;
    Worker w("worker", 50, sc_time(1, sc_core::SC_US));
    ProgressReporter p(
        "progress", [&w] { return w.ops; }, out, true);
    p.set_min_interval(0); // a line at every check (every 10 us of simulated time)
    REQUIRE(p.active());
    sc_core::sc_start(); // returns: nothing pending once the worker is done
    CHECK(w.ops == 50);
    const std::string s = out.str();
    INFO(s);
    CHECK(s.find("\r[syncron] sim ") != std::string::npos);
    CHECK(s.find("ops 50") != std::string::npos);
    CHECK(s.find(" | host ") != std::string::npos);
    CHECK(s.back() == '\n');
    CHECK(p.lines() >= 5);
    // Without stop(), the last wake-up may come at most one period after the model's end.
    CHECK(sc_core::sc_time_stamp() <= sc_time(60, sc_core::SC_US));
    CHECK_FALSE(sc_core::sc_pending_activity());
    // finish() once: a second call prints nothing more.
    const auto lines = p.lines();
    p.finish();
    CHECK(p.lines() == lines);
}

TEST_CASE("traces: progress: stop() ends the reporter without moving the end time", "[traces][progress]") {
    std::ostringstream out;
    Worker w("worker", 37, sc_time(1, sc_core::SC_US)); // ends at 37 us, between two checks
    ProgressReporter p(
        "progress", [&w] { return w.ops; }, out, true);
    w.reporter = &p;
    sc_core::sc_start();
    CHECK(sc_core::sc_time_stamp() == sc_time(37, sc_core::SC_US));
    const std::string s = out.str();
    INFO(s);
    CHECK(s.find("ops 37") != std::string::npos);
    CHECK(s.find("sim 37.000 us") != std::string::npos);
    CHECK(s.back() == '\n');
    CHECK(p.lines() == 1); // runs in far less than 0.5 s of host time: the final line only
}

TEST_CASE("traces: progress: idle stretches of the model add no wake-ups", "[traces][progress]") {
    std::ostringstream out;
    Worker w("worker", 3, sc_time(1, sc_core::SC_MS)); // 3 ms = 300 check periods
    ProgressReporter p(
        "progress", [&w] { return w.ops; }, out, true);
    p.set_min_interval(0);
    sc_core::sc_start();
    CHECK(w.ops == 3);
    INFO(out.str());
    // One line per wake-up: at 0, next to each of the worker's events (and
    // one period after), plus the final line; not one per 10 us.
    CHECK(p.lines() <= 10);
    CHECK(out.str().find("ops 3") != std::string::npos);
}

TEST_CASE("traces: progress: not forced and not a terminal: silent", "[traces][progress]") {
    std::ostringstream out;
    Worker w("worker", 20, sc_time(1, sc_core::SC_US));
    ProgressReporter p(
        "progress", [&w] { return w.ops; }, out, false);
    sc_core::sc_start();
    CHECK(w.ops == 20);
    if (::isatty(2)) {
        WARN("stderr is a terminal: the reporter is active (run under ctest to check silence)");
        CHECK(p.active());
    } else {
        CHECK_FALSE(p.active());
        p.finish();
        p.stop();
        CHECK(out.str().empty());
        // No process of its own: the end time is the model's.
        CHECK(sc_core::sc_time_stamp() == sc_time(20, sc_core::SC_US));
    }
}

TEST_CASE("traces: progress: next to another self-stopping poller sc_start still returns", "[traces][progress]") {
    // Two processes that each re-arm while anything else is pending would
    // keep each other alive forever; the reporter also needs completed
    // operations to keep going.
    std::ostringstream out;
    Worker w("worker", 30, sc_time(1, sc_core::SC_US));
    Poller poll("poller");
    ProgressReporter p(
        "progress", [&w] { return w.ops; }, out, true);
    sc_core::sc_start();
    CHECK(w.ops == 30);
    CHECK(p.dormant());
    // Quiet after 10 checks (100 us) without a completed operation.
    CHECK(sc_core::sc_time_stamp() <= sc_time(30 + 120, sc_core::SC_US));
    CHECK(out.str().empty()); // quiet, the line not ended: finish() does that
    p.finish();
    const std::string s = out.str();
    INFO(s);
    CHECK(s.find("ops 30") != std::string::npos);
    CHECK(s.back() == '\n');
}

TEST_CASE("traces: progress: with stop() next to another poller the end time is the model's", "[traces][progress]") {
    std::ostringstream out;
    Worker w("worker", 37, sc_time(1, sc_core::SC_US));
    Poller poll("poller");
    ProgressReporter p(
        "progress", [&w] { return w.ops; }, out, true);
    w.reporter = &p;
    sc_core::sc_start();
    // The poller's own last wake-up is at most 1 us later; the reporter adds nothing.
    CHECK(sc_core::sc_time_stamp() <= sc_time(38, sc_core::SC_US));
    CHECK(out.str().find("ops 37") != std::string::npos);
}

TEST_CASE("traces: progress: a deadlocked model next to another poller still returns", "[traces][progress]") {
    std::ostringstream out;
    Stuck stuck("stuck");
    Poller poll("poller");
    ProgressReporter p(
        "progress", [] { return uint64_t(0); }, out, true);
    sc_core::sc_start();
    CHECK(p.dormant());
    CHECK(sc_core::sc_time_stamp() <= sc_time(120, sc_core::SC_US));
    p.finish();
    CHECK(out.str().find("ops 0") != std::string::npos);
}

TEST_CASE("traces: progress: the line shows percentage and time left when the total is known", "[traces][progress]") {
    // 300 of 1200 operations in 2.0 s of host time: 25%, 3 times as much to go.
    CHECK(ProgressReporter::format_line(12.3456, 300, 1200, 2.0) ==
          "[syncron]  25% | sim 12.346 us | ops 300/1200 | host 2.0 s | left ~6.0 s");
    // Rounded down: 100% only when done; no estimate before the first operation or once done.
    CHECK(ProgressReporter::format_line(1.0, 1199, 1200, 10.0) ==
          "[syncron]  99% | sim 1.000 us | ops 1199/1200 | host 10.0 s | left ~0.0 s");
    CHECK(ProgressReporter::format_line(0.0, 0, 1200, 0.1) ==
          "[syncron]   0% | sim 0.000 us | ops 0/1200 | host 0.1 s");
    CHECK(ProgressReporter::format_line(29.0, 1200, 1200, 4.25) ==
          "[syncron] 100% | sim 29.000 us | ops 1200/1200 | host 4.2 s");
    // Total unknown: the plain line.
    CHECK(ProgressReporter::format_line(12.3456, 300, 0, 2.0) == "[syncron] sim 12.346 us | ops 300 | host 2.0 s");
}

TEST_CASE("traces: progress: a reporter with a total prints the percentage", "[traces][progress]") {
    std::ostringstream out;
    Worker w("worker", 40, sc_time(1, sc_core::SC_US));
    ProgressReporter p(
        "progress", [&w] { return w.ops; }, out, true);
    p.set_total(40);
    p.set_min_interval(0);
    w.reporter = &p;
    sc_core::sc_start();
    const std::string s = out.str();
    INFO(s);
    // Lines at every check (10 us): a percentage under 100 with an estimate.
    CHECK(s.find("% | sim 10.000 us | ops ") != std::string::npos);
    CHECK(s.find("/40 | host ") != std::string::npos);
    CHECK(s.find(" | left ~") != std::string::npos);
    CHECK(s.find("\r[syncron] 100% | sim 40.000 us | ops 40/40 | host ") != std::string::npos);
    CHECK(s.back() == '\n');
}
