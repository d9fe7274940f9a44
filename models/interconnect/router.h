#pragma once
// Address decoding policy of a Crossbar: which output port serves an address.
// Kept as a small interface so a platform can route by its AddressMap and a
// test by a hand-written table.
#include <cstdint>

namespace syncron {

class Router {
public:
    virtual ~Router() = default;
    /// Output port index of the crossbar that serves addr, or -1 if unmapped.
    virtual int route(uint64_t addr) const = 0;
};

} // namespace syncron
