// Fuzz target over the SE functional core (docs/reliability.md).
//
// Mode "programs" (first byte even): the bytes pick a scenario (units, cores
// per unit, ST and indexing-counter sizes, organization, overflow policy,
// two or three levels,
// lock/semaphore/condvar or barrier programs) and then steer every choice of
// the reference checker (testbenches/tests/se_random_checker.h): the cores'
// programs and the order in which the network delivers messages. After the
// run: mutual exclusion, barrier epochs and semaphore counts held at every
// grant, no core is left waiting (no lost wake-up, no deadlock), and at
// quiescence no ST entry and no indexing counter is left in use.
//
// Mode "raw messages" (first byte odd): the bytes become messages with any
// opcode (also unknown ones), address, core and SE IDs and MessageInfo,
// delivered to the SEs of a small network in any order. The SE must never
// crash or throw; a message it rejects must say why, and an unknown opcode or
// an out-of-range ID must be rejected.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "testbenches/fuzz/fuzz_se_core_harness.h"
#include "testbenches/fuzz/fuzz_target.h"

using namespace syncron;
using namespace syncron::test;
using syncron::fuzz::Bytes;

namespace {

[[noreturn]] void finding_in(const Scenario& sc, const std::string& what) {
    fuzz::finding(what + " (units " + std::to_string(sc.units) + ", cores " + std::to_string(sc.cores) + ", st " +
                  std::to_string(sc.se.st_entries) + ", counters " + std::to_string(sc.se.indexing_counters) +
                  (sc.organization == SeOrganization::flat ? ", flat" : "") +
                  (sc.overflow == OverflowPolicy::abort ? ", abort policy" : "") +
                  (sc.units_per_group ? ", groups of " + std::to_string(sc.units_per_group) : std::string()) + ")");
}

Scenario scenario(Bytes& in) {
    const uint8_t shape = in.next(), table = in.next(), mode = in.next(), seed = in.next();
    static constexpr unsigned kSt[] = {0, 1, 2, 3, 64};
    static constexpr unsigned kCounters[] = {1, 4, 256};
    SeParams se;
    se.st_entries = kSt[table % 5];
    se.indexing_counters = kCounters[(table / 5) % 3];
    se.lock_fairness_threshold = (table / 15) % 3;
    Scenario sc{1u + shape % 4, 1u + (shape / 4) % 4, se, seed, (mode & 1) != 0};
    if (sc.units * sc.cores < 2) sc.cores = 2; // the programs pair producers with consumers
    switch ((mode / 2) % 3) {
    case 0: // hierarchical, integrated overflow (SynCron); bit 3: three levels, groups of 2
        if ((mode / 8) % 2) {
            sc.units = 4 + 2 * ((shape / 16) % 2);
            sc.units_per_group = 2;
        }
        break;
    case 1: sc.organization = SeOrganization::flat; break;
    default:
        sc.overflow = OverflowPolicy::abort;
        sc.central_server = (mode / 8) % 2 == 0;
        break;
    }
    return sc;
}

void programs(Bytes& in) {
    const Scenario sc = scenario(in);
    const std::string why = fuzz::check_programs(sc, in.rest());
    if (!why.empty()) finding_in(sc, why);
}

void raw_messages(Bytes& in) {
    const Scenario sc = scenario(in);
    const std::string why = fuzz::check_raw_messages(sc, in);
    if (!why.empty()) finding_in(sc, why);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 5) return 0;
    Bytes in(data + 1, size - 1);
    if (data[0] % 2 == 0)
        programs(in);
    else
        raw_messages(in);
    return 0;
}
