#pragma once
// Sparse byte store holding the real contents of simulated memory.
// A 1 GiB unit is far too big to allocate up front, so memory is kept as
// 4 KiB pages created on first write; untouched bytes read as zero.
// Addresses are system addresses (no per-unit offset), so the platform can
// preload or inspect data with the same addresses the cores use.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace syncron {

class BackingStore {
public:
    static constexpr uint64_t kPageBytes = 4096;

    BackingStore() = default;
    BackingStore(const BackingStore&) = delete;
    BackingStore& operator=(const BackingStore&) = delete;

    /// Copy len bytes starting at addr into dst; pages never written read as zero.
    void read(uint64_t addr, uint8_t* dst, size_t len) const;
    /// Copy len bytes from src to addr, allocating the pages it touches.
    void write(uint64_t addr, const uint8_t* src, size_t len);

    /// Host memory held for simulated data (whole pages).
    size_t bytes_allocated() const { return m_pages.size() * kPageBytes; }
    size_t pages_allocated() const { return m_pages.size(); }
    /// Forget every page: all memory reads as zero again.
    void clear() { m_pages.clear(); }

private:
    using Page = std::unique_ptr<uint8_t[]>;
    std::unordered_map<uint64_t, Page> m_pages; ///< keyed by addr / kPageBytes
};

} // namespace syncron
