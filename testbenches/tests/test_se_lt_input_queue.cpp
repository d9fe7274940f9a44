// LtInputQueue: the SE's bounded input in LT, counted from the services
// booked (docs/timing.md, "The SE in LT").
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "models/se/lt_input_queue.h"

using sc_core::sc_time;
using sc_core::SC_NS;
using syncron::LtInputQueue;

namespace {
sc_time ns(double v) { return sc_time(v, SC_NS); }
} // namespace

TEST_CASE("LT input: messages arriving together queue behind one another and the bound holds the rest back",
          "[se][lt_input]") {
    // Six messages arrive at 10 ns; their services begin 12 ns apart.
    LtInputQueue q;
    for (unsigned c = 0; c < 6; ++c) {
        const sc_time start = ns(10 + 12.0 * c);
        const LtInputQueue::Arrival a = q.arrive(ns(10), start, 2);
        INFO("message " << c);
        CHECK(q.arrive(ns(10), start, 0).ahead == c); // the one beginning on the arrival still waits
        CHECK(a.ahead == std::min(c, 2u));            // counted up to the capacity
        // With two places, message c is taken when message c - 2 begins.
        CHECK(a.accepted == (c < 2 ? ns(10) : ns(10 + 12.0 * (c - 2))));
        CHECK(q.arrive(ns(10), start, 0).accepted == ns(10)); // unbounded
        q.book(start, ns(10));
    }
    CHECK(q.size() == 6);
}

TEST_CASE("LT input: services booked out of call order count by their times and first come first served",
          "[se][lt_input]") {
    LtInputQueue q;
    q.book(ns(300), ns(60));
    q.book(ns(100), ns(40));
    q.book(ns(200), ns(50));
    // Arriving at 150 to be served at 400: the services at 200 and 300 wait ahead.
    CHECK(q.arrive(ns(150), ns(400), 16).ahead == 2);
    // Arriving at 50 to be served at 250: 100 (arrived at 40) and 200 (at 50).
    CHECK(q.arrive(ns(50), ns(250), 16).ahead == 2);
    CHECK(q.arrive(ns(50), ns(250), 1).accepted == ns(200));
    CHECK(q.arrive(ns(50), ns(250), 2).accepted == ns(100));
    CHECK(q.arrive(ns(50), ns(250), 3).accepted == ns(50));
    // Arriving at 45: the message that arrived at 50 and was booked into the
    // gap at 200 (its core ran ahead) would have queued behind it in AT.
    CHECK(q.arrive(ns(45), ns(250), 16).ahead == 1);
    CHECK(q.arrive(ns(45), ns(250), 1).accepted == ns(100));
    CHECK(q.arrive(ns(45), ns(250), 2).accepted == ns(45));
}

TEST_CASE("LT input: pruning forgets begun services and keeps every answer for later arrivals", "[se][lt_input]") {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> step(0, 40);
    LtInputQueue pruned, kept;
    struct Booked {
        sc_time start, arrival;
    };
    std::vector<Booked> booked;
    double now = 0;
    for (int i = 0; i < 2000; ++i) {
        now += step(rng) / 10.0;
        const sc_time s = ns(now + step(rng)); // booked up to 40 ns ahead, out of order
        const sc_time arrived = ns(now + step(rng) / 8.0);
        pruned.book(s, arrived);
        kept.book(s, arrived);
        booked.push_back({s, arrived});
        pruned.prune(ns(now));
        const sc_time arrival = ns(now + step(rng) / 4.0);
        const sc_time start = ns(now + 20 + step(rng));
        for (std::size_t cap : {1u, 4u, 24u}) {
            INFO("i " << i << " capacity " << cap);
            const auto a = pruned.arrive(arrival, start, cap);
            const auto b = kept.arrive(arrival, start, cap);
            CHECK(a.ahead == b.ahead);
            CHECK(a.accepted == b.accepted);
        }
        const auto waiting = static_cast<std::size_t>(std::count_if(booked.begin(), booked.end(), [&](const Booked& b) {
            return b.start >= arrival && b.start < start && b.arrival <= arrival;
        }));
        CHECK(pruned.arrive(arrival, start, 0).ahead == waiting);
    }
    CHECK(pruned.size() < kept.size()); // bounded by what has not begun
}
