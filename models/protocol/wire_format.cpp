#include "models/protocol/wire_format.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/protocol/rmw.h"

namespace syncron {
namespace {

constexpr unsigned kAddrPos = 0;
constexpr unsigned kOpPos = 64;
constexpr unsigned kCoreIdPos = 70;
constexpr unsigned kInfoPos = 76;
static_assert(kInfoPos + 64 == kWireBits);
static_assert((kWireBits + 7) / 8 == kWireBytes);

bool split_core_id(Opcode op) {
    const Level l = level_of(op);
    return l == Level::overflow || l == Level::other;
}

bool fits_bits(uint64_t v, unsigned bits) { return bits >= 64 || (v >> bits) == 0; }

unsigned ceil_log2(unsigned n) {
    unsigned bits = 0;
    while ((uint64_t{1} << bits) < n) ++bits;
    return bits;
}

// Fields are read a byte-aligned chunk at a time (up to 8 bits per step).
uint64_t get_bits(const uint8_t* bytes, unsigned pos, unsigned width) {
    uint64_t v = 0;
    for (unsigned done = 0; done < width;) {
        const unsigned off = pos % 8, n = std::min(8u - off, width - done);
        v |= uint64_t((bytes[pos / 8] >> off) & ((1u << n) - 1u)) << done;
        done += n;
        pos += n;
    }
    return v;
}

std::string layout_text(const WireLayout& l) {
    return "layout core_bits=" + std::to_string(l.core_bits) + " + se_bits=" + std::to_string(l.se_bits) +
           " exceeds the 6-bit CoreID";
}

// True when the message has a wire form: the test every message makes on its
// way out, so it builds no text (wire_problem says why not, and agrees).
bool has_wire_form(const Message& m, const WireLayout& layout) {
    if (!layout_fits_wire(layout)) return false;
    if (static_cast<unsigned>(m.op) >= kOpcodeCount) return false;
    if (m.expected && !rmw_has_expected(m.op)) return false;
    if (split_core_id(m.op)) return fits_bits(m.core, layout.core_bits) && fits_bits(m.se, layout.se_bits);
    if (level_of(m.op) == Level::global) return fits_bits(m.se, kCoreIdBits);
    return fits_bits(m.core, kCoreIdBits);
}

// Empty when the message has a wire form; otherwise why not. Shared by
// fits() and pack() so the two can never disagree.
std::string wire_problem(const Message& m, const WireLayout& layout) {
    if (!layout_fits_wire(layout)) return layout_text(layout);
    const unsigned raw = static_cast<unsigned>(m.op);
    if (raw >= kOpcodeCount)
        return "opcode " + std::to_string(raw) + " is not one of the " + std::to_string(kOpcodeCount) + " opcodes";
    if (m.expected && !rmw_has_expected(m.op))
        return std::string(to_string(m.op)) + " carries no expected value (only rmw_cas_* have the trailer flit)";
    const Level level = level_of(m.op);
    if (split_core_id(m.op)) {
        if (!fits_bits(m.core, layout.core_bits))
            return "core " + std::to_string(m.core) + " does not fit in the " + std::to_string(layout.core_bits) +
                   " core bits of the 6-bit CoreID";
        if (!fits_bits(m.se, layout.se_bits))
            return "se " + std::to_string(m.se) + " does not fit in the " + std::to_string(layout.se_bits) +
                   " SE bits of the 6-bit CoreID";
    } else if (level == Level::global) {
        if (!fits_bits(m.se, kCoreIdBits)) return "se " + std::to_string(m.se) + " does not fit in the 6-bit CoreID";
    } else if (!fits_bits(m.core, kCoreIdBits)) {
        return "core " + std::to_string(m.core) + " does not fit in the 6-bit CoreID";
    }
    return {};
}

} // namespace

WireLayout layout_for(unsigned units, unsigned cores_per_unit) {
    if (units == 0 || cores_per_unit == 0)
        throw std::invalid_argument("layout_for: units and cores_per_unit must be >= 1");
    return WireLayout{ceil_log2(cores_per_unit), ceil_log2(units)};
}

bool layout_fits_wire(const WireLayout& layout) {
    return layout.core_bits <= kCoreIdBits && layout.se_bits <= kCoreIdBits &&
           layout.core_bits + layout.se_bits <= kCoreIdBits;
}

unsigned core_id_of(const Message& m, const WireLayout& layout) {
    if (split_core_id(m.op)) return (unsigned(m.se) << layout.core_bits) | m.core;
    return level_of(m.op) == Level::global ? m.se : m.core;
}

bool fits(const Message& m, const WireLayout& layout) { return has_wire_form(m, layout); }

std::array<uint8_t, kWireBytes> pack(const Message& m, const WireLayout& layout) {
    if (!has_wire_form(m, layout)) throw std::invalid_argument("pack: " + wire_problem(m, layout));

    // Every message is packed on its way out, so the fixed layout is written
    // byte by byte rather than field by field (get_bits reads it back).
    static_assert(kAddrPos == 0 && kOpPos == 64 && kCoreIdPos == 70 && kInfoPos == 76);
    std::array<uint8_t, kWireBytes> out{};
    const uint64_t id = core_id_of(m, layout);
    // Bytes 10..17 are MessageInfo >> 4, little-endian (its top 4 bits end byte 17).
    const uint64_t info_high = m.info >> 4;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::memcpy(out.data(), &m.addr, 8);
    std::memcpy(out.data() + 10, &info_high, 8);
#else
    for (unsigned b = 0; b < 8; ++b) out[b] = uint8_t(m.addr >> (8 * b));
    for (unsigned b = 0; b < 8; ++b) out[10 + b] = uint8_t(info_high >> (8 * b));
#endif
    out[8] = uint8_t(static_cast<unsigned>(m.op) | ((id & 0x3u) << 6));
    out[9] = uint8_t(((id >> 2) & 0xfu) | ((m.info & 0xfu) << 4));
    return out;
}

Message unpack(const uint8_t* bytes, const WireLayout& layout) {
    if (!layout_fits_wire(layout)) throw std::invalid_argument("unpack: " + layout_text(layout));
    if (bytes[kWireBytes - 1] >> (kWireBits % 8))
        throw std::invalid_argument("unpack: nonzero padding bits in byte 17");

    const unsigned raw = unsigned(get_bits(bytes, kOpPos, kOpcodeBits));
    const auto op = opcode_from_raw(raw);
    if (!op) throw std::invalid_argument("unpack: unknown opcode " + std::to_string(raw));

    Message m;
    m.addr = get_bits(bytes, kAddrPos, 64);
    m.op = *op;
    m.info = get_bits(bytes, kInfoPos, 64);
    const unsigned id = unsigned(get_bits(bytes, kCoreIdPos, kCoreIdBits));
    if (split_core_id(m.op)) {
        // A CoreID with bits above core_bits + se_bits names no SE of this layout.
        if (!fits_bits(id, layout.core_bits + layout.se_bits))
            throw std::invalid_argument("unpack: CoreID " + std::to_string(id) +
                                        " exceeds the layout's core_bits + se_bits");
        m.core = uint16_t(id & ((1u << layout.core_bits) - 1u));
        m.se = uint16_t(id >> layout.core_bits);
    } else if (level_of(m.op) == Level::global) {
        m.se = uint16_t(id);
    } else {
        m.core = uint16_t(id);
    }
    return m;
}

unsigned wire_bytes(Opcode op) { return kWireBytes + (rmw_has_expected(op) ? kTrailerBytes : 0); }

std::array<uint8_t, kTrailerBytes> pack_trailer(const Message& m) {
    std::array<uint8_t, kTrailerBytes> out{};
    for (unsigned b = 0; b < kTrailerBytes; ++b) out[b] = uint8_t(m.expected >> (8 * b));
    return out;
}

void unpack_trailer(const uint8_t* bytes, Message& m) {
    m.expected = 0;
    for (unsigned b = 0; b < kTrailerBytes; ++b) m.expected |= uint64_t(bytes[b]) << (8 * b);
}

} // namespace syncron
