#include "models/common/address_map.h"

namespace syncron {

AddressMap::AddressMap(unsigned units, unsigned cores_per_unit, const MemoryParams& mem)
    : m_units(units), m_cores_per_unit(cores_per_unit), m_mem(mem) {}

AddressMap::Decoded AddressMap::decode(uint64_t addr) const {
    Decoded d;
    if (is_memory(addr)) {
        d.kind = Kind::memory;
        d.unit = home_unit(addr);
        d.index = vault_of(addr);
        return d;
    }
    if (addr < kIoBase) return d;
    const uint64_t unit = (addr - kIoBase) / kIoUnitStride;
    if (unit >= m_units) return d;
    const uint64_t off = (addr - kIoBase) % kIoUnitStride;
    d.unit = static_cast<unsigned>(unit);
    if (off >= kDirectoryOffset && off < kDirectoryOffset + kDirectoryBytes) {
        d.kind = Kind::directory;
        return d;
    }
    if (off < kMailboxOffset) {
        d.kind = Kind::se;
        return d;
    }
    const uint64_t core = (off - kMailboxOffset) / kMailboxStride;
    if (core >= m_cores_per_unit) return d;
    d.kind = Kind::mailbox;
    d.index = static_cast<unsigned>(core);
    return d;
}

unsigned AddressMap::vault_of(uint64_t addr) const {
    return static_cast<unsigned>((addr / m_mem.interleave_bytes) % m_mem.vaults_per_unit);
}

unsigned AddressMap::bank_of(uint64_t addr) const {
    return static_cast<unsigned>((addr / m_mem.interleave_bytes / m_mem.vaults_per_unit) % m_mem.banks_per_vault);
}

uint64_t AddressMap::row_of(uint64_t addr) const {
    // 2 KiB-wide rows per bank: interleave granules of one bank that share a row.
    const uint64_t per_bank = addr / m_mem.interleave_bytes / m_mem.vaults_per_unit / m_mem.banks_per_vault;
    return per_bank / (2048 / m_mem.interleave_bytes);
}

} // namespace syncron
