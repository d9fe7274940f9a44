#pragma once
// The system address map (docs/address_map.md).
//   memory: unit u owns [u*unit_bytes, (u+1)*unit_bytes); within a unit the
//           vault is picked by the low-order bits above the interleave granule.
//   MMIO:   per unit a window at kIoBase + u*kIoUnitStride holding the SE's
//           message port (offset 0), the coherence directory's port
//           (kDirectoryOffset) and one mailbox per core.
#include <cstdint>
#include <optional>

#include "models/common/params.h"

namespace syncron {

class AddressMap {
public:
    static constexpr uint64_t kIoBase = 1ull << 48;
    static constexpr uint64_t kIoUnitStride = 1ull << 24;
    static constexpr uint64_t kDirectoryOffset = 0x8000;
    static constexpr uint64_t kDirectoryBytes = 0x1000;
    static constexpr uint64_t kMailboxOffset = 0x10000;
    static constexpr uint64_t kMailboxStride = 0x100;

    enum class Kind { memory, se, directory, mailbox, unmapped };
    struct Decoded {
        Kind kind = Kind::unmapped;
        unsigned unit = 0;
        unsigned index = 0; ///< vault for memory, core for mailbox
    };

    AddressMap(unsigned units, unsigned cores_per_unit, const MemoryParams& mem);

    Decoded decode(uint64_t addr) const;

    unsigned units() const { return m_units; }
    unsigned cores_per_unit() const { return m_cores_per_unit; }
    uint64_t unit_base(unsigned unit) const { return unit * m_mem.unit_bytes; }
    uint64_t unit_bytes() const { return m_mem.unit_bytes; }
    /// Unit whose memory holds addr: the home of data, the Master SE of a variable.
    unsigned home_unit(uint64_t addr) const { return static_cast<unsigned>(addr / m_mem.unit_bytes); }
    bool is_memory(uint64_t addr) const { return addr < m_units * m_mem.unit_bytes; }
    unsigned vault_of(uint64_t addr) const;
    unsigned bank_of(uint64_t addr) const;
    uint64_t row_of(uint64_t addr) const;

    uint64_t se_address(unsigned unit) const { return kIoBase + unit * kIoUnitStride; }
    /// The MESI directory of `unit` (docs/coherence.md).
    uint64_t directory_address(unsigned unit) const { return se_address(unit) + kDirectoryOffset; }
    uint64_t mailbox_address(unsigned unit, unsigned core) const {
        return se_address(unit) + kMailboxOffset + core * kMailboxStride;
    }

private:
    unsigned m_units;
    unsigned m_cores_per_unit;
    MemoryParams m_mem;
};

} // namespace syncron
