#include "testbenches/fuzz/fuzz_se_core_harness.h"

namespace syncron::fuzz {

using namespace syncron::test;

std::string check_programs(const Scenario& sc, std::vector<uint8_t> steer) {
    Checker ck(sc, std::move(steer));
    ck.run();
    std::string why;
    for (const auto& f : ck.failures) why += f + "; ";
    if (!ck.m_net.counters_zero()) why += "an indexing counter left raised at quiescence; ";
    if (!ck.m_net.tables_empty()) why += "an ST entry left in use at quiescence; ";
    for (const auto& server : ck.m_net.servers)
        if (!server.idle()) why += "a fallback server left with work at quiescence; ";
    return why;
}

std::string check_raw_messages(const Scenario& sc, Bytes& in) {
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
        if (raw_op >= kOpcodeCount && r.ok()) return "unknown opcode " + std::to_string(raw_op) + " accepted";
        if (!why.empty() && r.ok()) return "handle() accepted what validate() rejects: " + why;
        for (const auto& o : r.out) net.inject(se_ep(to), net.endpoint_of(se_ep(to), o), o.msg);
    }
    // Whatever is in flight drains: SEs must not bounce messages forever.
    for (unsigned steps = 0; !net.ready_channels().empty(); ++steps) {
        if (steps > 200000) return "messages still circulating after 200000 deliveries";
        const auto ch = net.ready_channels().front();
        net.deliver(ch.first, ch.second);
    }
    return {};
}

} // namespace syncron::fuzz
