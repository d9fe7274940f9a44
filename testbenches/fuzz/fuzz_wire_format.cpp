// Fuzz target over the 140-bit wire form (models/protocol/wire_format.h):
// any 18 bytes under any layout the platform could choose either decode to a
// message that packs back to exactly those bytes, or are rejected with a
// std::invalid_argument that says why (unknown opcode, padding, CoreID out of
// range). Any other exception, a crash, or a round trip that differs is a
// finding. docs/reliability.md.
#include <array>
#include <cstring>
#include <stdexcept>

#include "models/protocol/wire_format.h"
#include "testbenches/fuzz/fuzz_target.h"

using namespace syncron;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1 + kWireBytes) return 0;
    const unsigned units = 1 + data[0] % 16, cores = 1 + (data[0] / 16) % 16;
    const WireLayout layout = layout_for(units, cores);
    if (!layout_fits_wire(layout)) return 0;
    std::array<uint8_t, kWireBytes> bytes{};
    std::memcpy(bytes.data(), data + 1, kWireBytes);
    Message m;
    try {
        m = unpack(bytes, layout);
    } catch (const std::invalid_argument& e) {
        if (std::strlen(e.what()) == 0) fuzz::finding("unpack rejected bytes without saying why");
        return 0;
    }
    if (!fits(m, layout)) fuzz::finding("unpack produced a message that does not fit its own layout: " + to_string(m));
    if (pack(m, layout) != bytes) fuzz::finding("unpack/pack round trip changed the bytes of " + to_string(m));
    return 0;
}
