// Statistics providers (docs/stats.md): the walk's helpers sum and place the
// groups without changing their number types, and the typed readers name a
// missing key instead of reading it as zero.
#include <catch2/catch.hpp>

#include <array>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/stat_provider.h"
#include "platforms/comparison.h"
#include "platforms/run_summary.h"
#include "platforms/simulation.h"

using namespace syncron;
using nlohmann::json;

TEST_CASE("stats: accumulate_stats sums numbers key by key, recursing into objects", "[stats]") {
    json total = json::object();
    accumulate_stats(total, {{"n", uint64_t{2}}, {"t", 1.5}, {"kinds", {{"a", uint64_t{1}}}}});
    accumulate_stats(total, {{"n", uint64_t{3}}, {"t", 0.25}, {"kinds", {{"a", uint64_t{1}}, {"b", uint64_t{4}}}}});
    CHECK(total["n"].is_number_unsigned());
    CHECK(total["n"] == 5u);
    CHECK(total["t"].is_number_float());
    CHECK(total["t"] == 1.75);
    CHECK(total["kinds"] == json({{"a", 2u}, {"b", 4u}}));
    // Unsigned plus a float is a float: the dump shows which.
    accumulate_stats(total, {{"n", 0.5}});
    CHECK(total["n"].is_number_float());
    CHECK_THROWS_AS(accumulate_stats(total, {{"kinds", 1u}}), std::invalid_argument);
}

TEST_CASE("stats: take_stat moves a key out of a group, or names the missing one", "[stats]") {
    json group = {{"reads", 3u}, {"unit", 1u}};
    CHECK(take_stat(group, "reads") == 3u);
    CHECK(group == json({{"unit", 1u}}));
    CHECK_THROWS_WITH(take_stat(group, "reads"), Catch::Contains("'reads'"));
}

TEST_CASE("stats: nonzero_counts keeps the non-zero entries by name", "[stats]") {
    const std::array<uint64_t, 3> counts{0, 7, 0};
    const auto name = [](size_t i) { return std::string(1, char('a' + i)); };
    CHECK(nonzero_counts(counts, name) == json({{"b", 7u}}));
    CHECK(nonzero_counts(std::array<uint64_t, 2>{}, name) == json::object());
}

TEST_CASE("stats: a provider's group through stats_of", "[stats]") {
    struct Counter : StatProvider {
        void report_stats(const StatContext& ctx, json& out) const override {
            out["end"] = ctx.end_ticks;
            out["finished"] = ctx.finished;
        }
    };
    CHECK(stats_of(Counter{}, StatContext{42, true}) == json({{"end", 42u}, {"finished", true}}));
}

namespace {
json minimal_run() {
    return {{"status", "ok"},
            {"scheme", "syncron"},
            {"workload", "lock"},
            {"timing", "lt"},
            {"cores", 4u},
            {"units", 1u},
            {"throughput_ops_per_us", 2.0},
            {"simulated_ns", 10.0},
            {"bytes_within_units", 64u},
            {"bytes_across_links", 0u},
            {"sync_messages", 3u},
            {"energy",
             {{"cores", 1.0},
              {"caches", 2.0},
              {"network", 3.0},
              {"links", 0.0},
              {"memory", 4.0},
              {"se", 5.0},
              {"total", 15.0}}},
            {"data_movement",
             {{"within_units", {{"data", 16u}, {"sync", 48u}}},
              {"across_links", {{"data", 0u}, {"sync", 0u}}},
              {"total", 64u}}},
            {"sync_variables", {"0x40"}},
            {"sync_latency", json::object()},
            {"se_used", true},
            {"se",
             {{{"unit", 0u},
               {"messages", {{"lock_acquire_global", 2u}, {"lock_release_global", 1u}}},
               {"st_occupancy_avg", 0.5},
               {"st_occupancy_max", 1u},
               {"st_entries", 64u},
               {"overflow_requests", 0u}}}}};
}
} // namespace

TEST_CASE("stats: RunSummary reads a run once, by type", "[stats]") {
    const RunSummary s = RunSummary::from_stats(minimal_run());
    CHECK(s.scheme == "syncron");
    CHECK(s.cores == 4);
    CHECK(s.bytes_within_units == 64);
    REQUIRE(s.ses.size() == 1);
    CHECK(s.ses[0].messages == 3);
    CHECK(s.sync_variables == std::vector<std::string>{"0x40"});
    CHECK_FALSE(s.atomics);
    CHECK_FALSE(s.misar);
    CHECK(s.servers.empty());
    CHECK(s.energy.total == 15.0);
    CHECK(s.energy.se == 5.0);
    CHECK(s.data_movement.within_sync == 48);
}

TEST_CASE("stats: RunSummary names a missing key", "[stats]") {
    json j = minimal_run();
    j.erase("sync_messages");
    CHECK_THROWS_WITH(RunSummary::from_stats(j), Catch::Contains("'sync_messages'"));
    j = minimal_run();
    j["energy"].erase("links");
    CHECK_THROWS_WITH(RunSummary::from_stats(j), Catch::Contains("energy") && Catch::Contains("'links'"));
    j = minimal_run();
    j["se"][0].erase("st_entries");
    CHECK_THROWS_WITH(RunSummary::from_stats(j), Catch::Contains("se[]") && Catch::Contains("'st_entries'"));
    j = minimal_run();
    j["misar"] = {{"aborts", 1u}, {"fallbacks", 0u}};
    CHECK_THROWS_WITH(RunSummary::from_stats(j), Catch::Contains("'retries'"));
    // A run whose platform was never built has only what ran.
    j = minimal_run();
    j.erase("simulated_ns");
    CHECK(RunSummary::from_stats(j).bytes_within_units == 0);
}

TEST_CASE("stats: SchemeRow requires every figure of a clean run, not of a failed one", "[stats][compare]") {
    json j = minimal_run();
    j["operations"] = 20u;
    const SchemeRow ok = SchemeRow::from_stats("syncron", j);
    CHECK(ok.ok());
    CHECK(ok.operations == 20);
    CHECK(ok.server_busy_fraction == 0); // no server cores
    j.erase("operations");
    CHECK_THROWS_WITH(SchemeRow::from_stats("syncron", j),
                      Catch::Contains("syncron") && Catch::Contains("'operations'"));
    const SchemeRow failed = SchemeRow::from_stats("hier", {{"status", "error"}, {"error", "configuration: bad"}});
    CHECK_FALSE(failed.ok());
    CHECK(failed.error == std::optional<std::string>("configuration: bad"));
    CHECK(failed.to_json()["speedup_over_baseline"].is_null());
    CHECK(failed.to_json()["operations"] == 0u);
}

namespace {
/// The column at which `word` appears in each line starting with `prefix`.
std::vector<size_t> columns_of(const std::string& text, const std::string& prefix, const std::string& word) {
    std::vector<size_t> cols;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) cols.push_back(line.find(word));
    return cols;
}

/// A run of `units` SEs whose numbers grow in width from SE to SE.
SimulationResult wide_run(unsigned units, unsigned cores) {
    json j = minimal_run();
    j["units"] = units;
    j["cores"] = cores;
    j["se"] = json::array();
    for (unsigned u = 0; u < units; ++u)
        j["se"].push_back({{"unit", u},
                           {"messages", {{"lock_acquire_global", uint64_t{1} << (u % 40)}}},
                           {"st_occupancy_avg", 0.5 * u * u},
                           {"st_occupancy_max", u * 3},
                           {"st_entries", 64u},
                           {"overflow_requests", uint64_t{u} * u * u}});
    j["servers"] = json::array();
    for (unsigned u = 0; u < units; u += 5)
        j["servers"].push_back({{"unit", u}, {"messages_handled", uint64_t{7} << u}, {"busy_fraction", u / 70.0}});
    j["sync_latency"] = {{"lock_acquire",
                          {{"count", 12345678u},
                           {"mean_ns", 5.5},
                           {"p50_ns", 3.0},
                           {"p95_ns", 120.25},
                           {"p99_ns", 4000.5},
                           {"max_ns", 123456.0}}},
                         {"barrier_wait_across_units",
                          {{"count", 9u},
                           {"mean_ns", 15000.0},
                           {"p50_ns", 14000.0},
                           {"p95_ns", 16000.0},
                           {"p99_ns", 16000.0},
                           {"max_ns", 17000.0}}}};
    SimulationResult r;
    r.ok = true;
    r.stats = j;
    return r;
}

void check_aligned(const std::string& text, unsigned units) {
    INFO(text);
    // Every value starts in the same column as the status line's, whatever its label.
    std::istringstream in(text);
    std::string line;
    std::getline(in, line); // the title
    std::getline(in, line);
    REQUIRE(line.rfind("  status ", 0) == 0);
    const size_t value = line.find_first_not_of(' ', 8);
    while (std::getline(in, line)) {
        // A label padded to the value column (a right-aligned number may add blanks after it).
        REQUIRE(line.size() > value);
        CHECK(line[value - 1] == ' ');
    }
    // Within the SE rows every field lines up.
    for (const char* word : {" messages", "ST occupancy", " max ", " overflow requests"}) {
        const auto cols = columns_of(text, "  SE ", word);
        REQUIRE(cols.size() == units);
        for (const size_t c : cols) CHECK(c == cols.front());
    }
    for (const char* word : {" messages", "busy"}) {
        const auto cols = columns_of(text, "  server", word);
        for (const size_t c : cols) CHECK(c == cols.front());
    }
    for (const char* word : {" waits", " p50 ", " p95 ", " p99 ", " max "}) {
        auto cols = columns_of(text, "  lock acquire", word);
        const auto more = columns_of(text, "  barrier (all)", word);
        cols.insert(cols.end(), more.begin(), more.end());
        REQUIRE(cols.size() == 2);
        CHECK(cols[0] == cols[1]);
    }
}
} // namespace

TEST_CASE("stats: the printed summary stays aligned from SE 10 on and at 64 units / 1024 cores", "[stats][summary]") {
    check_aligned(summary(wide_run(16, 240)), 16);
    check_aligned(summary(wide_run(64, 1024)), 64);
    // The usual labels keep their usual width.
    const std::string s = summary(wide_run(4, 60));
    CHECK_THAT(s, Catch::Contains("  status            ok\n"));
    CHECK_THAT(
        s, Catch::Contains("  SE 0              1 messages, ST occupancy avg 0.00 max 0 of 64,  0 overflow requests"));
}
