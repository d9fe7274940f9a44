#pragma once
// Doubles kept in simulated memory as their 8-byte bit patterns (pr's ranks,
// ts's distances): the word a core loads and stores, bit for bit.
#include <cstdint>
#include <cstring>

namespace syncron {

inline uint64_t bits(double x) {
    uint64_t b = 0;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

inline double real(uint64_t b) {
    double x = 0;
    std::memcpy(&x, &b, sizeof x);
    return x;
}

} // namespace syncron
