#pragma once
// One SE's counters (SeModule::stats(), docs/stats.md). Both timings fill the
// same struct so the statistics keep one meaning whichever shell runs.
#include <cstdint>

#include <systemc>

namespace syncron {

struct SeStats {
    uint64_t processed = 0;              ///< messages taken from the buffer
    uint64_t rejected = 0;               ///< malformed messages answered with an error response
    sc_core::sc_time spu_busy;           ///< total SPU service time
    unsigned buffer_max = 0;             ///< most messages waiting at once
    uint64_t buffer_full_events = 0;     ///< arrivals that found buffer_messages already waiting (back-pressure in AT)
    unsigned st_max = 0;                 ///< AT: most ST entries occupied at once (both timings: st_max())
    uint64_t mem_accesses = 0;           ///< syncronVar reads and writes
    double st_occupancy_integral_ns = 0; ///< ST entries x ns, for the time average
    sc_core::sc_time last_change;
};

} // namespace syncron
