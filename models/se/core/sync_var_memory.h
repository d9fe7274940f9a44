#pragma once
// The Master SE's window on its local memory, for syncronVar accesses
// (integrated overflow policy). The SE module reads its vaults through it,
// a software server its core, the ideal hub host memory.
#include <cstdint>

namespace syncron {

class SyncVarMemory {
public:
    virtual ~SyncVarMemory() = default;
    virtual void read(uint64_t addr, uint8_t* data, unsigned len) = 0;
    virtual void write(uint64_t addr, const uint8_t* data, unsigned len) = 0;
};

} // namespace syncron
