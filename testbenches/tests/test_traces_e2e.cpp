// The trace outputs of a real run of syncron-sim: the waveform, the database
// and the timeline exist, agree with the statistics, and stay complete when
// the run is interrupted; bad trace arguments fail before simulating.
#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "platforms/build_info.h"
#include "testbenches/tests/sim_binary.h"

namespace {

using Run = syncron::test::SimRun;
Run sim(const std::string& args) { return syncron::test::run_sim(args); }

std::string tmp(const std::string& name) { return syncron::test::temp_path("syncron_tr_", name); }

std::string slurp(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

long long query(const std::string& db, const std::string& sql) {
    sqlite3* h = nullptr;
    REQUIRE(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
    long long v = -1;
    if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

std::string text_query(const std::string& db, const std::string& sql) {
    sqlite3* h = nullptr;
    REQUIRE(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
    std::string v;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

/// Values a VCD signal takes (its identifier is looked up by name).
std::vector<std::string> vcd_values(const std::string& vcd, const std::string& scope_path, const std::string& name) {
    // Find "$var wire N id name" inside the nested scopes of scope_path ("unit0.se").
    std::istringstream in(vcd);
    std::vector<std::string> scopes;
    std::string id, line, want = "SystemC." + scope_path;
    while (std::getline(in, line) && id.empty()) {
        std::istringstream ls(line);
        std::string tok;
        ls >> tok;
        if (tok == "$scope") {
            std::string kind, n;
            ls >> kind >> n;
            scopes.push_back(n);
        } else if (tok == "$upscope") {
            if (!scopes.empty()) scopes.pop_back();
        } else if (tok == "$var") {
            std::string type, width, ident, n;
            ls >> type >> width >> ident >> n;
            std::string path;
            for (const auto& s : scopes) path += (path.empty() ? "" : ".") + s;
            if (path == want && n == name) id = ident;
        }
    }
    std::vector<std::string> values;
    if (id.empty()) return values;
    std::istringstream body(vcd);
    while (std::getline(body, line)) {
        if (line.empty() || line[0] == '#' || line[0] == '$') continue;
        if (line[0] == 'b') { // vector: b0101 id
            const auto sp = line.find(' ');
            if (sp != std::string::npos && line.substr(sp + 1) == id) values.push_back(line.substr(1, sp - 1));
        } else if (line.size() > 1 && line.substr(1) == id) {
            values.push_back(line.substr(0, 1));
        }
    }
    return values;
}

} // namespace

TEST_CASE("traces e2e: VCD, database and timeline of one run agree with its statistics", "[traces][e2e]") {
    const std::string vcd = tmp("run.vcd"), db = tmp("run.db"), js = tmp("run.json"), stats = tmp("stats.json");
    const Run r = sim("--workload lock --ops 20 --set workload.memory_check=true --vcd " + vcd +
                      " --trace-var 0x10000 --trace-db " + db + " --trace-json " + js + " --stats " + stats);
    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(slurp(stats));

    // Database: one row per message transfer, one per SPU service.
    const long long messages = query(db, "SELECT COUNT(*) FROM messages");
    CHECK(messages == j["sync_messages"].get<long long>());
    long long processed = 0;
    for (const auto& se : j["se"]) processed += se["messages_processed"].get<long long>();
    CHECK(query(db, "SELECT COUNT(*) FROM services") == processed);
    CHECK(query(db, "SELECT COUNT(*) FROM messages WHERE opcode='lock_grant_local'") == 60 * 20);
    CHECK(query(db, "SELECT COUNT(*) FROM messages WHERE latency_ns < 0") == 0);
    CHECK(query(db, "SELECT COUNT(*) FROM meta WHERE key='status' AND value='ok'") == 1);
    // The run's identity: the build, the seed and the effective configuration, as in the statistics.
    CHECK(text_query(db, "SELECT value FROM meta WHERE key='version'") == syncron::build_version());
    CHECK(text_query(db, "SELECT value FROM meta WHERE key='commit'") == syncron::build_commit());
    CHECK(text_query(db, "SELECT value FROM meta WHERE key='seed'") == std::to_string(j["seed"].get<uint64_t>()));
    CHECK(nlohmann::json::parse(text_query(db, "SELECT value FROM meta WHERE key='configuration'")) == j["config"]);
    CHECK(j["build"] == nlohmann::json{{"version", syncron::build_version()}, {"commit", syncron::build_commit()}});

    // Waveform: SE signals are declared and change; the traced lock has an owner at some point.
    const std::string v = slurp(vcd);
    REQUIRE_FALSE(v.empty());
    const auto occ = vcd_values(v, "unit0.se", "st_occupancy");
    CHECK(occ.size() >= 2);
    const auto owner = vcd_values(v, "var_0x10000.unit0", "lock_owner");
    CHECK(owner.size() >= 2);
    const auto state = vcd_values(v, "unit1.core3", "state");
    CHECK(state.size() >= 3);
    // The lock's counter (0x10040, vault 1 of unit 0) is read and written in every critical section.
    const auto vault = vcd_values(v, "unit0.vault1", "requests_in_flight");
    CHECK(vault.size() >= 2);
    CHECK(query(db, "SELECT COUNT(*) FROM memory WHERE target_unit=0 AND target_vault=1") == 2 * 60 * 20);

    // Timeline: valid JSON with a track per core and SE services.
    const auto t = nlohmann::json::parse(slurp(js));
    REQUIRE(t.contains("traceEvents"));
    size_t complete = 0, services = 0;
    for (const auto& e : t["traceEvents"])
        if (e.value("ph", "") == "X") {
            ++complete;
            if (e.value("name", "") == "lock_release_local") ++services;
        }
    CHECK(complete > 1000);
    CHECK(services > 0);
    for (const auto& f : {vcd, db, js, stats}) std::remove(f.c_str());
}

TEST_CASE("traces e2e: an unwritable trace path fails before simulating", "[traces][e2e][errors]") {
    // A missing folder is a command-line error (sc_main/output_paths.cpp): nothing is elaborated.
    for (const char* flag : {"--trace-db", "--trace-json", "--vcd"}) {
        const Run r = sim(std::string(flag) + " /nonexistent/dir/trace.out --ops 5");
        INFO(flag << ": " << r.out);
        CHECK(r.status == 2);
        CHECK_THAT(r.out,
                   Catch::Contains("the folder '/nonexistent/dir' of '/nonexistent/dir/trace.out' does not exist"));
        CHECK_THAT(r.out, !Catch::Contains("simulated time"));
    }
}

TEST_CASE("traces e2e: --trace-var of an address that is not a synchronization variable", "[traces][e2e][errors]") {
    const Run r = sim("--ops 5 --vcd " + tmp("x.vcd") + " --trace-var 0x12345");
    CHECK(r.status == 2); // bad input: refused before the run, as the other input errors
    CHECK_THAT(r.out, Catch::Contains("0x12345 is not a synchronization variable"));
    CHECK_THAT(r.out, Catch::Contains("0x10000")); // the ones that exist are listed
    CHECK_THAT(r.out, !Catch::Contains("simulated time"));
    std::remove(tmp("x.vcd").c_str());
    const Run bad = sim("--trace-var nothex --vcd " + tmp("y.vcd"));
    CHECK(bad.status != 0);
    CHECK_THAT(bad.out, Catch::Contains("--trace-var"));
}

TEST_CASE("traces e2e: a --trace-var or --trace-filter naming nothing leaves every earlier output as it was",
          "[traces][e2e][errors]") {
    // Earlier results under the names the refused run asks for: each must survive byte for byte.
    const std::string vcd = tmp("keep.vcd"), js = tmp("keep.json"), db = tmp("keep.db"), stats = tmp("keep_stats.json");
    const std::vector<std::pair<std::string, std::string>> earlier = {{vcd, "$comment earlier waveform $end\n"},
                                                                      {js, "{\"earlier\": 1}\n"},
                                                                      {db, "earlier database\n"},
                                                                      {stats, "{\"earlier\": 2}\n"}};
    for (const std::string bad : {" --trace-var 0x12345", " --trace-filter 'nothing_by_this_name*'"}) {
        INFO(bad);
        for (const auto& [path, text] : earlier) std::ofstream(path) << text;
        const Run r =
            sim("--ops 5 --vcd " + vcd + " --trace-json " + js + " --trace-db " + db + " --stats " + stats + bad);
        CHECK(r.status == 2);
        CHECK_THAT(r.out, Catch::Contains("syncron-sim: --trace-"));
        for (const auto& [path, text] : earlier) {
            INFO(path);
            CHECK(slurp(path) == text);
        }
        // No temporary file of theirs left beside them.
        for (const auto& entry : std::filesystem::directory_iterator(syncron::test::temp_dir())) {
            const std::string name = entry.path().filename().string();
            CHECK_FALSE((name.find("keep") != std::string::npos && name.find(".tmp.") != std::string::npos));
        }
    }
    for (const auto& [path, text] : earlier) std::remove(path.c_str());
}

TEST_CASE("traces e2e: SIGINT stops the run and leaves complete traces and statistics", "[traces][e2e][sigint]") {
    const std::string db = tmp("int.db"), js = tmp("int.json"), vcd = tmp("int.vcd"), stats = tmp("int_stats.json");
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        // A long run: it is interrupted well before the end.
        const std::string out = tmp("int.out");
        freopen(out.c_str(), "w", stdout);
        freopen(out.c_str(), "a", stderr);
        execl(SYNCRON_SIM_BINARY, SYNCRON_SIM_BINARY, "--ops", "200000", "--trace-db", db.c_str(), "--trace-json",
              js.c_str(), "--vcd", vcd.c_str(), "--stats", stats.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    // Wait until the run is under way (the database has rows), then interrupt.
    for (int i = 0; i < 200; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::ifstream f(db);
        if (f && f.seekg(0, std::ios::end).tellg() > 100000) break;
    }
    kill(pid, SIGINT);
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    const auto j = nlohmann::json::parse(slurp(stats));
    CHECK(j["status"] == "interrupted");
    CHECK_THAT(j["error"].get<std::string>(), Catch::Contains("interrupted (SIGINT)"));
    CHECK(query(db, "SELECT COUNT(*) FROM messages") > 0);
    CHECK(query(db, "SELECT COUNT(*) FROM meta WHERE key='status' AND value LIKE 'interrupted%'") == 1);
    CHECK_NOTHROW(nlohmann::json::parse(slurp(js)));
    CHECK(slurp(vcd).find("$enddefinitions") != std::string::npos);
    for (const auto& f : {db, js, vcd, stats, tmp("int.out")}) std::remove(f.c_str());
}
