// LtOccupancy: the ST's occupancy over simulated time from changes recorded
// out of time order (docs/se.md, "Buffer statistics" and "The SE in LT").
#include <catch2/catch.hpp>

#include "models/se/lt_occupancy.h"

using syncron::LtOccupancy;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {
sc_time ns(double v) { return sc_time(v, SC_NS); }
} // namespace

TEST_CASE("LT occupancy: changes recorded out of order count in time order", "[se][lt_occupancy]") {
    LtOccupancy o;
    // In call order: an entry held [100, 200) is recorded before one held
    // [150, 300), whose allocation comes last. In call order the level would
    // never pass 1; in simulated time both are live in [150, 200).
    o.change(ns(100), +1);
    o.change(ns(200), -1);
    o.change(ns(300), -1);
    o.change(ns(150), +1);
    CHECK(o.max() == 2);
    // 1 x 50 + 2 x 50 + 1 x 100 entries x ns over [0, 300].
    CHECK(o.integral_ns(ns(300)) == Approx(250.0));
    CHECK(o.integral_ns(ns(400)) == Approx(250.0));
    CHECK(o.integral_ns(ns(175)) == Approx(1 * 50 + 2 * 25));
}

TEST_CASE("LT occupancy: settling folds the past and keeps the answers", "[se][lt_occupancy]") {
    LtOccupancy a, b;
    const double t[][2] = {{10, +1}, {40, +1}, {20, +1}, {30, -1}, {60, -1}, {50, -1}};
    for (const auto& c : t) {
        a.change(ns(c[0]), static_cast<int>(c[1]));
        b.change(ns(c[0]), static_cast<int>(c[1]));
        b.settle(ns(c[0] - 15 > 0 ? c[0] - 15 : 0)); // never past a change still to come
    }
    CHECK(a.max() == b.max());
    CHECK(a.max() == 2);
    CHECK(a.integral_ns(ns(100)) == Approx(b.integral_ns(ns(100))));
    CHECK(a.integral_ns(ns(100)) == Approx(10 * 1 + 10 * 2 + 10 * 1 + 10 * 2 + 10 * 1));
    CHECK(LtOccupancy().max() == 0);
    CHECK(LtOccupancy().integral_ns(ns(100)) == 0.0);
}
