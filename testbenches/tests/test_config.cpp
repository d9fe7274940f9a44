// Configuration: JSON <-> SimParams, presets, --set overrides, validation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "platforms/config/config.h"
#include "platforms/config/json_text.h"

using namespace syncron;
using nlohmann::json;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// A configuration with one key changed, for the error-class tests.
json with(const std::string& section, const std::string& key, json value) {
    json cfg = json::object();
    cfg[section][key] = std::move(value);
    return cfg;
}

// Expects from_json(cfg) to throw a ConfigError mentioning every given fragment.
void expect_error(const json& cfg, std::initializer_list<const char*> fragments) {
    try {
        from_json(cfg);
        FAIL("no ConfigError for " << cfg.dump());
    } catch (const ConfigError& e) {
        for (const char* f : fragments) CHECK_THAT(e.what(), Contains(f));
    }
}

std::string what_of_set(json& cfg, const std::string& kv) {
    try {
        apply_set(cfg, kv);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

// A scratch directory removed at the end of the test.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        path = std::filesystem::temp_directory_path() / ("syncron-config-test-" + std::to_string(::getpid()));
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name) << text;
        return (path / name).string();
    }
};

} // namespace

TEST_CASE("config: defaults round-trip through JSON", "[config]") {
    const SimParams defaults;
    const json j = to_json(defaults);
    CHECK(to_json(from_json(j)) == j);
    // Every section and field is written.
    for (const char* s : {"platform", "se", "core", "memory", "xbar", "link", "workload", "check", "server", "atomics",
                          "mesi_lock", "misar", "energy"})
        CHECK(j.contains(s));
    CHECK(j["platform"].size() == 5);
    CHECK(j["se"].size() == 8);
    CHECK(j["core"].size() == 6);
    CHECK(j["memory"].size() == 15);
    CHECK(j["energy"].size() == 10);
    CHECK(j["server"].size() == 4);
    CHECK(j["atomics"].size() == 2);
    CHECK(j["mesi_lock"].size() == 3);
    CHECK(j["misar"].size() == 1);
    CHECK(j["xbar"].size() == 5);
    CHECK(j["link"].size() == 3);
    CHECK(j["workload"].size() == 20);
    CHECK(j["workload"]["ops"].is_null()); // the workload's own default
    CHECK(j["platform"]["timing"] == "lt");
    CHECK(j["se"]["st_entries"] == 64);
    CHECK(j["memory"]["unit_bytes"] == (1ull << 30));
    // An empty (or null) configuration is the defaults.
    CHECK(to_json(from_json(json::object())) == j);
    CHECK(to_json(from_json(json())) == j);
}

TEST_CASE("config: a changed value round-trips", "[config]") {
    SimParams p;
    p.platform.timing = Timing::at;
    p.se.st_entries = 0;
    p.core.clock_ghz = 3.3;
    p.memory.unit_bytes = 1ull << 34;
    p.workload.name = "condvar";
    p.workload.seed = 0xffffffffffffffffull;
    const SimParams q = from_json(to_json(p));
    CHECK(q.platform.timing == Timing::at);
    CHECK(q.se.st_entries == 0);
    CHECK(q.core.clock_ghz == 3.3);
    CHECK(q.memory.unit_bytes == (1ull << 34));
    CHECK(q.workload.name == "condvar");
    CHECK(q.workload.seed == 0xffffffffffffffffull);
}

TEST_CASE("config: platform.units_per_group is written only when set and read back", "[config]") {
    SimParams p;
    CHECK_FALSE(to_json(p)["platform"].contains("units_per_group")); // two levels: statistics as they were
    p.platform.units_per_group = 2;
    const json j = to_json(p);
    CHECK(j["platform"]["units_per_group"] == 2);
    CHECK(from_json(j).platform.units_per_group == 2);
    json cfg = json::object();
    apply_set(cfg, "platform.units_per_group=2");
    CHECK(from_json(cfg).platform.units_per_group == 2);
}

TEST_CASE("config: core.memory_quantum_ns is written only when set and is 0 or at least the quantum", "[config]") {
    SimParams p;
    CHECK_FALSE(to_json(p)["core"].contains("memory_quantum_ns")); // off: statistics as they were
    p.core.memory_quantum_ns = 500;
    const json j = to_json(p);
    CHECK(j["core"]["memory_quantum_ns"] == 500.0);
    CHECK(from_json(j).core.memory_quantum_ns == 500.0);
    CHECK_NOTHROW(from_json(with("core", "memory_quantum_ns", 100))); // equal to the quantum
    expect_error(with("core", "memory_quantum_ns", 50),
                 {"'core.memory_quantum_ns'", "must be 0 (off) or at least core.quantum_ns (100), got 50"});
    expect_error(with("core", "memory_quantum_ns", -1), {"'core.memory_quantum_ns'", "must be in 0..10^6"});
}

TEST_CASE("config: workload.use_se_atomics is written only when set and refused where nothing takes it", "[config]") {
    SimParams p;
    CHECK_FALSE(to_json(p)["workload"].contains("use_se_atomics")); // statistics of other runs stay as they were
    p.workload.name = "pr";
    p.workload.use_se_atomics = true;
    const json j = to_json(p);
    CHECK(j["workload"]["use_se_atomics"] == true);
    CHECK(from_json(j).workload.use_se_atomics);
    json cfg = json::object();
    cfg["workload"]["name"] = "tc";
    apply_set(cfg, "workload.use_se_atomics=true");
    CHECK(from_json(cfg).workload.use_se_atomics);
    for (const char* name : {"lock", "ts", "counter"}) {
        INFO(name);
        const std::string workload = std::string("workload ") + name;
        expect_error(json{{"workload", {{"name", name}, {"use_se_atomics", true}}}},
                     {"'workload.use_se_atomics'", workload.c_str(), "bfs, cc, sssp, pr, tf, tc"});
        CHECK_NOTHROW(from_json(json{{"workload", {{"name", name}, {"use_se_atomics", false}}}}));
    }
    expect_error(with("workload", "use_se_atomics", 1), {"'workload.use_se_atomics'"});
}

TEST_CASE("config: the workload's evidence keys (op_work and pr_style) keep their default unwritten and name the "
          "key when wrong",
          "[config]") {
    struct Key {
        const char* name;
        std::string WorkloadParams::*field;
        const char *plain, *set, *allowed;
    };
    for (const Key& k : {Key{"op_work", &WorkloadParams::op_work, "none", "measured", "none or measured"},
                         Key{"pr_style", &WorkloadParams::pr_style, "push", "pull", "push or pull"}}) {
        INFO(k.name);
        const std::string key = std::string("workload.") + k.name;
        SimParams p;
        CHECK(p.workload.*k.field == k.plain);
        CHECK_FALSE(to_json(p)["workload"].contains(k.name)); // statistics of other runs stay as they were
        json cfg = json::object();
        apply_set(cfg, key + "=" + k.set);
        const SimParams m = from_json(cfg);
        CHECK(m.workload.*k.field == k.set);
        CHECK(to_json(m)["workload"][k.name] == k.set);
        expect_error(with("workload", k.name, "other"), {key.c_str(), k.allowed, "other"});
    }
}

TEST_CASE("config: workload.test_before_lock is on by default and written only when turned off", "[config]") {
    SimParams p;
    CHECK(p.workload.test_before_lock);                               // the cited code's protocol (docs/workloads.md)
    CHECK_FALSE(to_json(p)["workload"].contains("test_before_lock")); // statistics of other runs stay as they were
    p.workload.test_before_lock = false;
    const json j = to_json(p);
    CHECK(j["workload"]["test_before_lock"] == false);
    CHECK_FALSE(from_json(j).workload.test_before_lock);
    json cfg = json::object();
    apply_set(cfg, "workload.test_before_lock=false");
    CHECK_FALSE(from_json(cfg).workload.test_before_lock);
    // Workloads without a tested update ignore it, as they ignore the other graph keys.
    CHECK_NOTHROW(from_json(json{{"workload", {{"name", "stack"}, {"test_before_lock", false}}}}));
    expect_error(with("workload", "test_before_lock", 1), {"'workload.test_before_lock'"});
}

TEST_CASE("config: partial configuration keeps the other defaults", "[config]") {
    const SimParams p = from_json(json::parse(R"({"se": {"st_entries": 8}, "link": {"latency_ns": 0}})"));
    CHECK(p.se.st_entries == 8);
    CHECK(p.link.latency_ns == 0.0);
    CHECK(p.se.indexing_counters == 256);
    CHECK(p.platform.client_cores == 60);
}

TEST_CASE("config: the hmc4 preset is complete and equals the defaults", "[config]") {
    const json raw = load_preset_json("hmc4");
    CHECK(raw.value("name", "") == "hmc4");
    CHECK(raw.contains("description"));
    const json defaults = to_json(SimParams{});
    // Every key of every section is stated in the file, not left to the defaults.
    for (const auto& [section, body] : defaults.items())
        for (const auto& [key, value] : body.items()) {
            INFO(section << "." << key);
            CHECK(raw[section].contains(key));
        }
    CHECK(to_json(load_preset("hmc4")) == defaults);
    CHECK(std::find(available_presets().begin(), available_presets().end(), "hmc4") != available_presets().end());
}

TEST_CASE("config: presets by path, by name and errors", "[config]") {
    TempDir dir;
    const std::string good = dir.write("tiny.json", R"({"name": "tiny", "platform": {"units": 2, "client_cores": 8}})");
    const std::string bad_json = dir.write("broken.json", R"({"se": {"st_entries": 8,}})");
    const std::string bad_key = dir.write("typo.json", R"({"se": {"st_entriez": 8}})");

    SECTION("an existing file") {
        const SimParams p = load_preset(good);
        CHECK(p.platform.units == 2);
        CHECK(p.platform.client_cores == 8);
    }
    SECTION("a name in $SYNCRON_PRESET_DIR") {
        struct EnvGuard { // unset even when the load throws
            explicit EnvGuard(const char* v) { ::setenv("SYNCRON_PRESET_DIR", v, 1); }
            ~EnvGuard() { ::unsetenv("SYNCRON_PRESET_DIR"); }
        } env(dir.path.c_str());
        CHECK(preset_search_path().front() == dir.path.string());
        CHECK(load_preset("tiny").platform.units == 2);
        // The built-in directory is still searched after it.
        CHECK(load_preset("hmc4").platform.units == 4);
    }
    SECTION("JSON parse errors name the file") {
        try {
            load_preset(bad_json);
            FAIL("no error");
        } catch (const ConfigError& e) {
            CHECK_THAT(e.what(), Contains("broken.json"));
            CHECK_THAT(e.what(), Contains("parse error"));
        }
    }
    SECTION("errors in a file name the file and the key") {
        try {
            load_preset(bad_key);
            FAIL("no error");
        } catch (const ConfigError& e) {
            CHECK_THAT(e.what(), Contains("typo.json"));
            CHECK_THAT(e.what(), Contains("'se.st_entriez'"));
        }
    }
    SECTION("a missing file") {
        CHECK_THROWS_WITH(load_preset((dir.path / "nope.json").string()),
                          Contains("cannot open configuration file") && Contains("nope.json"));
        CHECK_THROWS_WITH(load_preset("no-such-preset"),
                          Contains("cannot open configuration file 'no-such-preset'") && Contains("hmc4"));
    }
}

TEST_CASE("config: unknown sections and keys", "[config]") {
    expect_error(with("se", "st_entriez", 64),
                 {"unknown configuration key 'se.st_entriez'", "did you mean 'se.st_entries'"});
    expect_error(with("sx", "st_entries", 64), {"unknown configuration section 'sx'"});
    expect_error(json::parse(R"({"se": 3})"), {"'se' must be an object"});
    expect_error(json::parse(R"([1, 2])"), {"must be a JSON object"});
    // Only "name" and "description" may sit beside the sections, as strings.
    CHECK_NOTHROW(from_json(json::parse(R"({"name": "x", "description": "y"})")));
    expect_error(json::parse(R"({"name": 5})"), {"'name' must be a string"});
}

TEST_CASE("config: wrongly typed values", "[config]") {
    expect_error(with("se", "st_entries", "abc"), {"'se.st_entries' must be a non-negative integer, got \"abc\""});
    expect_error(with("se", "st_entries", -1), {"'se.st_entries'", "non-negative integer", "-1"});
    expect_error(with("se", "st_entries", 1.5), {"'se.st_entries'", "1.5"});
    expect_error(with("se", "st_entries", true), {"'se.st_entries'", "true"});
    expect_error(with("se", "st_entries", 5000000000ull), {"'se.st_entries'", "out of range"});
    expect_error(with("se", "clock_ghz", "fast"), {"'se.clock_ghz' must be a number"});
    expect_error(with("platform", "scheme", 3), {"'platform.scheme' must be a string"});
    expect_error(with("platform", "timing", "tlm"), {"'platform.timing'", "lt, at"});
    // Integers are fine where a real number is expected.
    CHECK(from_json(with("se", "clock_ghz", 2)).se.clock_ghz == 2.0);
}

TEST_CASE("config: out-of-range and inconsistent values", "[config]") {
    expect_error(with("se", "clock_ghz", 0), {"'se.clock_ghz'", "must be in 0.01..100, got 0"});
    expect_error(with("core", "clock_ghz", -2.5), {"'core.clock_ghz'"});
    expect_error(with("xbar", "clock_ghz", 0.0), {"'xbar.clock_ghz'"});
    expect_error(with("core", "l1_bytes", 1000), {"'core.l1_bytes'", "multiple"});
    expect_error(with("core", "l1_bytes", 0), {"'core.l1_bytes'"});
    expect_error(with("core", "l1_line_bytes", 48), {"'core.l1_line_bytes'", "power of two"});
    expect_error(with("core", "l1_ways", 0), {"'core.l1_ways'"});
    expect_error(with("se", "indexing_counters", 0), {"'se.indexing_counters'"});
    expect_error(with("se", "indexing_counters", 100), {"'se.indexing_counters'", "power of two"});
    expect_error(with("se", "cycles_per_message", 0), {"'se.cycles_per_message'"});
    expect_error(with("se", "buffer_messages", 0), {"'se.buffer_messages'"});
    expect_error(with("platform", "units", 0), {"'platform.units'"});
    expect_error(with("platform", "units", 65), {"'platform.units'", "1..64"});
    expect_error(with("platform", "cores_per_unit", 0), {"'platform.cores_per_unit'"});
    expect_error(with("platform", "cores_per_unit", 1025), {"'platform.cores_per_unit'"});
    expect_error(with("platform", "client_cores", 0), {"'platform.client_cores'"});
    expect_error(with("platform", "client_cores", 65), {"'platform.client_cores'", "64"});
    expect_error(with("platform", "scheme", "flatt"),
                 {"'platform.scheme'", "syncron", "flat", "syncron_distrib_ovrfl"});
    expect_error(with("workload", "name", "mutex"), {"'workload.name'", "lock, barrier, semaphore, condvar"});
    expect_error(with("memory", "unit_bytes", 1000000), {"'memory.unit_bytes'", "multiple"});
    expect_error(with("memory", "interleave_bytes", 96), {"'memory.interleave_bytes'", "power of two"});
    expect_error(with("memory", "vaults_per_unit", 0), {"'memory.vaults_per_unit'"});
    expect_error(with("memory", "unit_bytes", 1ull << 47), {"'memory.unit_bytes'", "memory window"});
    // A DRAM timing or a per-event energy of zero or less describes no device.
    for (const char* key : {"t_rcd_ns", "t_rcd_write_ns", "t_ras_ns", "t_wr_ns", "t_cl_ns", "t_rp_ns", "t_burst_ns"}) {
        INFO(key);
        const std::string path = std::string("'memory.") + key + "'";
        expect_error(with("memory", key, -1.0), {path.c_str(), "must be in 0.001..10^6"});
        expect_error(with("memory", key, 0.0), {path.c_str(), "must be in 0.001..10^6"});
    }
    expect_error(with("memory", "t_cwl_ns", -1.0), {"'memory.t_cwl_ns'", "must be in 0..10^6, got -1"});
    for (const char* key : {"core_pj_per_instruction", "l1_hit_pj", "l1_miss_pj", "xbar_pj_per_bit", "link_pj_per_bit",
                            "memory_pj_per_bit", "se_mw"}) {
        INFO(key);
        const std::string path = std::string("'energy.") + key + "'";
        expect_error(with("energy", key, 0.0), {path.c_str(), "must be in 0.001..10^6"});
        expect_error(with("energy", key, -2.0), {path.c_str(), "must be in 0.001..10^6"});
    }
    for (const char* key : {"core_static_mw", "memory_static_mw", "memory_activate_pj"}) {
        INFO(key);
        const std::string path = std::string("'energy.") + key + "'";
        expect_error(with("energy", key, -1.0), {path.c_str(), "must be in 0..10^6"});
        CHECK_NOTHROW(from_json(with("energy", key, 0.0))); // 0 = not charged (docs/energy.md)
    }
    expect_error(with("energy", "pj_per_flop", 1.0), {"energy", "pj_per_flop"});
    expect_error(with("link", "latency_ns", -40), {"'link.latency_ns'", "must be in 0..10^6, got -40"});
    expect_error(with("link", "bandwidth_gbps", 0), {"'link.bandwidth_gbps'", "must be in 0.001..10^6, got 0"});
    expect_error(with("core", "quantum_ns", -1), {"'core.quantum_ns'"});
    expect_error(with("core", "quantum_ns", 0), {"'core.quantum_ns'", "must be in 0.001..10^6, got 0"});
    // Boundaries that are valid.
    CHECK_NOTHROW(from_json(with("se", "st_entries", 0)));
    CHECK_NOTHROW(from_json(with("platform", "units", 64)));
    CHECK_NOTHROW(
        from_json(json::parse(R"({"platform": {"units": 1, "cores_per_unit": 1024, "client_cores": 1024}})")));
    CHECK_NOTHROW(from_json(with("link", "latency_ns", 0)));
    CHECK_NOTHROW(from_json(with("platform", "timing", "at")));
    CHECK_NOTHROW(from_json(with("memory", "t_cwl_ns", 0.0)));           // hmc4's assumption
    CHECK_NOTHROW(from_json(with("memory", "t_rcd_write_ns", nullptr))); // = t_rcd_ns
}

TEST_CASE("config: the memory presets load, differ where their technology does, and are listed", "[config]") {
    const SimParams hmc = load_preset("hmc4"), hbm = load_preset("hbm4"), ddr = load_preset("ddr4");
    CHECK(hmc.memory.vaults_per_unit == 32);
    CHECK(hbm.memory.vaults_per_unit == 8);                 // 8 channels per stack
    CHECK(ddr.memory.vaults_per_unit == 1);                 // one channel per DIMM
    CHECK(hbm.memory.rcd_write_ns() < hbm.memory.t_rcd_ns); // HBM's nRCDW 6 < nRCDR 7
    CHECK(hmc.memory.rcd_write_ns() == hmc.memory.t_rcd_ns);
    CHECK(hbm.energy.memory_pj_per_bit == 7.0); // paper Table 5
    CHECK(ddr.energy.memory_static_mw > 0.0);
    // Everything but the memory and its energy is the same platform.
    CHECK(to_json(hbm)["core"] == to_json(hmc)["core"]);
    CHECK(to_json(ddr)["se"] == to_json(hmc)["se"]);
    const std::string listing = preset_listing();
    for (const char* name : {"hmc4", "hbm4", "ddr4"}) {
        INFO(listing);
        CHECK(listing.find(std::string(name) + "  ") != std::string::npos);
    }
    CHECK(std::count(listing.begin(), listing.end(), '\n') == static_cast<long>(available_presets().size()));
    // An unknown name lists the known ones.
    try {
        load_preset("hbm2");
        FAIL("no error");
    } catch (const ConfigError& e) {
        const std::string msg = e.what();
        CHECK(msg.find("hbm2") != std::string::npos);
        for (const char* name : {"hmc4", "hbm4", "ddr4"}) CHECK(msg.find(name) != std::string::npos);
    }
}

TEST_CASE("config: a configuration built on a base replaces the base's keys and keeps the rest", "[config]") {
    // The shipped hbm4 is hmc4 plus its memory and energy keys.
    const json hbm = load_preset_json("hbm4");
    CHECK_FALSE(hbm.contains("base"));
    CHECK(hbm["name"] == "hbm4");
    CHECK(hbm["memory"]["vaults_per_unit"] == 8);
    CHECK(hbm["se"] == load_preset_json("hmc4")["se"]);
    const fs::path dir = fs::temp_directory_path() / ("syncron_base_" + std::to_string(::getpid()));
    fs::create_directories(dir / "sub");
    const auto write = [](const fs::path& p, const std::string& text) { std::ofstream(p) << text; };
    write(dir / "sub" / "small_st.json", R"({"name":"small ST","base":"hmc4","se":{"st_entries":8}})");
    write(dir / "two.json", R"({"base":"sub/small_st.json","se":{"buffer_messages":4},"link":{"latency_ns":100}})");
    const SimParams p = load_preset((dir / "two.json").string());
    CHECK(p.se.st_entries == 8);                                                   // from its base
    CHECK(p.se.buffer_messages == 4);                                              // its own
    CHECK(p.link.latency_ns == 100.0);                                             // its own
    CHECK(p.memory.vaults_per_unit == load_preset("hmc4").memory.vaults_per_unit); // the base's base
    CHECK_FALSE(load_preset_json((dir / "two.json").string()).contains("name"));   // notes are not inherited
    // Errors name the file and the base.
    write(dir / "loop_a.json", R"({"base":"loop_b.json"})");
    write(dir / "loop_b.json", R"({"base":"loop_a.json"})");
    CHECK_THROWS_WITH(load_preset((dir / "loop_a.json").string()),
                      Catch::Contains("loop_b.json") && Catch::Contains("leads back to itself"));
    write(dir / "missing.json", R"({"base":"hmc5"})");
    CHECK_THROWS_WITH(load_preset((dir / "missing.json").string()),
                      Catch::Contains("missing.json") && Catch::Contains("its base 'hmc5' is neither a preset"));
    write(dir / "number.json", R"({"base":4})");
    CHECK_THROWS_WITH(load_preset((dir / "number.json").string()), Catch::Contains("'base' must name a preset"));
    write(dir / "bad_key.json", R"({"base":"hmc4","se":{"st_entriez":8}})");
    CHECK_THROWS_WITH(load_preset((dir / "bad_key.json").string()), Catch::Contains("did you mean 'se.st_entries'"));
    fs::remove_all(dir);
}

TEST_CASE("config: a fitted annotation names keys the configuration sets, each with its claim", "[config]") {
    json cfg = with("server", "instructions_per_request", 35);
    cfg["fitted"]["server.instructions_per_request"] = "fig10: SynCron outperforms Hier by 1.40x";
    CHECK(from_json(cfg).server.instructions_per_request == 35); // a note: the model reads only the key
    json other = cfg;
    other["fitted"] = {{"server.central_cached", "fig10: x"}};
    expect_error(other, {"fitted", "'server.central_cached' is not set by this configuration"});
    other["fitted"] = {{"server.instructions", "fig10: x"}};
    expect_error(other, {"'server.instructions' is not a configuration key"});
    other["fitted"] = {{"server.instructions_per_request", "no figure named"}};
    expect_error(other, {"fitted.server.instructions_per_request", "\"figure: claim\""});
    other["fitted"] = "server.instructions_per_request";
    expect_error(other, {"'fitted' must be an object"});
    // The shipped sets: paper fits nothing; paper-fitted declares its one fit, on a key it sets itself,
    // and is paper otherwise.
    CHECK_FALSE(load_preset_json("paper").contains("fitted"));
    const json fitted = load_preset_json("paper-fitted");
    REQUIRE(fitted["fitted"].size() == 1);
    CHECK(fitted["fitted"].contains("server.instructions_per_request"));
    CHECK(load_preset("paper-fitted").server.instructions_per_request == 37);
    SimParams paper = load_preset("paper");
    paper.server.instructions_per_request = 37;
    CHECK(to_json(load_preset("paper-fitted")) == to_json(paper));
}

TEST_CASE("config: --set parses ints, doubles, strings and bools", "[config]") {
    json cfg = load_preset_json("hmc4");
    apply_set(cfg, "se.st_entries=8");
    apply_set(cfg, "link.latency_ns=12.5");
    apply_set(cfg, "core.clock_ghz=3");
    apply_set(cfg, "workload.name=barrier");
    apply_set(cfg, "platform.scheme=\"syncron\"");
    apply_set(cfg, "workload.seed=18446744073709551615");
    CHECK(cfg["se"]["st_entries"] == 8);
    CHECK(cfg["workload"]["name"] == "barrier");
    const SimParams p = from_json(cfg);
    CHECK(p.se.st_entries == 8);
    CHECK(p.link.latency_ns == 12.5);
    CHECK(p.core.clock_ghz == 3.0);
    CHECK(p.workload.name == "barrier");
    CHECK(p.platform.scheme == Scheme::syncron);
    // The typed scheme is read and written by name.
    SimParams q;
    q.platform.scheme = Scheme::syncron_distrib_ovrfl;
    CHECK(to_json(q)["platform"]["scheme"] == "syncron_distrib_ovrfl");
    CHECK(from_json(to_json(q)).platform.scheme == Scheme::syncron_distrib_ovrfl);
    CHECK(p.workload.seed == 18446744073709551615ull);

    SECTION("a later --set wins") {
        apply_set(cfg, "se.st_entries=16");
        CHECK(from_json(cfg).se.st_entries == 16);
    }
    SECTION("bools parse as JSON and are refused where a number is expected") {
        CHECK_THAT(what_of_set(cfg, "se.st_entries=true"), Contains("'se.st_entries'") && Contains("true"));
        // A string field takes the text as written.
        apply_set(cfg, "workload.name=false");
        CHECK(cfg["workload"]["name"] == "false");
        CHECK_THROWS_WITH(from_json(cfg), Contains("'workload.name'"));
    }
    SECTION("the value may contain '='") {
        apply_set(cfg, "workload.name=a=b");
        CHECK(cfg["workload"]["name"] == "a=b");
    }
    SECTION("into an empty configuration") {
        json empty;
        apply_set(empty, "xbar.flit_bytes=32");
        CHECK(from_json(empty).xbar.flit_bytes == 32);
    }
}

TEST_CASE("config: --set errors name the key", "[config]") {
    json cfg = json::object();
    CHECK_THAT(what_of_set(cfg, "se.st_entries=abc"),
               Contains("'se.st_entries' must be a non-negative integer, got \"abc\""));
    CHECK_THAT(what_of_set(cfg, "se.clock_ghz=fast"), Contains("'se.clock_ghz' must be a number"));
    CHECK_THAT(what_of_set(cfg, "se.st_entries=-4"), Contains("'se.st_entries'"));
    CHECK_THAT(what_of_set(cfg, "se.st_entries=1.5"), Contains("'se.st_entries'"));
    CHECK_THAT(what_of_set(cfg, "se.st_entries="), Contains("'se.st_entries'"));
    CHECK_THAT(what_of_set(cfg, "se.st_entriez=8"), Contains("unknown configuration key 'se.st_entriez'"));
    CHECK_THAT(what_of_set(cfg, "sx.st_entries=8"), Contains("unknown configuration section 'sx'"));
    CHECK_THAT(what_of_set(cfg, "st_entries=8"), Contains("'st_entries' is not a section.key"));
    CHECK_THAT(what_of_set(cfg, "se.st_entries"), Contains("key=value") && Contains("se.st_entries"));
    CHECK_THAT(what_of_set(cfg, "platform.timing=5"), Contains("'platform.timing'"));
    // A failed --set leaves the configuration unchanged.
    CHECK(cfg == json::object());
}

TEST_CASE("config: client cores per unit", "[config]") {
    PlatformParams p;
    CHECK(client_cores_per_unit(p) == std::vector<unsigned>{15, 15, 15, 15});
    p.client_cores = 61;
    CHECK(client_cores_per_unit(p) == std::vector<unsigned>{16, 15, 15, 15});
    p.client_cores = 63;
    CHECK(client_cores_per_unit(p) == std::vector<unsigned>{16, 16, 16, 15});
    p.client_cores = 64;
    CHECK(client_cores_per_unit(p) == std::vector<unsigned>{16, 16, 16, 16});
    p.client_cores = 2;
    CHECK(client_cores_per_unit(p) == std::vector<unsigned>{1, 1, 0, 0});
    p.units = 1;
    p.client_cores = 16;
    CHECK(client_cores_per_unit(p) == std::vector<unsigned>{16});
    p.client_cores = 17;
    CHECK_THROWS_AS(client_cores_per_unit(p), ConfigError);
    p.units = 0;
    CHECK_THROWS_AS(client_cores_per_unit(p), ConfigError);
}

TEST_CASE("config: every numeric key has a range, documented in docs/configuration.md", "[config][ranges]") {
    std::ifstream in(std::string(SYNCRON_SOURCE_DIR) + "/docs/configuration.md");
    REQUIRE(in);
    // The table rows of each "### `section`" block.
    std::map<std::string, std::vector<std::string>> rows;
    std::string section;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("### `", 0) == 0) section = line.substr(5, line.find('`', 5) - 5);
        if (!section.empty() && line.rfind("| `", 0) == 0) rows[section].push_back(line);
    }
    const nlohmann::json all = syncron::to_json(syncron::SimParams{});
    int numeric = 0;
    for (const auto& [sec, body] : all.items())
        for (const auto& [key, value] : body.items()) {
            const std::string range = syncron::valid_range(sec, key);
            const bool number = value.is_number() || (value.is_null() && !range.empty());
            INFO(sec << "." << key);
            CHECK(number == !range.empty());
            if (range.empty()) continue;
            ++numeric;
            // Its default lies inside its range.
            CHECK_NOTHROW(syncron::validate(syncron::SimParams{}));
            const auto& block = rows[sec];
            const auto row = std::find_if(block.begin(), block.end(), [&](const std::string& r) {
                return r.find("`" + key + "`") != std::string::npos && r.find("` |") != std::string::npos &&
                       r.find("`" + key + "`") < r.find(" | ");
            });
            REQUIRE(row != block.end());
            CHECK_THAT(*row, Catch::Contains(range));
        }
    CHECK(numeric >= 60);
}

TEST_CASE("config: a value out of its range is refused, naming the key and the range", "[config][ranges]") {
    nlohmann::json cfg = {{"link", {{"latency_ns", 1e20}}}};
    CHECK_THROWS_WITH(syncron::from_json(cfg), Catch::Contains("'link.latency_ns' must be in 0..10^6, got 1e+20"));
    cfg = {{"se", {{"clock_ghz", 1e-300}}}};
    CHECK_THROWS_WITH(syncron::from_json(cfg), Catch::Contains("'se.clock_ghz' must be in 0.01..100"));
    // The same for parameters built in code.
    syncron::SimParams p;
    p.link.bandwidth_gbps = 1e-300;
    CHECK_THROWS_WITH(syncron::validate(p), Catch::Contains("'link.bandwidth_gbps' must be in 0.001..10^6"));
    // Inside the range, at both ends, is fine.
    cfg = {{"link", {{"latency_ns", 0}, {"bandwidth_gbps", 1e6}}}};
    CHECK_NOTHROW(syncron::from_json(cfg));
    // The lock fairness threshold takes what the FAIRNESS register takes at
    // run time (4 bytes), no less.
    cfg = {{"se", {{"lock_fairness_threshold", 4294967295u}}}};
    CHECK(syncron::from_json(cfg).se.lock_fairness_threshold == 4294967295u);
    cfg = {{"se", {{"lock_fairness_threshold", 4294967296u}}}};
    CHECK_THROWS_WITH(syncron::from_json(cfg),
                      Catch::Contains("'se.lock_fairness_threshold'") && Catch::Contains("4294967295"));
    CHECK(syncron::valid_range("se", "lock_fairness_threshold") == "0..2^32-1");
}

TEST_CASE("config: check_keys sees a bad value a flag would replace", "[config][ranges]") {
    CHECK_THROWS_WITH(syncron::check_keys({{"platform", {{"units", 0}}}}),
                      Catch::Contains("'platform.units' must be in 1..64, got 0"));
    CHECK_THROWS_WITH(syncron::check_keys({{"platform", {{"units", "4"}}}}),
                      Catch::Contains("'platform.units' must be a non-negative integer, got \"4\""));
    // Consistency is for the merged configuration: 65 clients on 4 x 16 pass here.
    CHECK_NOTHROW(syncron::check_keys({{"platform", {{"client_cores", 65}}}}));
}

TEST_CASE("config: JSON text is bounded in depth, whole, and quoted short", "[config][json_text]") {
    using syncron::parse_json_text;
    CHECK(parse_json_text(R"({"se":{"st_entries":8}})", "t")["se"]["st_entries"] == 8);
    const std::string deep = std::string(64, '[') + std::string(64, ']');
    CHECK(parse_json_text(deep, "t").is_array()); // 64 levels: the limit
    CHECK_THROWS_WITH(parse_json_text("[" + deep + "]", "x"),
                      Catch::Equals("x nests arrays or objects deeper than 64 levels"));
    CHECK_THROWS_WITH(parse_json_text(std::string(100000, '['), "x"), Catch::Contains("deeper than 64"));
    CHECK_THROWS_WITH(parse_json_text(std::string("{}\n") + '\0' + "{", "x"),
                      Catch::Contains("x contains a NUL byte at line 2, column 1"));
    CHECK_THROWS_WITH(parse_json_text("{\n \"a\": }", "x"),
                      Catch::Contains("x is not valid JSON: parse error at line 2"));
    CHECK(parse_json_text("abc", "x", /*syntax_errors_throw=*/false).is_discarded());

    using syncron::json_excerpt;
    CHECK(json_excerpt(nlohmann::json::parse(R"({"a":[1,[2,[3]]]})")) == R"({"a":[1,[...]]})");
    CHECK(json_excerpt(nlohmann::json(std::vector<int>(1000000, 7))).size() <= 80 + std::string("…").size());
    CHECK(json_excerpt(nlohmann::json("short")) == "\"short\"");
    CHECK(syncron::json_kind(nlohmann::json::array()) == "an array");
}
