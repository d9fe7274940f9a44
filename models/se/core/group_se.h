#pragma once
// A group SE's side of a variable (three-level hierarchy, a model extension;
// docs/protocol.md "Three levels"). For a variable homed in another group,
// the SE at the home's position in each group stands between the group's
// SEs and the Master SE: a local SE whose waiters are its own cores and its
// group's SEs as a whole. It aggregates their requests into one global
// request per variable, hands the Master SE's grants out in the group, and
// counts a barrier's arrivals of the whole group into one message. What its
// ST cannot buffer it passes on to the Master SE unchanged.
#include "models/protocol/message.h"
#include "models/se/core/master_se.h"
#include "models/se/core/requester.h"
#include "models/se/core/se_result.h"
#include "models/se/core/sync_table.h"

namespace syncron {

class SeContext;

class GroupSe {
public:
    explicit GroupSe(SeContext& cx) : m_cx(cx), m_lists(cx) {}

    /// Serves `m` (validated) for a variable this SE is the group SE of.
    void handle(const Message& m, SeResult& r);

private:
    /// A member SE's request (not a reply from the Master SE, not an own core's).
    bool from_member(const Message& m) const;
    /// Whether entry state `s` knows the member's release-type request `m`
    /// (else it belongs to a request that was passed on, and is passed on too).
    static bool knows(const VarState& s, const Message& m, const Requester& w, unsigned unit);
    void pass_up(const Message& m, SeResult& r, bool acquire);
    void pass_down(const Message& m, SeResult& r);
    void dispatch(StEntry& e, const Message& m, SeResult& r);
    void lock(StEntry& e, const Message& m, const Requester& w, SeResult& r);
    void barrier(StEntry& e, const Message& m, const Requester& w, SeResult& r);
    void sem(StEntry& e, const Message& m, const Requester& w, SeResult& r);
    void cond(StEntry& e, const Message& m, const Requester& w, SeResult& r);
    /// The group departs: own cores, member SEs, absorbed cores of members;
    /// the members' counters raised for those cores are lowered.
    void depart(StEntry& e, const Message& m, SeResult& r);
    void grant_one(VarState& s, Opcode local_op, Opcode global_op, uint64_t addr, SeResult& r);
    bool two_level(const Message& m) const;

    SeContext& m_cx;
    MasterSe m_lists; // the waiting lists, kept as the Master SE keeps its own
};

} // namespace syncron
