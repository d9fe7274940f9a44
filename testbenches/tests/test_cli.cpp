// Command line of syncron-sim: flags, precedence, errors, help.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "platforms/workload_registry.h"
#include "sc_main/check_args.h"
#include "sc_main/cli.h"

using namespace syncron;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

CliOptions parse(std::vector<std::string> args) {
    args.insert(args.begin(), "syncron-sim");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    return parse_cli(static_cast<int>(argv.size()), argv.data());
}

std::string error_of(std::vector<std::string> args) {
    try {
        parse(std::move(args));
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("cli: no arguments give the hmc4 defaults", "[cli]") {
    const CliOptions o = parse({});
    CHECK(to_json(o.params) == to_json(SimParams{}));
    CHECK(o.stats_file.empty());
    CHECK_FALSE(o.dump_config);
    CHECK_FALSE(o.help);
    CHECK_FALSE(o.help_text.empty());
}

TEST_CASE("cli: each flag", "[cli]") {
    CHECK(parse({"--config", "hmc4"}).params.platform.units == 4);
    CHECK(parse({"--scheme", "syncron"}).params.platform.scheme == Scheme::syncron);
    CHECK(parse({"--workload", "barrier"}).params.workload.name == "barrier");
    CHECK(parse({"--workload=semaphore"}).params.workload.name == "semaphore");
    CHECK(parse({"--workload", "condvar"}).params.workload.name == "condvar");
    CHECK(parse({"--interval", "5000"}).params.workload.interval == 5000);
    CHECK(parse({"--ops", "7"}).params.workload.ops == 7);
    CHECK(parse({"--cores", "61"}).params.platform.client_cores == 61);
    CHECK(parse({"--timing", "lt"}).params.platform.timing == Timing::lt);
    CHECK(parse({"--seed", "42"}).params.workload.seed == 42);
    CHECK(parse({"--set", "se.st_entries=8"}).params.se.st_entries == 8);
    CHECK(parse({"--stats", "out.json"}).stats_file == "out.json");
    CHECK(parse({"--dump-config"}).dump_config);

    SECTION("--units keeps the client cores per unit unless --cores is given") {
        const CliOptions two = parse({"--units", "2"});
        CHECK(two.params.platform.units == 2);
        CHECK(two.params.platform.client_cores == 30);
        const CliOptions eight = parse({"--units", "8"});
        CHECK(eight.params.platform.client_cores == 120);
        const CliOptions both = parse({"--units", "2", "--cores", "32"});
        CHECK(both.params.platform.client_cores == 32);
    }
    SECTION("--config takes a file") {
        const auto file =
            std::filesystem::temp_directory_path() / ("syncron-cli-test-" + std::to_string(::getpid()) + ".json");
        std::ofstream(file) << R"({"description": "small", "platform": {"units": 1, "client_cores": 4}})";
        const CliOptions o = parse({"--config", file.string()});
        std::filesystem::remove(file);
        CHECK(o.params.platform.units == 1);
        CHECK(o.params.platform.client_cores == 4);
    }
}

TEST_CASE("cli: precedence is preset < --set < flags", "[cli]") {
    const CliOptions set_only = parse({"--set", "workload.interval=77"});
    CHECK(set_only.params.workload.interval == 77);
    const CliOptions flag_wins =
        parse({"--interval", "99", "--set", "workload.interval=77", "--set", "workload.ops=5"});
    CHECK(flag_wins.params.workload.interval == 99);
    CHECK(flag_wins.params.workload.ops == 5);
    // A flag wins over --set even when --set alone would be inconsistent.
    const CliOptions cores = parse({"--set", "platform.client_cores=100", "--cores", "20"});
    CHECK(cores.params.platform.client_cores == 20);
    CHECK(parse({"--set", "workload.name=barrier", "--workload", "lock"}).params.workload.name == "lock");
    // --units scales the client cores per unit of the preset with its --set overrides.
    const CliOptions units = parse({"--set", "platform.units=2", "--set", "platform.client_cores=10", "--units", "4"});
    CHECK(units.params.platform.units == 4);
    CHECK(units.params.platform.client_cores == 20);
    // ... but never above the hardware cores of a unit.
    const CliOptions capped = parse({"--set", "platform.units=1", "--units", "4"});
    CHECK(capped.params.platform.client_cores == 64);
}

TEST_CASE("cli: --set is repeatable and applied in order", "[cli]") {
    const CliOptions o = parse({"--set", "se.st_entries=8", "--set", "core.l1_bytes=32768",
                                "--set=link.latency_ns=10.5", "--set", "se.st_entries=4"});
    CHECK(o.params.se.st_entries == 4);
    CHECK(o.params.core.l1_bytes == 32768);
    CHECK(o.params.link.latency_ns == 10.5);
}

TEST_CASE("cli: bad values name the option", "[cli]") {
    CHECK_THAT(error_of({"--interval", "abc"}), Contains("'--interval'") && Contains("abc"));
    CHECK_THAT(error_of({"--interval", "-5"}), Contains("'--interval'"));
    CHECK_THAT(error_of({"--interval", "12x"}), Contains("'--interval'"));
    CHECK_THAT(error_of({"--interval", "99999999999"}), Contains("'--interval'") && Contains("out of range"));
    CHECK_THAT(error_of({"--interval"}), Contains("--interval"));
    CHECK_THAT(error_of({"--ops", "1.5"}), Contains("'--ops'"));
    CHECK_THAT(error_of({"--cores", "many"}), Contains("'--cores'"));
    CHECK_THAT(error_of({"--units", ""}), Contains("'--units'"));
    CHECK_THAT(error_of({"--seed", "x"}), Contains("'--seed'"));
    CHECK_THAT(error_of({"--scheme", "centrl"}),
               Contains("'--scheme'") && Contains("syncron") && Contains("remote_atomics"));
    CHECK_THAT(error_of({"--workload", "mutex"}), Contains("'--workload'") && Contains("condvar"));
    CHECK_THAT(error_of({"--timing", "ca"}), Contains("'--timing'"));
    CHECK(parse({"--timing", "at"}).params.platform.timing == Timing::at);
    CHECK(parse({"--set", "platform.timing=at"}).params.platform.timing == Timing::at);
    CHECK_THAT(error_of({"--timing", "tlm"}), Contains("'--timing'"));
    CHECK_THAT(error_of({"--set", "se.st_entries=abc"}), Contains("'se.st_entries'"));
    CHECK_THAT(error_of({"--set", "se.nope=1"}), Contains("'se.nope'"));
    CHECK_THAT(error_of({"--cores", "65"}), Contains("'platform.client_cores'"));
    CHECK_THAT(error_of({"--config", "no-such-preset"}), Contains("no-such-preset"));
    CHECK_THAT(error_of({"--ops", "1", "--ops", "2"}), Contains("--ops"));
}

TEST_CASE("cli: unknown options and stray arguments", "[cli]") {
    CHECK_THAT(error_of({"--frobnicate"}), Contains("--frobnicate"));
    // Abbreviations are not guessed.
    CHECK_THAT(error_of({"--inter", "5"}), Contains("--inter"));
    CHECK_THAT(error_of({"lock"}), Contains("'lock'"));
    // Every command-line error is a CliError (and so a ConfigError).
    CHECK_THROWS_AS(parse({"--frobnicate"}), CliError);
    CHECK_THROWS_AS(parse({"--interval", "abc"}), CliError);
}

TEST_CASE("cli: --help lists every option with its default and an example", "[cli]") {
    const CliOptions o = parse({"--help"});
    CHECK(o.help);
    for (const char* opt : {"--help", "--config", "--scheme", "--workload", "--interval", "--ops", "--cores", "--units",
                            "--timing", "--set", "--seed", "--stats", "--dump-config"}) {
        INFO(opt);
        CHECK_THAT(o.help_text, Contains(opt));
    }
    CHECK_THAT(o.help_text, Contains("hmc4"));
    CHECK_THAT(o.help_text, Contains("default"));
    CHECK_THAT(o.help_text, Contains("Examples:"));
    // Every registered workload, whatever it is and however the text wraps.
    const WorkloadRegistry& registry = WorkloadRegistry::instance();
    REQUIRE(registry.names().size() >= 20);
    for (const std::string& name : registry.names()) {
        INFO(name);
        CHECK_THAT(o.help_text, Contains(" " + name) && Contains(registry.info(name).family));
    }
    // Help does not need a loadable configuration.
    CHECK(parse({"-h", "--config", "no-such-preset"}).help);
}

TEST_CASE("cli: --scheme takes every scheme, --compare and --scheme all list them", "[cli][compare]") {
    for (const auto& s : implemented_schemes()) CHECK(to_string(parse({"--scheme", s}).params.platform.scheme) == s);
    CHECK(implemented_schemes().size() == 9);
    CHECK(parse({}).compare.empty());
    CHECK(parse({"--compare"}).compare == implemented_schemes());
    CHECK(parse({"--scheme", "all"}).compare == implemented_schemes());
    CHECK(parse({"--compare=all"}).compare == implemented_schemes());
    const auto two = parse({"--compare", "central,syncron,central"}).compare;
    CHECK(two == std::vector<std::string>{"central", "syncron"}); // in the given order, once each
    CHECK(parse({"--compare", "hier", "--workload", "barrier"}).params.workload.name == "barrier");
}

TEST_CASE("cli: bad --compare use names the problem", "[cli][compare]") {
    CHECK_THAT(error_of({"--compare", "central,hiear"}), Contains("'hiear'") && Contains("'--compare'"));
    CHECK_THAT(error_of({"--compare", ","}), Contains("'--compare' needs at least one scheme"));
    CHECK_THAT(error_of({"--compare", "--scheme", "hier"}), Contains("disagree"));
    CHECK_THAT(error_of({"--scheme", "all", "--compare", "hier"}), Contains("disagree"));
    CHECK_THAT(error_of({"--compare", "--vcd", "x.vcd"}), Contains("--compare") && Contains("trace"));
    CHECK_THAT(error_of({"--compare", "--trace-db", "x.db"}), Contains("trace"));
}

TEST_CASE("cli: the data structures scale one unit per 15 cores, as the paper does", "[cli]") {
    for (const auto& [cores, units] : {std::pair{15u, 1u}, {30u, 2u}, {45u, 3u}, {60u, 4u}, {16u, 2u}}) {
        const auto o = parse({"--workload", "stack", "--cores", std::to_string(cores)});
        INFO(cores << " cores");
        CHECK(o.params.platform.client_cores == cores);
        CHECK(o.params.platform.units == units);
    }
    // --units wins; the microbenchmarks keep spreading over the configured units.
    CHECK(parse({"--workload", "stack", "--cores", "30", "--units", "4"}).params.platform.units == 4);
    CHECK(parse({"--workload", "lock", "--cores", "30"}).params.platform.units == 4);
    // The configuration's workload counts too.
    CHECK(parse({"--set", "workload.name=\"queue\"", "--cores", "15"}).params.platform.units == 1);
}

TEST_CASE("cli: data-structure sizes and mixes, and their errors", "[cli]") {
    const auto o = parse({"--workload", "hash_table", "--set", "workload.elements=500", "--set",
                          "workload.update_percent=20", "--set", "workload.insert_percent=50"});
    CHECK(o.params.workload.elements == 500u);
    CHECK(o.params.workload.update_percent == 20u);
    CHECK(o.params.workload.insert_percent == 50u);
    CHECK_FALSE(parse({"--workload", "stack"}).params.workload.elements.has_value()); // Table 6
    CHECK_THROWS_WITH(parse({"--workload", "stack", "--set", "workload.elements=0"}),
                      Contains("workload.elements") && Contains("must be in 1..2^40, got 0"));
    CHECK_THROWS_WITH(parse({"--workload", "stack", "--set", "workload.elements=-5"}),
                      Contains("workload.elements") && Contains("non-negative integer"));
    CHECK_THROWS_WITH(parse({"--workload", "stack", "--set", "workload.update_percent=101"}),
                      Contains("workload.update_percent") && Contains("0..100"));
    CHECK_THROWS_WITH(parse({"--workload", "stack", "--ops", "0"}), Contains("workload.ops"));
    CHECK_THROWS_WITH(parse({"--workload", "stacks"}), Contains("stacks") && Contains("stack"));
}

TEST_CASE("cli: application inputs (--graph, --series, workload keys) and their errors", "[cli]") {
    const auto o = parse({"--workload", "cc", "--graph", "g.mtx", "--set", "workload.graph_format=snap", "--set",
                          "workload.rmat_scale=12", "--set", "workload.partition=metis"});
    CHECK(o.params.workload.name == "cc");
    CHECK(o.params.workload.graph == "g.mtx");
    CHECK(o.params.workload.graph_format == "snap");
    CHECK(o.params.workload.rmat_scale == 12u);
    CHECK(o.params.workload.partition == "metis");
    const auto t = parse(
        {"--workload", "ts", "--series", "s.csv", "--set", "workload.series_column=2", "--set", "workload.window=8"});
    CHECK(t.params.workload.series == "s.csv");
    CHECK(t.params.workload.series_column == 2u);
    CHECK(t.params.workload.window == 8u);
    // --graph beats a --set of the same key, as every dedicated flag does.
    CHECK(parse({"--workload", "bfs", "--graph", "a.txt", "--set", "workload.graph=b.txt"}).params.workload.graph ==
          "a.txt");
    // A file the workload would never read is a mistake.
    CHECK_THROWS_WITH(parse({"--workload", "lock", "--graph", "a.txt"}),
                      Contains("option '--graph': workload 'lock' reads no graph file"));
    CHECK_THROWS_WITH(parse({"--workload", "cc", "--series", "s.csv"}),
                      Contains("option '--series': workload 'cc' reads no series file (the workloads that do: ts)"));
    CHECK(parse({}).params.workload.graph.empty()); // R-MAT
    CHECK_THROWS_WITH(parse({"--set", "workload.graph_format=csv"}), Contains("workload.graph_format"));
    CHECK_THROWS_WITH(parse({"--set", "workload.rmat_scale=0"}), Contains("workload.rmat_scale") && Contains("1..26"));
    CHECK_THROWS_WITH(parse({"--set", "workload.partition=random"}), Contains("workload.partition"));
    CHECK_THROWS_WITH(parse({"--set", "workload.window=2"}), Contains("workload.window"));
    CHECK_THROWS_WITH(parse({"--set", "workload.series_length=20"}),
                      Contains("workload.series_length") && Contains("twice workload.window"));
    CHECK_THROWS_WITH(parse({"--set", "workload.series_column=0"}), Contains("workload.series_column"));
}

TEST_CASE("cli: --check-args answers each command line as --dump-config would, in order", "[cli]") {
    std::istringstream in(R"(["--workload", "barrier", "--set", "se.st_entries=8"])"
                          "\n"
                          R"(["--set", "se.st_entrys=8"])"
                          "\n"
                          "not json\n"
                          R"(["--cores", 3])"
                          "\n"
                          R"(["--help"])"
                          "\n[]\n");
    std::ostringstream out;
    REQUIRE(check_args(in, out) == 0);
    std::vector<json> answers;
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) answers.push_back(json::parse(line));
    REQUIRE(answers.size() == 6);
    // The configuration is the one --dump-config prints for the same arguments.
    CHECK(answers[0]["config"] == to_json(parse({"--workload", "barrier", "--set", "se.st_entries=8"}).params));
    CHECK(answers[0]["config"]["se"]["st_entries"] == 8);
    // A refused line carries the message the run would stop with, and the next lines are still answered.
    CHECK_THAT(answers[1]["error"].get<std::string>(), Contains("se.st_entrys") && Contains("se.st_entries"));
    CHECK(answers[2]["error"] == "standard input, line 3: not a JSON array of arguments");
    CHECK(answers[3]["error"] == "standard input, line 4: argument 3 is not a string");
    CHECK_THAT(answers[4]["error"].get<std::string>(), Contains("line 5: not the command line of a run"));
    CHECK(answers[5]["config"] == to_json(parse({}).params));
    // Given with anything else, its other flags would be ignored: refused.
    CHECK_THROWS_WITH(parse({"--check-args", "--cores", "4"}), Contains("give it alone"));
    CHECK(parse({"--check-args"}).check_args);
    CHECK_THROWS_WITH(parse({"--check-args", "--config", "hmc4"}), Contains("give it alone"));
}
