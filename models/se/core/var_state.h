#pragma once
// The state of one synchronization variable as one SE sees it. The same
// struct is the payload of an ST entry (paper Figure 7) and the decoded form
// of a syncronVar in memory (Figure 9), so each primitive's state machine is
// written once and runs on either.
#include <cstdint>
#include <vector>

#include "models/protocol/opcode.h"
#include "models/se/core/bit_list.h"

namespace syncron {

struct VarState {
    Primitive kind = Primitive::lock;
    /// Own-core waiting list: cores of this SE's unit (flat organization:
    /// every core of the system, indexed by flat index).
    BitList local;
    BitList global; ///< global waiting list (Master SE): SEs waiting as a whole
    /// Master SE in overflow only: per SE, individual waiting cores of an
    /// overflowed SE (syncronVar Waitlist[se] with that SE's OverflowInfo bit set).
    std::vector<BitList> remote;
    BitList overflowed; ///< OverflowInfo: SEs that redirected requests this episode
    /// Acquire-type overflow requests received per SE in this episode; returned
    /// in decrease_indexing_counter so the SE undoes exactly its increments.
    std::vector<uint16_t> overflow_acquires;
    uint64_t info = 0; ///< TableInfo / VarInfo, see the accessors in se_core.cpp
    /// Local SE, barrier: MessageInfo (initial cores) of the waits, so a
    /// request the Master SE aborted can be re-sent per core (abort policy).
    uint64_t request_info = 0;
    /// Local SE: a global request (lock, semaphore) or registration (condvar)
    /// is outstanding at the Master SE.
    bool pending = false;
    /// Local SE, condvar whose lock is homed at another SE than the condvar:
    /// registrations sent and not yet confirmed (cond_registered_global), and
    /// the own cores whose lock release waits for that confirmation.
    uint16_t confirmations_due = 0;
    BitList deferred_release;
    /// Group SE, condvar: confirmations owed to member SEs, sent once its
    /// own registration is confirmed (per SE; empty until needed).
    std::vector<uint16_t> confirmations_owed;
    uint16_t rr_local = 0;  ///< round-robin position in `local`
    uint16_t rr_global = 0; ///< round-robin position over SEs
    /// Lock fairness (paper §6 future work): consecutive grants to this SE's
    /// own cores since the lock last came to, or left, the unit.
    uint32_t local_grants = 0;

    void reset(Primitive k, unsigned cores, unsigned ses) {
        kind = k;
        // resize() then reset(): an entry reused for the same platform keeps
        // its storage (clear() + resize() would refill it every time).
        local.resize(cores);
        local.reset();
        global.resize(ses);
        global.reset();
        remote.clear();
        overflowed.resize(ses);
        overflowed.reset();
        overflow_acquires.clear();
        info = 0;
        request_info = 0;
        pending = false;
        confirmations_due = 0;
        deferred_release.resize(cores);
        deferred_release.reset();
        confirmations_owed.clear();
        rr_local = rr_global = 0;
        local_grants = 0;
    }
};

} // namespace syncron
