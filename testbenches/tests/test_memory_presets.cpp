// The memory presets (docs/memory/*.md): an access to an idle controller takes
// exactly the sum of the timing parameters the preset's page documents, in
// nanoseconds computed here from the documented clock cycles, so a preset and
// its page cannot drift apart.
#include <catch2/catch.hpp>

#include <vector>

#include "models/common/address_map.h"
#include "models/memory/backing_store.h"
#include "models/memory/vault_controller.h"
#include "platforms/config/config.h"
#include "testbenches/tests/tlm_test_helpers.h"

using namespace syncron;
using syncron::test::ScriptInitiator;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

struct Documented {
    const char* preset;
    double read_ns;  ///< tRCD + tCL + one 64 B burst
    double write_ns; ///< tRCD(write) + tCWL + one 64 B burst
    unsigned controllers, banks;
};

// From the pages' tables: cycles x tCK.
constexpr double kHbmTck = 2.0;       // HBM 1.0 at 500 MHz
constexpr double kDdrTck = 1.0 / 1.2; // DDR4-2400: 1200 MHz
const Documented kPresets[] = {
    {"hmc4", 17.0 + 17.0 + 6.4, 17.0 + 0.0 + 6.4, 32, 16},
    {"hbm4", (7 + 7 + 2) * kHbmTck, (6 + 4 + 2) * kHbmTck, 8, 16},
    {"ddr4", (16 + 16 + 4) * kDdrTck, (16 + 12 + 4) * kDdrTck, 1, 16},
};

void check_idle_latency(const Documented& doc) {
    const SimParams params = load_preset(doc.preset);
    const MemoryParams& p = params.memory;
    CHECK(p.vaults_per_unit == doc.controllers);
    CHECK(p.banks_per_vault == doc.banks);
    const AddressMap map(params.platform.units, params.platform.cores_per_unit, p);
    BackingStore store;
    VaultController vault("vault", 0, 0, p, map, store);
    const uint64_t a = map.unit_base(0);
    const uint64_t b = a + uint64_t(p.interleave_bytes) * p.vaults_per_unit; // the next bank of controller 0
    REQUIRE(map.vault_of(b) == 0);
    REQUIRE(map.bank_of(b) != map.bank_of(a));
    sc_time read_delay, write_delay;
    tlm::tlm_response_status st_r{}, st_w{};
    ScriptInitiator init("init", [&](ScriptInitiator& i) {
        std::vector<uint8_t> line(64);
        st_r = i.read(a, line, read_delay);   // idle bank, zero annotation: the latency alone
        st_w = i.write(b, line, write_delay); // another idle bank
    });
    init.socket.bind(vault.socket);
    sc_core::sc_start();
    REQUIRE(init.done());
    CHECK(st_r == tlm::TLM_OK_RESPONSE);
    CHECK(st_w == tlm::TLM_OK_RESPONSE);
    // The presets round the nanoseconds to the picosecond.
    CHECK(read_delay.to_seconds() * 1e9 == Approx(doc.read_ns).margin(0.005));
    CHECK(write_delay.to_seconds() * 1e9 == Approx(doc.write_ns).margin(0.005));
}

} // namespace

TEST_CASE("memory presets: hmc4: an idle access takes the documented tRCD + tCL/tCWL + burst", "[memory][presets]") {
    check_idle_latency(kPresets[0]);
}

TEST_CASE("memory presets: hbm4: an idle access takes the documented tRCD + tCL/tCWL + burst", "[memory][presets]") {
    check_idle_latency(kPresets[1]);
}

TEST_CASE("memory presets: ddr4: an idle access takes the documented tRCD + tCL/tCWL + burst", "[memory][presets]") {
    check_idle_latency(kPresets[2]);
}
