#pragma once
// A stop asked for by a signal (StopSignals, platforms/simulation.h) or by a
// caller (NdpPlatform::request_stop). The model checks it every simulated
// microsecond; the long loops that build a run's inputs (generating or
// reading a graph or a series) check it too and give up with
// InputsInterrupted, so a signal during a minute-long set-up is answered at
// once.
#include <csignal>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace syncron {

/// Set from a signal handler: only sig_atomic_t writes there.
inline volatile std::sig_atomic_t g_stop_requested = 0;

inline bool stop_requested() { return g_stop_requested != 0; }

/// Thrown by an input loop that saw a stop request; what() says what it was
/// doing ("generating the R-MAT graph").
class InputsInterrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Polls every 2^16 steps (a few milliseconds of input work at most between checks).
inline void check_stop(uint64_t step, const char* what) {
    if ((step & 0xFFFF) == 0 && stop_requested()) throw InputsInterrupted(what);
}

} // namespace syncron
