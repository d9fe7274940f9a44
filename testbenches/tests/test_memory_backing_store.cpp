// The backing store (models/memory/backing_store.h): what was written reads
// back, what was not reads as zero, across page boundaries, for many pages
// written and read in random order against a plain map, and after clear().
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <random>

#include "models/memory/backing_store.h"

using namespace syncron;

namespace {

uint64_t read64(const BackingStore& s, uint64_t addr) {
    uint64_t v = 0;
    uint8_t b[8];
    s.read(addr, b, sizeof b);
    std::memcpy(&v, b, sizeof v);
    return v;
}

void write64(BackingStore& s, uint64_t addr, uint64_t v) {
    uint8_t b[8];
    std::memcpy(b, &v, sizeof b);
    s.write(addr, b, sizeof b);
}

} // namespace

TEST_CASE("backing store: written words read back and unwritten ones read zero, before and after clear()", "[memory]") {
    BackingStore s;
    constexpr uint64_t kPage = BackingStore::kPageBytes;
    // Reading a page before it is written must not hide the write after it.
    CHECK(read64(s, 5 * kPage) == 0);
    write64(s, 5 * kPage, 7);
    CHECK(read64(s, 5 * kPage) == 7);
    // A word across a page boundary.
    write64(s, 9 * kPage - 4, 0x1122334455667788);
    CHECK(read64(s, 9 * kPage - 4) == 0x1122334455667788);
    CHECK(s.pages_allocated() == 3);
    // Pages 2^20 pages (4 GiB) apart interleaved with nearby
    // ones, random words against a plain map.
    std::map<uint64_t, uint64_t> expected{{5 * kPage, 7}};
    std::mt19937_64 rng(1);
    for (int i = 0; i < 20000; ++i) {
        const uint64_t page = (rng() % 8) * (uint64_t(1) << 20) + 5; // eight pages, one slot
        const uint64_t addr = (rng() % 2 ? page : rng() % 100000) * kPage + (rng() % (kPage / 8)) * 8;
        if (rng() % 2) {
            const uint64_t v = rng();
            write64(s, addr, v);
            expected[addr] = v;
        } else {
            const auto it = expected.find(addr);
            REQUIRE(read64(s, addr) == (it == expected.end() ? 0 : it->second));
        }
    }
    for (const auto& [addr, v] : expected) REQUIRE(read64(s, addr) == v);
    // Everything reads zero after clear(), including the pages just read.
    s.clear();
    CHECK(s.pages_allocated() == 0);
    for (const auto& e : expected) REQUIRE(read64(s, e.first) == 0);
    write64(s, 5 * kPage, 9);
    CHECK(read64(s, 5 * kPage) == 9);
}
