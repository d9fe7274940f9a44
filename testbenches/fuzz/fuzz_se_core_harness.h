#pragma once
// The harness side of fuzz_se_core (the checker and the test network), in
// its own translation unit: the libFuzzer build compiles it without coverage
// instrumentation (still with ASan and UBSan), so coverage feedback and
// comparison tracing come from the SE core under test, not from the
// harness's per-step loops, which cost more than the SE itself
// (docs/reliability.md, "Figures").
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "testbenches/tests/se_random_checker.h"

namespace syncron::fuzz {

/// The fuzzer's bytes, read in order; zeros once they run out.
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

/// Runs the cores' programs of scenario `sc` with the checker, `steer`
/// deciding its first choices. Empty if every check held, else what failed.
std::string check_programs(const test::Scenario& sc, std::vector<uint8_t> steer);
/// Sends the messages `in` describes to the SEs of scenario `sc`'s network
/// and drains it. Empty if the SEs behaved, else what they did wrong.
std::string check_raw_messages(const test::Scenario& sc, Bytes& in);

} // namespace syncron::fuzz
