#pragma once
// The Master SE's per-primitive state machines (paper §4, Figure 4), on an
// ST entry or on a decoded syncronVar: the same code serves a variable
// wherever the overflow policy keeps it, for the SE, the software servers
// and the ideal hub alike. It answers own cores, other SEs as a whole, and
// individual cores of overflowed SEs (Requester).
#include "models/protocol/message.h"
#include "models/se/core/requester.h"
#include "models/se/core/se_result.h"
#include "models/se/core/sync_table.h"

namespace syncron {

class SeContext;

class MasterSe {
public:
    explicit MasterSe(SeContext& cx) : m_cx(cx) {}

    /// Runs `m` on the variable's state `s`.
    void run(VarState& s, const Message& m, SeResult& r);
    /// Runs `m` on ST entry `e`, freeing the entry once the variable is idle.
    void run_entry(StEntry& e, const Message& m, SeResult& r);
    /// Allocates an ST entry for `m`'s variable (precondition: room) and runs
    /// `m` on it, freeing it again if idle or on error.
    void run_new_entry(const Message& m, SeResult& r);

    /// The ST entry of `m`'s variable (one ST access), or nullptr; `ok` is
    /// false (and `m` rejected) if the entry holds another primitive.
    StEntry* lookup(const Message& m, SeResult& r, bool& ok);

    /// No holder, no waiter, nothing owed: the variable may leave the ST or memory.
    static bool idle(const VarState& s);
    static bool any_waiter(const VarState& s);

    // The waiting lists of own cores, SEs and cores of overflowed SEs; a
    // group SE (GroupSe) keeps its group's the same way.
    /// Wakes every waiter: own cores (`local_op`), SEs as a whole
    /// (`global_op`), cores of overflowed SEs (`overflow_op`); empties the lists.
    void release_all(VarState& s, Opcode local_op, Opcode global_op, Opcode overflow_op, uint64_t addr, SeResult& r,
                     uint64_t info = 0);
    void reply(const Requester& w, Opcode local_op, Opcode global_op, Opcode overflow_op, uint64_t addr, SeResult& r);
    bool pick_next(VarState& s, Requester& out, bool others_first = false) const;
    static bool waiting(const VarState& s, const Requester& w);
    /// The unit of a requester (lock fairness statistics).
    unsigned unit_of(const Requester& w) const;
    static void enqueue(VarState& s, const Requester& w);
    static void dequeue(VarState& s, const Requester& w);

private:
    void lock(VarState& s, const Message& m, const Requester& w, SeResult& r);
    void barrier(VarState& s, const Message& m, const Requester& w, SeResult& r);
    void sem(VarState& s, const Message& m, const Requester& w, SeResult& r);
    void cond(VarState& s, const Message& m, const Requester& w, SeResult& r);

    bool pick_other_se(VarState& s, Requester& out) const;
    /// Another unit (an SE, or a core of an overflowed SE) waits for the variable.
    static bool others_wait(const VarState& s);

    SeContext& m_cx;
};

} // namespace syncron
