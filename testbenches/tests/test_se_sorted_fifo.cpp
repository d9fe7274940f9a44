// SortedFifo (models/common/sorted_fifo.h), the SE's SPU buffer: the order
// and counts the SPU relies on, against a std::multiset kept alongside.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "models/common/sorted_fifo.h"

namespace {

using syncron::SortedFifo;

struct Item {
    uint64_t time;
    uint64_t seq;
    bool operator<(const Item& o) const { return time != o.time ? time < o.time : seq < o.seq; }
    bool operator==(const Item& o) const { return time == o.time && seq == o.seq; }
};

std::vector<Item> contents(const SortedFifo<Item>& q) { return {q.begin(), q.end()}; }

} // namespace

TEST_CASE("SortedFifo keeps its elements sorted and pops the smallest", "[se][sorted_fifo]") {
    SortedFifo<Item> q;
    CHECK(q.empty());
    uint64_t seq = 0;
    for (const uint64_t t : {50u, 10u, 30u, 10u, 70u, 20u}) q.insert({t, seq++});
    REQUIRE(q.size() == 6);
    const std::vector<Item> expected{{10, 1}, {10, 3}, {20, 5}, {30, 2}, {50, 0}, {70, 4}};
    CHECK(contents(q) == expected);
    CHECK(q.count_not_after({10, ~0ull}) == 2);
    CHECK(q.count_not_after({25, ~0ull}) == 3);
    CHECK(q.count_not_after({5, ~0ull}) == 0);
    q.pop_front();
    CHECK(q.front() == Item{10, 3});
    CHECK(q.size() == 5);
}

TEST_CASE("SortedFifo matches a multiset over a long random run with compaction", "[se][sorted_fifo]") {
    // Mostly in-order arrivals with some far behind (past the 8-place look
    // at the tail), interleaved with pops, so the storage is compacted many
    // times while elements are still queued.
    SortedFifo<Item> q;
    std::multiset<Item> ref;
    std::mt19937_64 rng(7);
    uint64_t now = 0, seq = 0;
    for (int step = 0; step < 20000; ++step) {
        const unsigned pick = rng() % 10;
        if (pick < 6 || ref.empty()) {
            now += rng() % 3;
            const uint64_t late = (rng() % 8 == 0) ? rng() % 200 : 0;
            const Item x{now > late ? now - late : 0, seq++};
            q.insert(x);
            ref.insert(x);
        } else {
            REQUIRE(q.front() == *ref.begin());
            q.pop_front();
            ref.erase(ref.begin());
        }
        REQUIRE(q.size() == ref.size());
        if (step % 97 == 0) {
            REQUIRE(contents(q) == std::vector<Item>(ref.begin(), ref.end()));
            const Item probe{now - std::min<uint64_t>(now, 50), ~0ull};
            REQUIRE(q.count_not_after(probe) ==
                    static_cast<std::size_t>(std::distance(ref.begin(), ref.upper_bound(probe))));
        }
    }
    while (!ref.empty()) {
        REQUIRE(q.front() == *ref.begin());
        q.pop_front();
        ref.erase(ref.begin());
    }
    CHECK(q.empty());
}
