#pragma once
// One DRAM bank of a vault: its reservation calendar and its row buffer.
//
// One state for both timing styles. The calendar holds the intervals in which
// the bank is busy: LT books a closed-page access in the earliest gap at its
// effective time (initiators decoupled in time reach the bank out of time
// order, first fit keeps one from queueing behind another's future booking);
// AT books, in time order, from the issue of an access until the bank takes
// its next one, so "free" means the calendar is empty from now on. The row
// buffer is only read by AT: LT requests do not arrive in time order, so a row
// state updated by them would give hits and conflicts that depend on the
// quantum; an LT access leaves its bank precharged (closed page).
#include <cstdint>

#include <systemc>

#include "models/tlm/resource_timeline.h"

namespace syncron {

struct VaultBank {
    ResourceTimeline calendar;  ///< busy intervals
    bool open = false;          ///< a row is open (AT, open-page policy)
    uint64_t row = 0;           ///< the open row
    sc_core::sc_time activated; ///< last activate (AT)
    sc_core::sc_time pre_ready; ///< earliest precharge (tRAS, read-to-precharge, tWR) (AT)

    /// The bank takes its next access from then on.
    sc_core::sc_time free_at() const { return calendar.busy_until(); }
    bool row_hit(uint64_t r) const { return open && row == r; }
};

} // namespace syncron
