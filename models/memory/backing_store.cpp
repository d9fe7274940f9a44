#include "models/memory/backing_store.h"

#include <algorithm>
#include <cstring>

namespace syncron {

void BackingStore::read(uint64_t addr, uint8_t* dst, size_t len) const {
    while (len > 0) {
        const uint64_t page = addr / kPageBytes;
        const uint64_t off = addr % kPageBytes;
        const size_t chunk = static_cast<size_t>(std::min<uint64_t>(len, kPageBytes - off));
        const auto it = m_pages.find(page);
        if (it == m_pages.end())
            std::memset(dst, 0, chunk); // never written: reads as zero, no allocation
        else
            std::memcpy(dst, it->second.get() + off, chunk);
        addr += chunk;
        dst += chunk;
        len -= chunk;
    }
}

void BackingStore::write(uint64_t addr, const uint8_t* src, size_t len) {
    while (len > 0) {
        const uint64_t page = addr / kPageBytes;
        const uint64_t off = addr % kPageBytes;
        const size_t chunk = static_cast<size_t>(std::min<uint64_t>(len, kPageBytes - off));
        Page& p = m_pages[page];
        if (!p) p.reset(new uint8_t[kPageBytes]()); // value-initialised: zeros
        std::memcpy(p.get() + off, src, chunk);
        addr += chunk;
        src += chunk;
        len -= chunk;
    }
}

} // namespace syncron
