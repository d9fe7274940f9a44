#pragma once
// Addresses in messages and reports are written one way everywhere: "0x1f80".
#include <cstdint>
#include <string>

namespace syncron {

/// `v` as lower-case hexadecimal with a 0x prefix.
std::string hex(uint64_t v);

} // namespace syncron
