// ResourceTimeline: the reservation calendar behind the LT contention models
// (vault banks, crossbar ports, link serializers). Plain C++: no elaboration.
#include <catch2/catch.hpp>

#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <vector>

#include "models/tlm/resource_timeline.h"

using namespace syncron;
using sc_core::sc_time;

namespace {

sc_time ns(double v) { return sc_time(v, sc_core::SC_NS); }

/// The kept intervals are sorted, non-empty, disjoint and not touching.
bool well_formed(const ResourceTimeline& tl) {
    const auto& iv = tl.intervals();
    for (size_t i = 0; i < iv.size(); ++i) {
        if (!(iv[i].start < iv[i].end)) return false;
        if (i > 0 && !(iv[i - 1].end < iv[i].start)) return false;
    }
    return iv.empty() || iv.front().start >= tl.floor();
}

/// Every booking ever made, to check that none overlaps another.
class BookingLog {
public:
    /// False if [start, end) overlaps a booking already logged.
    bool add(sc_time start, sc_time end) {
        auto next = m_by_start.lower_bound(start);
        if (next != m_by_start.end() && next->first < end) return false;
        if (next != m_by_start.begin() && std::prev(next)->second > start) return false;
        m_by_start.emplace(start, end);
        return true;
    }

    /// Brute-force first fit over the full history: the earliest t >= arrival
    /// with [t, t + occ) free. Candidates are the arrival and booking ends.
    sc_time first_fit(sc_time arrival, sc_time occ) const {
        sc_time t = arrival;
        for (const auto& [s, e] : m_by_start) {
            if (e <= t) continue;
            if (t + occ <= s) break;
            t = e;
        }
        return t;
    }

private:
    std::map<sc_time, sc_time> m_by_start;
};

} // namespace

TEST_CASE("memory: timeline: a request is placed in the first gap at or after its arrival", "[memory][timeline]") {
    ResourceTimeline tl;
    CHECK(tl.book(ns(0), ns(10)) == ns(0));   // [0, 10)
    CHECK(tl.book(ns(30), ns(10)) == ns(30)); // [30, 40): booked by an initiator running ahead
    CHECK(tl.busy_until() == ns(40));
    // A later caller whose own time is earlier fits in the hole [10, 30).
    CHECK(tl.book(ns(5), ns(10)) == ns(10)); // [10, 20)
    // The rest of the hole is too short for 15 ns: after the last booking.
    CHECK(tl.earliest_start(ns(12), ns(15)) == ns(40));
    CHECK(tl.book(ns(12), ns(15)) == ns(40)); // [40, 55)
    // An arrival inside the hole that fits exactly.
    CHECK(tl.book(ns(20), ns(10)) == ns(20)); // [20, 30) closes the hole
    CHECK(tl.size() == 1);                    // [0, 55)
    CHECK(tl.busy_until() == ns(55));
    CHECK(tl.busy_time() == ns(55));
    CHECK(tl.bookings() == 5);
    CHECK(well_formed(tl));
}

TEST_CASE("memory: timeline: appending and merging of touching intervals", "[memory][timeline]") {
    ResourceTimeline tl;
    CHECK(tl.busy_until() == sc_core::SC_ZERO_TIME);
    CHECK(tl.book(ns(100), ns(5)) == ns(100)); // idle resource: starts at its arrival
    CHECK(tl.book(ns(100), ns(5)) == ns(105)); // same arrival: queues behind
    CHECK(tl.book(ns(0), ns(5)) == ns(0));     // earlier: fits before
    CHECK(tl.size() == 2);                     // [0, 5) [100, 110)
    CHECK(tl.book(ns(110), ns(5)) == ns(110)); // touches the end: merged
    CHECK(tl.size() == 2);
    CHECK(tl.book(ns(95), ns(5)) == ns(95)); // touches the start: merged
    CHECK(tl.size() == 2);
    CHECK(tl.intervals()[1].start == ns(95));
    CHECK(tl.intervals()[1].end == ns(115));
    CHECK(tl.book(ns(5), ns(90)) == ns(5)); // fills the gap exactly: all one
    CHECK(tl.size() == 1);
    CHECK(tl.busy_until() == ns(115));
    CHECK(tl.busy_time() == ns(115));
    // Overlapping request arriving mid-interval goes to the end.
    CHECK(tl.book(ns(50), ns(1)) == ns(115));
    CHECK(tl.size() == 1);
    CHECK(well_formed(tl));
}

TEST_CASE("memory: timeline: zero occupancy and earliest_start have no side effects", "[memory][timeline]") {
    ResourceTimeline tl;
    tl.book(ns(0), ns(10));
    CHECK(tl.book(ns(3), sc_core::SC_ZERO_TIME) == ns(3)); // needs no resource
    CHECK(tl.earliest_start(ns(3), ns(1)) == ns(10));
    CHECK(tl.earliest_start(ns(3), sc_core::SC_ZERO_TIME) == ns(3));
    CHECK(tl.size() == 1);
    CHECK(tl.bookings() == 1);
    CHECK(tl.busy_time() == ns(10));
    tl.clear();
    CHECK(tl.size() == 0);
    CHECK(tl.busy_until() == sc_core::SC_ZERO_TIME);
    CHECK(tl.book(ns(0), ns(1)) == ns(0));
}

TEST_CASE("memory: timeline: pruning drops only dead intervals and keeps the results", "[memory][timeline]") {
    ResourceTimeline tl;
    tl.book(ns(0), ns(10));
    tl.book(ns(20), ns(10));
    tl.book(ns(50), ns(10));
    tl.prune(ns(10)); // [0, 10) ended at 10: dropped
    CHECK(tl.size() == 2);
    CHECK(tl.floor() == ns(10));
    tl.prune(ns(25)); // [20, 30) still running: kept
    CHECK(tl.size() == 2);
    CHECK(tl.book(ns(25), ns(10)) == ns(30)); // [30, 40) still sees [20, 30)
    tl.prune(ns(100));
    CHECK(tl.size() == 0);
    CHECK(tl.busy_until() == ns(60)); // the end of the last booking survives pruning
    // A (misbehaving) arrival before the pruned horizon is served after the
    // dropped bookings rather than on top of them.
    CHECK(tl.book(ns(0), ns(5)) == ns(60));

    // Random bookings (load ~0.9) with arrivals never before "now": pruning at
    // now gives exactly the results of an unpruned, unbounded timeline.
    std::mt19937_64 rng(7);
    ResourceTimeline pruned, full(1u << 20);
    double now = 0;
    for (int k = 0; k < 20000; ++k) {
        now += static_cast<double>(rng() % 24);
        const sc_time arrival = ns(now + static_cast<double>(rng() % 100));
        const sc_time occ = ns(1 + static_cast<double>(rng() % 20));
        pruned.prune(ns(now));
        const sc_time a = pruned.book(arrival, occ);
        const sc_time b = full.book(arrival, occ);
        if (a != b) FAIL("pruned and unpruned timelines disagree at booking " << k);
    }
    CHECK(pruned.size() < 64);
    CHECK(pruned.busy_until() == full.busy_until());
    CHECK(pruned.busy_time() == full.busy_time());
}

TEST_CASE("memory: timeline: first fit matches a brute-force search over all bookings", "[memory][timeline]") {
    std::mt19937_64 rng(11);
    ResourceTimeline tl(1u << 20); // no merging: exact
    BookingLog log;
    for (int k = 0; k < 3000; ++k) {
        const sc_time arrival = ns(static_cast<double>(rng() % 20000));
        const sc_time occ = ns(1 + static_cast<double>(rng() % 30));
        const sc_time expect = log.first_fit(arrival, occ);
        const sc_time got = tl.book(arrival, occ);
        if (got != expect) FAIL("booking " << k << ": got " << got << ", expected " << expect);
        REQUIRE(log.add(got, got + occ));
    }
    CHECK(well_formed(tl));
}

TEST_CASE("memory: timeline: bounded size and no overlap under 1e5 random bookings", "[memory][timeline]") {
    std::mt19937_64 rng(3);
    for (bool with_prune : {false, true}) {
        ResourceTimeline tl; // default cap of 64 intervals
        BookingLog log;
        sc_time busy;
        double now = 0;
        size_t max_size = 0;
        bool overlap = false, early = false, malformed = false;
        for (int k = 0; k < 100000; ++k) {
            now += static_cast<double>(rng() % 10); // load ~0.8
            // Mostly near "now", sometimes far ahead (an initiator running ahead).
            const double ahead =
                (rng() % 10 == 0) ? static_cast<double>(rng() % 1000) : static_cast<double>(rng() % 50);
            const sc_time arrival = ns(now + ahead);
            const sc_time occ = ns(1 + static_cast<double>(rng() % 6));
            if (with_prune) tl.prune(ns(now));
            const sc_time start = tl.book(arrival, occ);
            busy += occ;
            early |= start < arrival;
            overlap |= !log.add(start, start + occ);
            max_size = std::max(max_size, tl.size());
            if (k % 997 == 0) malformed |= !well_formed(tl);
        }
        INFO("with_prune = " << with_prune);
        CHECK(max_size <= tl.max_intervals());
        CHECK_FALSE(overlap);
        CHECK_FALSE(early);
        CHECK_FALSE(malformed);
        CHECK(well_formed(tl));
        CHECK(tl.busy_time() == busy);
        CHECK(tl.bookings() == 100000);
    }
}
