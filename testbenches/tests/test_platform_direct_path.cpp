// The LT direct path (docs/timing.md, "The direct path") is a shortcut, not
// a model: with it, a loosely-timed run must give what the per-hop
// b_transport chain gives (the path a protocol checker sees), statistic for
// statistic and trace byte for byte, for every kind of traffic it carries:
// local and remote memory, remote atomics, core-to-SE and SE-to-SE messages,
// SE memory accesses on overflow, server cores' mailboxes, and the traffic it
// leaves to the sockets (coherence requests to the directories).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "models/schemes/scheme_factory.h"
#include "platforms/ndp_platform.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"
#include "testbenches/tests/platform_test_helpers.h"
#include "testbenches/tests/sim_binary.h"

using namespace syncron;

namespace {

struct Case {
    const char* workload;
    const char* scheme;
    unsigned st_entries;
    unsigned variables;
};

/// The run's statistics without what differs by construction (host times,
/// the checker's count), and how many transports took the direct path.
nlohmann::json run_lt(const Case& c, bool checked) {
    return in_child([&] {
        SimParams p = test::bench(c.workload, c.st_entries, c.variables, Timing::lt, 10);
        p.platform.scheme = *scheme_from_string(c.scheme);
        p.check.protocol = checked; // a checker on every binding: every access takes the sockets
        uint64_t direct = 0;
        const SimulationResult r = simulate(p, [&direct](NdpPlatform& platform) {
            platform.on_finished([&direct, &platform] { direct = platform.direct_transports(); });
        });
        nlohmann::json s = r.stats;
        for (const char* k : {"host", "config", "protocol_violations"}) s.erase(k);
        return nlohmann::json{{"ok", r.ok}, {"direct", direct}, {"stats", s}};
    });
}

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream os;
    os << f.rdbuf();
    return os.str();
}

/// A trace without the wall-clock date SystemC writes into a VCD's header.
std::string without_date(std::string text) {
    const auto date = text.find("$date");
    const auto end = date == std::string::npos ? date : text.find("$end", date);
    if (end != std::string::npos) text.erase(date, end + 4 - date);
    return text;
}

} // namespace

TEST_CASE("direct path: an LT run gives the per-hop path's statistics, for every kind of traffic", "[platform][lt]") {
    const Case c = GENERATE(Case{"lock", "syncron", 64, 1},                    // core-SE messages, memory checks
                            Case{"barrier", "hier", 64, 1},                    // server cores' mailboxes, SE-free
                            Case{"semaphore", "syncron_distrib_ovrfl", 4, 16}, // ST overflow: SE memory, fallback
                            Case{"lock", "remote_atomics", 64, 1},             // atomics at remote vaults
                            Case{"condvar", "flat", 0, 1},                     // SE-to-SE messages, no ST
                            Case{"stack", "mesi_lock", 64, 1},                 // coherence requests: the sockets
                            Case{"hash_table", "ideal", 64, 1});               // a data structure's loads and stores
    INFO(c.workload << " under " << c.scheme);
    const nlohmann::json direct = run_lt(c, false);
    const nlohmann::json hops = run_lt(c, true);
    REQUIRE(direct.value("ok", false));
    REQUIRE(hops.value("ok", false));
    CHECK(direct["direct"].get<uint64_t>() > 0);
    CHECK(hops["direct"] == 0);
    for (auto it = hops["stats"].begin(); it != hops["stats"].end(); ++it) {
        INFO("statistic " << it.key());
        CHECK(direct["stats"].value(it.key(), nlohmann::json()) == it.value());
    }
    CHECK(direct["stats"].size() == hops["stats"].size());
}

TEST_CASE("direct path: the traces of an LT run are those of the per-hop path, byte for byte", "[platform][lt]") {
    // (but for the VCD header's $date, the wall-clock time of the run)
    const std::string base = " --workload lock --scheme syncron --ops 10 --timing lt";
    std::string files[2][2];
    for (int checked = 0; checked < 2; ++checked) {
        const std::string tag = checked ? "hops" : "direct";
        files[checked][0] = test::temp_path("direct_path_" + tag, "trace.vcd");
        files[checked][1] = test::temp_path("direct_path_" + tag, "timeline.json");
        const test::SimRun r = test::run_sim(base + (checked ? " --set check.protocol=true" : "") + " --vcd " +
                                             files[checked][0] + " --trace-json " + files[checked][1]);
        INFO(r.out);
        REQUIRE(r.status == 0);
    }
    for (int f = 0; f < 2; ++f) {
        INFO(files[0][f] << " against " << files[1][f]);
        const std::string direct = without_date(slurp(files[0][f]));
        CHECK_FALSE(direct.empty());
        CHECK(direct == without_date(slurp(files[1][f])));
    }
}
