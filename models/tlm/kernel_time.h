#pragma once
// The kernel's current time, read inline. sc_core::sc_time_stamp() is a call
// into the SystemC library for one load of the simulation context's time; an
// LT access asks for it a dozen times, and the calls were 4 % of an LT run's
// instructions (docs/performance.md, "Boundary-aligned quantum syncs").
#include <systemc>

namespace syncron {

inline const sc_core::sc_time& kernel_time() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

} // namespace syncron
