#pragma once
// The ST's occupancy over simulated time when its changes come out of time
// order (LT: the SE serves each core's message in its sender's call, cores up
// to a quantum apart). Each change is recorded at its simulated time and
// folded in time order once no earlier one can come (settle(now): every later
// service starts at or after now), so the maximum and the time average are
// those of simulated time, not of the order of the calls.
// Plain C++ (sc_time only as a value type): unit-tested without elaboration.
#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

namespace syncron {

class LtOccupancy {
public:
    /// The occupancy changes by `delta` at simulated time `at`.
    void change(const sc_core::sc_time& at, int delta);
    /// Folds the changes at or before `now` (none can come earlier any more).
    void settle(const sc_core::sc_time& now);
    /// Largest occupancy over all changes recorded so far.
    unsigned max() const;
    /// Integral of the occupancy over [0, end], in entries × ns (changes after `end` ignored).
    double integral_ns(const sc_core::sc_time& end) const;

private:
    using Change = std::pair<sc_core::sc_time, int>;
    struct Folded {
        int level = 0;
        unsigned max = 0;
        double integral_ns = 0;
        sc_core::sc_time last;
        void add(const Change& c);
    };
    /// m_folded with the pending changes up to `end` folded in.
    Folded fold_all(const sc_core::sc_time& end) const;

    std::vector<Change> m_pending; ///< min-heap on time
    Folded m_folded;
};

} // namespace syncron
