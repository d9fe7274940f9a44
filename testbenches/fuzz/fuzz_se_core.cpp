// Fuzz target over the SE functional core (docs/reliability.md).
//
// Mode "programs" (first byte even): the bytes pick a scenario (units, cores
// per unit, ST and indexing-counter sizes, organization, overflow policy,
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

#include "testbenches/fuzz/fuzz_target.h"
#include "testbenches/tests/se_random_checker.h"

using namespace syncron;
using namespace syncron::test;

namespace {

class Bytes {
public:
    Bytes(const uint8_t* d, size_t n) : m_d(d), m_n(n) {}
    uint8_t next() { return m_i < m_n ? m_d[m_i++] : 0; }
    uint64_t next64() {
        uint64_t v = 0;
        for (int k = 0; k < 8; ++k) v = (v << 8) | next();
        return v;
    }
    std::vector<uint8_t> rest() const { return {m_d + std::min(m_i, m_n), m_d + m_n}; }
    bool empty() const { return m_i >= m_n; }

private:
    const uint8_t* m_d;
    size_t m_n, m_i = 0;
};

[[noreturn]] void finding_in(const Scenario& sc, const std::string& what) {
    fuzz::finding(what + " (units " + std::to_string(sc.units) + ", cores " + std::to_string(sc.cores) + ", st " +
                  std::to_string(sc.se.st_entries) + ", counters " + std::to_string(sc.se.indexing_counters) +
                  (sc.organization == SeOrganization::flat ? ", flat" : "") +
                  (sc.overflow == OverflowPolicy::abort ? ", abort policy" : "") + ")");
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
    case 0: break; // hierarchical, integrated overflow (SynCron)
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
    Checker ck(sc, in.rest());
    ck.run();
    std::string why;
    for (const auto& f : ck.failures) why += f + "; ";
    if (!ck.failures.empty()) finding_in(sc, why);
    if (!ck.m_net.counters_zero()) finding_in(sc, "an indexing counter left raised at quiescence");
    if (!ck.m_net.tables_empty()) finding_in(sc, "an ST entry left in use at quiescence");
    for (const auto& server : ck.m_net.servers)
        if (!server.idle()) finding_in(sc, "a fallback server left with work at quiescence");
}

void raw_messages(Bytes& in) {
    const Scenario sc = scenario(in);
    SeNetwork net(topology_of(sc), std::vector<SeParams>(sc.units, sc.se));
    net.serve_software = sc.overflow == OverflowPolicy::abort;
    const auto addr = [&](uint8_t how) {
        // Mostly variables of the units (and one unit past them), sometimes any address.
        if (how % 4 != 0) return SeNetwork::var(in.next() % (sc.units + 1), in.next() % 8);
        return in.next64();
    };
    for (unsigned n = 0; !in.empty() && n < 4096; ++n) {
        const uint8_t kind = in.next();
        const auto& ready = net.ready_channels();
        if (kind % 3 == 0 && !ready.empty()) {               // deliver something already in flight
            const auto ch = ready[in.next() % ready.size()]; // a copy: delivering changes the list
            net.deliver(ch.first, ch.second);
            continue;
        }
        const unsigned raw_op = in.next() % 64; // the wire's 6 bits: also unknown opcodes
        Message m{addr(kind), static_cast<Opcode>(raw_op), in.next(), in.next(), addr(kind >> 2)};
        const unsigned to = in.next() % sc.units;
        const std::string why = net.ses[to].validate(m);
        SeResult r;
        net.ses[to].handle(m, r); // an exception escaping here is a finding (the fuzzer sees the crash)
        if (raw_op >= kOpcodeCount && r.ok()) finding_in(sc, "unknown opcode " + std::to_string(raw_op) + " accepted");
        if (!why.empty() && r.ok()) finding_in(sc, "handle() accepted what validate() rejects: " + why);
        for (const auto& o : r.out) net.inject(se_ep(to), net.endpoint_of(se_ep(to), o), o.msg);
    }
    // Whatever is in flight drains: SEs must not bounce messages forever.
    for (unsigned steps = 0; !net.ready_channels().empty(); ++steps) {
        if (steps > 200000) finding_in(sc, "messages still circulating after 200000 deliveries");
        const auto ch = net.ready_channels().front();
        net.deliver(ch.first, ch.second);
    }
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
