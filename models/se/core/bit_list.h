#pragma once
// Waiting lists are hardware bit queues (paper Figure 7), sized from the
// platform configuration rather than fixed at 16 cores x 4 SEs.
#include <cstdint>

#include <boost/dynamic_bitset.hpp>

namespace syncron {

using BitList = boost::dynamic_bitset<uint64_t>;

inline constexpr unsigned kNone = ~0u;

/// Next set bit at or after `from`, wrapping around; kNone when empty.
/// Serving in this rotating order keeps every waiter's wait bounded.
inline unsigned next_round_robin(const BitList& bits, unsigned from) {
    if (bits.none()) return kNone;
    if (from >= bits.size()) from = 0;
    if (bits.test(from)) return from;
    auto i = bits.find_next(from);
    if (i == BitList::npos) i = bits.find_first();
    return static_cast<unsigned>(i);
}

} // namespace syncron
