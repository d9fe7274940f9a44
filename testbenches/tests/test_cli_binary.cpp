// syncron-sim as a user runs it: the default job, statistics files,
// determinism, and clear errors for bad input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "platforms/build_info.h"
#include "testbenches/tests/child_result.h"
#include "testbenches/tests/sim_binary.h"

namespace {

using Run = syncron::test::SimRun;
Run sim(const std::string& args) { return syncron::test::run_sim(args); }

nlohmann::json read_json(const std::string& path) {
    std::ifstream f(path);
    REQUIRE(f);
    return nlohmann::json::parse(f);
}

std::string tmp(const std::string& name) { return syncron::test::temp_path("syncron_test_", name); }

} // namespace

TEST_CASE("cli binary: no arguments run the default platform and workload", "[cli][binary]") {
    const Run r = sim("--ops 5");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("scheme syncron, workload lock, lt, 60 cores on 4 units"));
    CHECK_THAT(r.out, Catch::Contains("status            ok"));
}

TEST_CASE("cli binary: --stats writes the documented fields", "[cli][binary]") {
    const std::string f = tmp("stats.json");
    const Run r = sim("--workload barrier --ops 5 --interval 100 --stats " + f);
    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto j = read_json(f);
    for (const char* k : {"scheme", "workload", "timing", "cores", "units", "simulated_ns", "operations",
                          "throughput_ops_per_us", "bytes_within_units", "bytes_across_links", "se"})
        CHECK(j.contains(k));
    CHECK(j["workload"] == "barrier");
    CHECK(j["interval"] == 100);
    CHECK(j["operations"] == 300);
    REQUIRE(j["se"].size() == 4);
    for (const auto& se : j["se"]) {
        CHECK(se.contains("messages"));
        CHECK(se.contains("st_occupancy_avg"));
        CHECK(se.contains("st_occupancy_max"));
        CHECK(se.contains("overflow_requests"));
    }
    std::remove(f.c_str());
}

TEST_CASE("cli binary: the same seed gives identical statistics, another seed other ones", "[cli][binary]") {
    const std::string a = tmp("a.json"), b = tmp("b.json"), c = tmp("c.json");
    const std::string args = " --workload condvar --ops 10 --set se.st_entries=1 --set workload.variables=3 --stats ";
    REQUIRE(sim("--seed 7" + args + a).status == 0);
    REQUIRE(sim("--seed 7" + args + b).status == 0);
    REQUIRE(sim("--seed 8" + args + c).status == 0);
    auto ja = read_json(a), jb = read_json(b), jc = read_json(c);
    ja.erase("host"), jb.erase("host"), jc.erase("host");
    CHECK(ja == jb);
    CHECK(ja["simulated_ns"] != jc["simulated_ns"]);
    for (const auto& f : {a, b, c}) std::remove(f.c_str());
}

TEST_CASE("cli binary: --version names the version and the commit, and the statistics record them with the "
          "configuration and seed",
          "[cli][binary][version]") {
    const Run v = sim("--version");
    REQUIRE(v.status == 0);
    CHECK(v.out == std::string("syncron-sim ") + SYNCRON_VERSION + " (commit " + syncron::build_commit() + ")\n");
    // A commit is a hex hash, possibly "-dirty", or "unknown" outside git.
    const std::string commit = syncron::build_commit();
    const std::string hash = commit.substr(0, commit.find('-'));
    CHECK((commit == "unknown" || (!hash.empty() && hash.find_first_not_of("0123456789abcdef") == std::string::npos)));

    const std::string f = tmp("identity.json");
    const std::string args = "--workload barrier --ops 3 --set se.st_entries=8 --cores 8 --seed 11";
    REQUIRE(sim(args + " --stats " + f).status == 0);
    const auto j = read_json(f);
    CHECK(j["build"]["version"] == SYNCRON_VERSION);
    CHECK(j["build"]["commit"] == commit);
    CHECK(j["seed"] == 11);
    const Run dump = sim(args + " --dump-config");
    REQUIRE(dump.status == 0);
    CHECK(j["config"] == nlohmann::json::parse(dump.out)); // the same effective configuration
    std::remove(f.c_str());
}

TEST_CASE("cli binary: --dump-config prints the effective configuration", "[cli][binary]") {
    const Run r = sim("--dump-config --set se.st_entries=8 --cores 32");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["se"]["st_entries"] == 8);
    CHECK(j["platform"]["client_cores"] == 32);
}

TEST_CASE("cli binary: an unknown workload is refused with the known ones", "[cli][binary][errors]") {
    const Run r = sim("--workload mutex");
    CHECK(r.status != 0);
    CHECK_THAT(r.out, Catch::Contains("mutex"));
    CHECK_THAT(r.out, Catch::Contains("lock"));
}

TEST_CASE("cli binary: a bad --set value names the key", "[cli][binary][errors]") {
    const Run r = sim("--set se.st_entries=many");
    CHECK(r.status != 0);
    CHECK_THAT(r.out, Catch::Contains("se.st_entries"));
    const Run u = sim("--set se.st_entriez=4");
    CHECK(u.status != 0);
    CHECK_THAT(u.out, Catch::Contains("se.st_entriez"));
}

TEST_CASE("cli binary: a misspelt option gets the closest one, a bad flag value names the flag",
          "[cli][binary][errors]") {
    const Run r = sim("--worklaod lock");
    CHECK(r.status == 2);
    CHECK_THAT(r.out, Catch::Contains("unrecognised option '--worklaod' (did you mean '--workload'?)"));
    const Run far = sim("--frobnicate 3");
    CHECK(far.status == 2);
    CHECK_THAT(far.out, Catch::Contains("'--frobnicate'") && !Catch::Contains("did you mean"));
    const Run cores = sim("--cores 0");
    CHECK(cores.status == 2);
    CHECK_THAT(cores.out, Catch::Contains("option '--cores': 'platform.client_cores' must be in 1..2^16, got 0"));
}

TEST_CASE("cli binary: a trace run lists the files it wrote, --gtkw's filter files included", "[cli][binary][out]") {
    const std::string base = tmp("wrote");
    const Run r = sim("--ops 2 --vcd " + base + ".vcd --gtkw " + base + ".gtkw --stats " + base + ".json");
    INFO(r.out);
    REQUIRE(r.status == 0);
    const std::vector<std::string> files = {base + ".json",      base + ".vcd",    base + ".gtkw",
                                            base + "_state.txt", base + "_op.txt", base + "_owner.txt"};
    std::string line = "syncron-sim: wrote ";
    for (size_t i = 0; i < files.size(); ++i) line += (i ? ", " : "") + files[i];
    CHECK_THAT(r.out, Catch::Contains(line + "\n"));
    for (const std::string& f : files) {
        CHECK(std::filesystem::exists(f));
        std::remove(f.c_str());
    }
    // A run without traces prints its summary only.
    CHECK_THAT(sim("--ops 2").out, !Catch::Contains("wrote"));
}

TEST_CASE("cli binary: a missing configuration file is named", "[cli][binary][errors]") {
    const Run r = sim("--config /nonexistent/preset.json");
    CHECK(r.status != 0);
    CHECK_THAT(r.out, Catch::Contains("/nonexistent/preset.json"));
}

TEST_CASE("cli binary: an unwritable stats path fails before simulating", "[cli][binary][errors]") {
    const Run r = sim("--stats /nonexistent/dir/stats.json");
    CHECK(r.status != 0);
    CHECK_THAT(r.out, Catch::Contains("/nonexistent/dir/stats.json"));
    CHECK_THAT(r.out, !Catch::Contains("simulated time"));
}

TEST_CASE("cli binary: --compare prints one row per scheme and writes the table", "[cli][binary][compare]") {
    const std::string f = tmp("compare.json");
    const Run r = sim("--compare central,syncron,ideal --ops 5 --stats " + f);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("Scheme comparison: workload lock"));
    CHECK_THAT(r.out, Catch::Contains("1.00x")); // central against itself
    const auto j = read_json(f);
    REQUIRE(j["rows"].size() == 3);
    CHECK(j["baseline"] == "central");
    CHECK(j["rows"][0]["scheme"] == "central");
    CHECK(j["rows"][0]["speedup_over_baseline"] == 1.0);
    for (const auto& row : j["rows"]) {
        CHECK_RUN_OK(row);
        CHECK(row["operations"] == 300);
        CHECK(j["runs"][row["scheme"].get<std::string>()]["throughput_ops_per_us"] == row["throughput_ops_per_us"]);
    }
    CHECK(j["rows"][1]["speedup_over_baseline"].get<double>() > 1.0); // SynCron beats Central
    CHECK(j["runs"]["central"].contains("servers"));
    CHECK(j["rows"][2]["sync_messages"] == 0); // ideal
}

TEST_CASE("cli binary: --compare's speedup is a ratio of times where the schemes' operation counts differ",
          "[cli][binary][compare]") {
    // cc tests a neighbour before locking it: how many locks it takes depends on
    // its races, so the schemes complete different counts of operations.
    const std::string f = tmp("compare_cc.json");
    const Run r = sim("--workload cc --compare central,syncron --set workload.rmat_scale=7 --stats " + f);
    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto j = read_json(f);
    REQUIRE(j["rows"].size() == 2);
    const auto& central = j["rows"][0];
    const auto& syncron = j["rows"][1];
    CHECK(central["operations"] != syncron["operations"]);
    CHECK(syncron["speedup_over_baseline"].get<double>() ==
          central["simulated_ns"].get<double>() / syncron["simulated_ns"].get<double>());
}

TEST_CASE("cli binary: --compare keeps a failing scheme's row and exits 1", "[cli][binary][compare]") {
    const std::string f = tmp("compare_fail.json");
    const Run r = sim("--compare syncron,central --cores 64 --ops 5 --stats " + f);
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::Contains("ERROR"));
    CHECK_THAT(r.out, Catch::Contains("leaves no core of unit 0 free for the central server"));
    const auto j = read_json(f);
    REQUIRE(j["rows"].size() == 2);
    CHECK(j["rows"][0]["status"] == "ok");
    CHECK(j["rows"][1]["status"] == "error");
    CHECK(j["rows"][1]["speedup_over_baseline"].is_null());
}

namespace {
std::string slurp(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}
} // namespace

TEST_CASE("cli binary: --out writes the run's folder with fixed names", "[cli][binary][out]") {
    const std::string dir = tmp("out_run") + "/nested";
    std::filesystem::remove_all(tmp("out_run"));
    const Run r = sim("--workload barrier --ops 3 --seed 5 --out " + dir + " --vcd --trace-db --trace-json");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(files_in(dir) == std::vector<std::string>{"config.json", "stats.json", "summary.txt", "timeline.json",
                                                    "trace.db", "trace.vcd"});
    const auto stats = read_json(dir + "/stats.json");
    CHECK(stats["workload"] == "barrier");
    CHECK(stats["seed"] == 5);
    CHECK(read_json(dir + "/config.json") == stats["config"]);
    CHECK(read_json(dir + "/config.json") ==
          nlohmann::json::parse(sim("--workload barrier --ops 3 --seed 5 --dump-config").out));
    // What was printed; stderr only lists the files written.
    const std::string wrote = "syncron-sim: wrote " + dir + "/config.json, " + dir + "/stats.json, " + dir +
                              "/summary.txt, " + dir + "/trace.vcd, " + dir + "/trace.db, " + dir + "/timeline.json\n";
    REQUIRE_THAT(r.out, Catch::EndsWith(wrote));
    CHECK(slurp(dir + "/summary.txt") == r.out.substr(0, r.out.size() - wrote.size()));
    CHECK_THAT(slurp(dir + "/trace.vcd"), Catch::Contains("$enddefinitions"));
    CHECK(nlohmann::json::parse(slurp(dir + "/timeline.json")).contains("traceEvents"));
    std::filesystem::remove_all(tmp("out_run"));
}

TEST_CASE("cli binary: --out with explicit trace names and --stats writes those files too", "[cli][binary][out]") {
    const std::string dir = tmp("out_named"), vcd = tmp("out_named.vcd"), stats = tmp("out_named.json");
    std::filesystem::remove_all(dir);
    const Run r = sim("--ops 2 --out " + dir + " --vcd " + vcd + " --stats " + stats);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(files_in(dir) == std::vector<std::string>{"config.json", "stats.json", "summary.txt"});
    CHECK(std::filesystem::exists(vcd));
    auto a = read_json(stats), b = read_json(dir + "/stats.json");
    CHECK(a == b);
    std::filesystem::remove_all(dir);
    std::remove(vcd.c_str());
    std::remove(stats.c_str());
}

TEST_CASE("cli binary: --out with --compare holds the comparison", "[cli][binary][out][compare]") {
    const std::string dir = tmp("out_compare");
    std::filesystem::remove_all(dir);
    const Run r = sim("--compare central,syncron --ops 2 --out " + dir);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(files_in(dir) == std::vector<std::string>{"config.json", "stats.json", "summary.txt"});
    const auto j = read_json(dir + "/stats.json");
    CHECK(j["rows"].size() == 2);
    CHECK(j["runs"].contains("syncron"));
    CHECK_THAT(slurp(dir + "/summary.txt"), Catch::Contains("Scheme comparison"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("cli binary: --out errors are clear and come before simulating", "[cli][binary][out][errors]") {
    const std::string file = tmp("out_is_a_file");
    std::ofstream(file) << "x";
    Run r = sim("--ops 2 --out " + file);
    CHECK(r.status == 2);
    CHECK_THAT(r.out, Catch::Contains("--out '" + file + "' exists and is not a folder"));
    CHECK_THAT(r.out, !Catch::Contains("simulated time"));
    r = sim("--ops 2 --out " + file + "/sub");
    CHECK(r.status == 2);
    CHECK_THAT(r.out, Catch::Contains("cannot create output folder"));
    std::remove(file.c_str());
    // A bare trace flag needs --out.
    r = sim("--ops 2 --vcd");
    CHECK(r.status == 2);
    CHECK_THAT(r.out, Catch::Contains("option '--vcd' needs a file name (or '--out DIR' to write trace.vcd there)"));
}
