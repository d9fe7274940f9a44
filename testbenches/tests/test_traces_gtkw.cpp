// GTKWave save files: the ones --gtkw writes and the ones shipped in traces/
// name only signals that exist in the VCD of the run they belong to, label
// every row, open zoomed to the whole run, and use translate filter files
// that are generated from the recorder's own tables.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fnmatch.h>

#include "testbenches/tests/sim_binary.h"
#include "traces/gtkw_save_file.h"
#include "traces/vcd_recorder.h"

using namespace syncron;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream f(path);
    INFO(path);
    REQUIRE(f.good());
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::string tmp(const std::string& name) { return syncron::test::temp_path("syncron_gtkw_", name); }

/// The signals a VCD declares (names without "SystemC.", declaration order)
/// and the time of its last value change.
struct Vcd {
    std::vector<TracedSignal> signals;
    std::set<std::string> gtkwave_names; ///< as GTKWave names them: SystemC.a.b[15:0]
    std::set<std::string> changed;       ///< signals shown with a value other than 0 at some time
    uint64_t last_time = 0;
};

Vcd read_vcd(const std::string& path) {
    Vcd v;
    std::ifstream in(path);
    INFO(path);
    REQUIRE(in.good());
    std::vector<std::string> scopes;
    std::string line;
    bool body = false;
    uint64_t stamp = 0;
    std::map<std::string, std::string> names; // VCD identifier -> signal name
    while (std::getline(in, line)) {
        if (body) {
            if (!line.empty() && line[0] == '#') {
                stamp = std::stoull(line.substr(1));
            } else if (!line.empty() && line[0] != '$') {
                v.last_time = stamp; // a value change at `stamp`
                // "b101 id" or "1id": a value with a 1 bit is a change from the initial 0.
                const bool vector = line[0] == 'b';
                const size_t space = line.find(' ');
                const std::string value = vector ? line.substr(1, space - 1) : line.substr(0, 1);
                const std::string id = vector ? line.substr(space + 1) : line.substr(1);
                if (value.find('1') != std::string::npos && names.count(id)) v.changed.insert(names[id]);
            }
            continue;
        }
        std::istringstream ls(line);
        std::string tok;
        ls >> tok;
        if (tok == "$scope") {
            std::string kind, name;
            ls >> kind >> name;
            scopes.push_back(name);
        } else if (tok == "$upscope") {
            scopes.pop_back();
        } else if (tok == "$var") {
            std::string type, width, id, ref, range;
            ls >> type >> width >> id >> ref >> range;
            std::string full;
            for (const auto& s : scopes) full += s + ".";
            full += ref;
            REQUIRE(full.rfind("SystemC.", 0) == 0);
            v.signals.push_back({full.substr(8), static_cast<unsigned>(std::stoul(width))});
            names[id] = full.substr(8);
            v.gtkwave_names.insert(full + (range != "$end" ? range : ""));
        } else if (tok == "$enddefinitions") {
            body = true;
        }
    }
    return v;
}

/// What a save file names.
struct SaveFile {
    std::vector<std::string> signals; ///< signal rows, alias stripped
    std::vector<std::string> aliases; ///< one per signal row ("" = none)
    std::vector<std::string> filters; ///< paths of the ^ lines
    double zoom = 1;                  ///< from the "*" line; 1 = none
};

SaveFile read_gtkw(const std::string& path) {
    SaveFile f;
    std::istringstream in(slurp(path));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '[' || line[0] == '@' || line[0] == '-') continue;
        if (line[0] == '*') {
            f.zoom = std::stod(line.substr(1));
        } else if (line[0] == '^') {
            f.filters.push_back(line.substr(line.find(' ') + 1));
        } else if (line[0] == '+') {
            const size_t close = line.find("} ");
            REQUIRE(close != std::string::npos);
            f.aliases.push_back(line.substr(2, close - 2));
            f.signals.push_back(line.substr(close + 2));
        } else {
            f.aliases.emplace_back();
            f.signals.push_back(line);
        }
    }
    return f;
}

void check_names_exist(const SaveFile& f, const Vcd& v, const std::string& what) {
    INFO(what);
    CHECK_FALSE(f.signals.empty());
    for (const auto& s : f.signals) {
        INFO(s);
        CHECK(v.gtkwave_names.count(s) == 1);
    }
    for (const auto& a : f.aliases) CHECK_FALSE(a.empty()); // every row labelled
}

std::vector<TracedSignal> matching(const Vcd& v, const std::vector<std::string>& globs) {
    std::vector<TracedSignal> out;
    for (const auto& s : v.signals)
        for (const auto& g : globs)
            if (fnmatch(g.c_str(), s.name.c_str(), 0) == 0) {
                out.push_back(s);
                break;
            }
    return out;
}

} // namespace

TEST_CASE("traces: gtkw: filter files come from the recorder's tables", "[traces][gtkw]") {
    const std::string state = gtkw_state_filter();
    CHECK(state == "0 computing\n1 memory\n2 waiting_sync\n3 done\n");
    const std::string op = gtkw_op_filter();
    // One line per code, the call's own name (not the _local message opcode).
    CHECK(op.find("\n10 lock_acquire\n") != std::string::npos);
    CHECK(op.find("\n18 cond_broadcast\n") != std::string::npos);
    CHECK(op.find("lock_acquire_local") == std::string::npos);
    CHECK(op.rfind("0 none\n", 0) == 0);
    CHECK(op.find("\n255 other\n") != std::string::npos);
    for (const auto& [code, name] : VcdRecorder::operation_names()) {
        INFO(name);
        CHECK(VcdRecorder::operation_code(name == "none" ? "" : name.c_str()) == code);
    }
    const std::string owner = gtkw_owner_filter({2, 3}, {false, true});
    CHECK(owner == "0 free\n1 u0.core0\n2 u0.core1\n1001 u1.core0\n1002 u1.core1\n1003 u1.server\n");
    CHECK(VcdRecorder::owner_code(2, 7) == 2008);
    CHECK(gtkw_owner_filter({16, 16, 16, 16}).find("\n2008 u2.core7\n") != std::string::npos);
}

TEST_CASE("traces: gtkw: the zoom is GTKWave's Zoom Full for the run", "[traces][gtkw]") {
    // Zoom Full: -log2((last - first + 1) / (width - 4) * 200), at most 0.
    CHECK(gtkw_zoom_full(29'000'000, 1004) == Approx(-std::log2(29'000'001.0 / 1000.0 * 200.0)));
    CHECK(gtkw_zoom_full(29'000'000) == Approx(-22.8712).margin(0.001)); // the 756-pixel pane of a 760 one
    CHECK(gtkw_zoom_full(0) == 0.0);                                     // nothing to zoom out to
    CHECK(gtkw_zoom_full(1'000'000) > gtkw_zoom_full(2'000'000));
}

TEST_CASE("traces: gtkw: --gtkw writes a save file for exactly the run's signals", "[traces][gtkw]") {
    const std::string vcd = tmp("run.vcd"), gtkw = tmp("run.gtkw");
    const auto r = syncron::test::run_sim("--workload barrier --units 2 --cores 6 --ops 4 --timing at --scheme hier "
                                          "--vcd " +
                                          vcd + " --trace-var first --gtkw " + gtkw);
    INFO(r.out);
    REQUIRE(r.status == 0);
    const Vcd v = read_vcd(vcd);
    const SaveFile f = read_gtkw(gtkw);
    check_names_exist(f, v, gtkw);
    // Exactly the VCD's signals that changed and apply to the traced barrier
    // (SystemC orders the VCD's scopes its own way).
    const unsigned barrier = 1u << static_cast<unsigned>(Primitive::barrier);
    std::vector<std::string> want, got = f.signals;
    for (const auto& s : v.signals)
        if (v.changed.count(s.name) &&
            gtkw_applies(s.name.substr(s.name.rfind('.') + 1), s.name.rfind("var_", 0) == 0 ? barrier : 0u))
            want.push_back(gtkw_signal_name(s));
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    CHECK(got == want);
    CHECK(want.size() < v.signals.size());
    // The server cores and the links; not the first barrier variable (0x14040 on 2 units under hier:
    // variables follow the servers' tables) nor the SEs: hier's servers hold the barrier, so its SE rows
    // and the SEs never change (both in the VCD).
    const std::string text = slurp(gtkw);
    CHECK(text.find("+{u1.server state} SystemC.unit1.server.state[1:0]") != std::string::npos);
    CHECK(v.gtkwave_names.count("SystemC.var_0x14040.unit1.barrier_count[31:0]") == 1);
    CHECK(text.find("-variable 0x14040") == std::string::npos);
    CHECK(text.find("-SE 0") == std::string::npos);
    // The per-unit cores follow, closed (GTKWave's closed-group flags), beside the links.
    const size_t cores = text.find("-unit 0 cores"), links = text.find("-links");
    REQUIRE(cores != std::string::npos);
    REQUIRE(links != std::string::npos);
    CHECK(cores < links);
    CHECK(text.find("@c00200\n-unit 0 cores\n") != std::string::npos);
    // Zoomed to the whole run.
    CHECK(f.zoom == Approx(gtkw_zoom_full(v.last_time)).margin(0.05));
    CHECK(f.zoom < -10);
    // Filter files next to it, absolute paths, the generated contents.
    REQUIRE(f.filters.size() >= 3);
    for (const auto& p : f.filters) {
        INFO(p);
        CHECK(fs::path(p).is_absolute());
        CHECK(fs::exists(p));
    }
    CHECK(slurp(tmp("run_state.txt")) == gtkw_state_filter());
    CHECK(slurp(tmp("run_op.txt")) == gtkw_op_filter());
    const std::string owner = slurp(tmp("run_owner.txt"));
    CHECK(owner.find("\n1003 u1.core2\n1004 u1.server\n") != std::string::npos); // 3 clients + the server
    for (const char* f2 : {"run.vcd", "run.gtkw", "run_state.txt", "run_op.txt", "run_owner.txt"})
        std::remove(tmp(f2).c_str());
}

TEST_CASE("traces: gtkw: the save file leaves out what never changed and what does not apply", "[traces][gtkw]") {
    std::vector<TracedSignal> sigs = {
        {"var_0x10000.unit0.lock_owner", 32, true, 1u << static_cast<unsigned>(Primitive::lock)},
        {"var_0x10000.unit0.barrier_count", 32, true, 1u << static_cast<unsigned>(Primitive::lock)},
        {"var_0x10000.unit0.local_waiting", 15, true, 1u << static_cast<unsigned>(Primitive::lock)},
        {"unit0.se.overflow", 1, false, 0},
        {"unit0.vault1.requests_in_flight", 32, true, 0},
        {"unit0.vault2.requests_in_flight", 32, false, 0},
    };
    const std::string text = gtkw_save_file(sigs, 1000, {"s.txt", "o.txt", "w.txt"}, "test");
    CHECK(text.find("SystemC.var_0x10000.unit0.lock_owner[31:0]") != std::string::npos);
    CHECK(text.find("SystemC.var_0x10000.unit0.local_waiting[14:0]") != std::string::npos);
    CHECK(text.find("barrier_count") == std::string::npos); // a lock's: does not apply
    CHECK(text.find("overflow") == std::string::npos);      // never changed
    CHECK(text.find("SystemC.unit0.vault1.requests_in_flight[31:0]") != std::string::npos);
    CHECK(text.find("vault2") == std::string::npos);
    CHECK(text.find("[*] Left out: 3 of 6 signals") != std::string::npos);
    // Nothing left out: no such comment (the shipped save files).
    sigs.resize(1);
    CHECK(gtkw_save_file(sigs, 1000, {"s.txt", "o.txt", "w.txt"}, "test").find("Left out") == std::string::npos);
    // Kinds: a row applies when the variable was reported as its kind (or never reported).
    const unsigned lock = 1u << static_cast<unsigned>(Primitive::lock);
    const unsigned sem = 1u << static_cast<unsigned>(Primitive::semaphore);
    CHECK(gtkw_applies("lock_owner", lock));
    CHECK_FALSE(gtkw_applies("sem_resources", lock));
    CHECK(gtkw_applies("sem_resources", sem | lock));
    CHECK_FALSE(gtkw_applies("lock_owner", sem));
    CHECK(gtkw_applies("barrier_count", 0));
    CHECK(gtkw_applies("global_waiting", sem));
}

TEST_CASE("traces: gtkw: a run's save file shows its touched vaults and its lock's rows only", "[traces][gtkw]") {
    // The stack: its data in a few of hmc4's 32 vaults a unit, one lock (the first variable) under SynCron.
    const std::string vcd = tmp("stack.vcd"), gtkw = tmp("stack.gtkw");
    const auto r =
        syncron::test::run_sim("--workload stack --ops 4 --vcd " + vcd + " --trace-var first --gtkw " + gtkw);
    INFO(r.out);
    REQUIRE(r.status == 0);
    const Vcd v = read_vcd(vcd);
    const std::string text = slurp(gtkw);
    // The VCD keeps every signal; the save file names only those that changed.
    std::string untouched, touched, lock;
    for (const auto& s : v.signals) {
        if (s.name.rfind("var_", 0) == 0 && lock.empty()) lock = s.name.substr(0, s.name.find('.'));
        if (s.name.find(".vault") == std::string::npos) continue;
        std::string& which = v.changed.count(s.name) ? touched : untouched;
        if (which.empty()) which = gtkw_signal_name(s);
    }
    INFO(text);
    REQUIRE_FALSE(untouched.empty());
    REQUIRE_FALSE(touched.empty());
    REQUIRE_FALSE(lock.empty());
    CHECK(text.find(" " + untouched + "\n") == std::string::npos);
    CHECK(text.find(" " + touched + "\n") != std::string::npos);
    // The lock: its owner shown, its barrier and semaphore rows left out (declared in the VCD).
    CHECK(v.gtkwave_names.count("SystemC." + lock + ".unit0.barrier_count[31:0]") == 1);
    CHECK(text.find(lock + ".unit0.barrier_count") == std::string::npos);
    CHECK(text.find("barrier_count") == std::string::npos);
    CHECK(text.find("sem_resources") == std::string::npos);
    CHECK(text.find("SystemC." + lock + ".unit0.lock_owner[31:0]") != std::string::npos);
    CHECK(text.find("[*] Left out: ") != std::string::npos);
    // What a user opens it for first: the traced variable (open), then the SEs; the per-unit cores and
    // vaults follow, closed (GTKWave's closed-group flags).
    const std::string group = "-variable " + lock.substr(4);
    const size_t var = text.find(group + "\n"), se = text.find("-SE 0\n"), cores = text.find("-unit 0 cores\n");
    REQUIRE(var != std::string::npos);
    REQUIRE(se != std::string::npos);
    REQUIRE(cores != std::string::npos);
    CHECK(var < se);
    CHECK(se < cores);
    CHECK(text.find("@800200\n" + group + "\n") != std::string::npos); // open
    CHECK(text.find("@c00200\n-unit 0 cores\n") != std::string::npos);
    CHECK(text.find("@1401200\n-unit 0 vaults\n") != std::string::npos);
    CHECK(text.find("+{" + lock.substr(4) + " @SE0 lock_owner} SystemC." + lock + ".unit0.lock_owner[31:0]") !=
          std::string::npos);
    for (const char* f2 : {"stack.vcd", "stack.gtkw", "stack_state.txt", "stack_op.txt", "stack_owner.txt"})
        std::remove(tmp(f2).c_str());
}

TEST_CASE("traces: gtkw: bad --gtkw use fails before simulating", "[traces][gtkw]") {
    auto r = syncron::test::run_sim("--gtkw x.gtkw");
    CHECK(r.status == 2);
    CHECK_THAT(r.out, Catch::Contains("'--gtkw' needs '--vcd FILE'"));
    // A missing folder is a command-line error (sc_main/output_paths.cpp): nothing is elaborated.
    r = syncron::test::run_sim("--vcd " + tmp("bad.vcd") + " --gtkw /nonexistent-syncron-dir/x.gtkw");
    CHECK(r.status == 2);
    CHECK_THAT(r.out, Catch::Contains("option '--gtkw': the folder '/nonexistent-syncron-dir' of "
                                      "'/nonexistent-syncron-dir/x.gtkw' does not exist"));
    CHECK_THAT(r.out, !Catch::Contains("simulated time"));
    std::remove(tmp("bad.vcd").c_str());
}

TEST_CASE("traces: gtkw: --trace-var first traces the workload's first variable", "[traces][gtkw]") {
    // The default 4 units: the first semaphore is 0x10080 (docs/traces.md's table).
    const std::string vcd = tmp("first.vcd");
    const auto r = syncron::test::run_sim("--workload semaphore --ops 2 --vcd " + vcd + " --trace-var first");
    INFO(r.out);
    REQUIRE(r.status == 0);
    const Vcd v = read_vcd(vcd);
    CHECK(v.gtkwave_names.count("SystemC.var_0x10080.unit0.sem_resources[31:0]") == 1);
    std::remove(vcd.c_str());
    // A wrong address lists the valid ones.
    const auto bad = syncron::test::run_sim("--workload semaphore --ops 2 --vcd " + vcd + " --trace-var 0x10000");
    CHECK(bad.status == 2); // bad input, refused before the run
    CHECK_THAT(bad.out, Catch::Contains("the workload's variables: 0x10080"));
    std::remove(vcd.c_str());
}

TEST_CASE("traces: gtkw: the shipped save files fit the default run", "[traces][gtkw]") {
    // The documented commands: syncron-sim --vcd run.vcd [--trace-var first],
    // then gtkwave run.vcd traces/<file>.gtkw from the repository root.
    const std::string vcd = tmp("default.vcd");
    const auto r = syncron::test::run_sim("--vcd " + vcd + " --trace-var first");
    INFO(r.out);
    REQUIRE(r.status == 0);
    const Vcd v = read_vcd(vcd);
    const fs::path src = SYNCRON_SOURCE_DIR;
    const bool update = std::getenv("SYNCRON_UPDATE_GOLDEN") != nullptr;
    const GtkwFilterPaths filters{"traces/core_state.txt", "traces/core_op.txt", "traces/lock_owner.txt"};
    const std::string regenerate = "regenerate: SYNCRON_UPDATE_GOLDEN=1 build/testbenches/tests/test_traces "
                                   "\"traces: gtkw: the shipped save files fit the default run\"";

    // Filter files: the generated tables (lock owners of the default 4 x 16 cores).
    const std::vector<std::pair<std::string, std::string>> filter_files = {
        {"traces/core_state.txt", gtkw_state_filter()},
        {"traces/core_op.txt", gtkw_op_filter()},
        {"traces/lock_owner.txt", gtkw_owner_filter({16, 16, 16, 16})}};
    struct Shipped {
        const char* file;
        std::vector<std::string> globs;
        const char* title;
    };
    const std::string common =
        "Made by the generator of syncron-sim --gtkw for the default run (hmc4, lock, 4 units x 15\n"
        "client cores), zoomed to its whole length; other runs: syncron-sim --vcd run.vcd --gtkw run.gtkw.\n"
        "Open from the repository root (the filter files are named relative to it).\n" +
        regenerate;
    const std::vector<Shipped> shipped = {
        {"traces/se.gtkw", {"unit*.se.*"}, "SynCron SEs, one group per SE: gtkwave run.vcd traces/se.gtkw"},
        {"traces/cores.gtkw",
         {"unit*.core*.*", "unit*.server.*"},
         "NDP cores, one group per unit: gtkwave run.vcd traces/cores.gtkw"},
        {"traces/lock_handoff.gtkw",
         {"var_0x10000.*.lock_owner", "var_0x10000.*waiting", "var_0x10000.*.buffered", "var_0x10000.*.in_memory",
          "unit*.se.*"},
         "Lock hand-off of the default workload's first lock (0x10000) across the SEs, plus the SEs:\n"
         "syncron-sim --vcd run.vcd --trace-var first; gtkwave run.vcd traces/lock_handoff.gtkw"},
    };

    for (const auto& [file, text] : filter_files) {
        INFO(file);
        if (update) std::ofstream(src / file) << text;
        CHECK(slurp((src / file).string()) == text);
    }
    for (const auto& s : shipped) {
        INFO(s.file);
        INFO(regenerate);
        const std::string want =
            gtkw_save_file(matching(v, s.globs), v.last_time, filters, std::string(s.title) + "\n" + common);
        if (update) std::ofstream(src / s.file) << want;
        const SaveFile f = read_gtkw((src / s.file).string());
        check_names_exist(f, v, s.file);
        for (const auto& p : f.filters) {
            INFO(p);
            CHECK(fs::exists(src / p));
        }
        CHECK(f.zoom == Approx(gtkw_zoom_full(v.last_time)).margin(0.05));
        CHECK(slurp((src / s.file).string()) == want);
    }
    std::remove(vcd.c_str());
}
