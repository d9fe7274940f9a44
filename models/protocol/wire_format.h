#pragma once
// The bit-exact 140-bit wire form of a SynCron message (paper Figure 5).
//
// Bit order: one little-endian bit stream. Stream bit i is bit (i % 8) of
// byte (i / 8); inside each field the least significant bit comes first.
//
//   bits   0 ..  63  address      (bytes 0..7, little-endian)
//   bits  64 ..  69  opcode       (byte 8 bits 0..5)
//   bits  70 ..  75  CoreID       (byte 8 bits 6..7, byte 9 bits 0..3)
//   bits  76 .. 139  MessageInfo  (byte 9 bits 4..7 .. byte 17 bits 0..3)
//   bits 140 .. 143  padding, always zero (byte 17 bits 4..7)
//
// The 6-bit CoreID means different things per hop, so the sender's hop
// (level_of(op)) decides what it carries:
//   Level::local     CoreID = Message::core (local core ID)
//   Level::global    CoreID = Message::se   (SE global ID)
//   Level::overflow  CoreID = (se << core_bits) | core
//   decrease_indexing_counter: as overflow.
// The field the hop does not carry is dropped by pack and zero after unpack.
//
// Model extension: rmw_cas_local / rmw_cas_global need a second 64-bit word
// (the expected value, Message::expected) besides MessageInfo (the new
// value). It follows the 140-bit head as a trailer flit of 64 bits, bytes
// 18..25 little-endian (pack_trailer), so those messages are 26 bytes; every
// other message is the head alone and has Message::expected = 0.
#include <array>
#include <cstdint>

#include "models/protocol/message.h"

namespace syncron {

inline constexpr unsigned kWireBits = 140;
inline constexpr unsigned kWireBytes = 18;
inline constexpr unsigned kCoreIdBits = 6;
inline constexpr unsigned kOpcodeBits = 6;

/// How the 6-bit CoreID of overflow messages splits into SE and core IDs.
struct WireLayout {
    unsigned core_bits = 4; ///< low bits: local core ID
    unsigned se_bits = 2;   ///< high bits: SE global ID

    bool operator==(const WireLayout& o) const { return core_bits == o.core_bits && se_bits == o.se_bits; }
    bool operator!=(const WireLayout& o) const { return !(*this == o); }
};

/// Minimal widths (ceil(log2)) for a platform; throws for a zero count.
WireLayout layout_for(unsigned units, unsigned cores_per_unit);
/// True when both IDs share the 6-bit CoreID; otherwise no wire form exists.
bool layout_fits_wire(const WireLayout& layout);

/// The CoreID the message carries on the wire under this layout.
/// Does not check ranges; use fits() first.
unsigned core_id_of(const Message& m, const WireLayout& layout);

/// True when pack() would succeed.
bool fits(const Message& m, const WireLayout& layout);

/// Throws std::invalid_argument naming the field that does not fit.
std::array<uint8_t, kWireBytes> pack(const Message& m, const WireLayout& layout);

/// Throws std::invalid_argument for an unknown opcode or nonzero padding.
Message unpack(const uint8_t* bytes, const WireLayout& layout);
inline Message unpack(const std::array<uint8_t, kWireBytes>& bytes, const WireLayout& layout) {
    return unpack(bytes.data(), layout);
}

/// The trailer flit of rmw_cas_* (docs/message_format.md).
inline constexpr unsigned kTrailerBytes = 8;
/// Bytes of the message's wire form: kWireBytes, plus kTrailerBytes for rmw_cas_*.
unsigned wire_bytes(Opcode op);
/// The trailer of `m` (Message::expected), little-endian; only rmw_cas_* have one.
std::array<uint8_t, kTrailerBytes> pack_trailer(const Message& m);
/// Reads the trailer at `bytes` into m.expected.
void unpack_trailer(const uint8_t* bytes, Message& m);

} // namespace syncron
