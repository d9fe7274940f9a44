#pragma once
// The pipeline the hardware contexts of a multi-threaded core share
// (docs/ndp_core.md, "Multi-threaded cores"). Every context is an NdpCore of
// its own (its own mailbox, share of the L1 and bit in the SEs' waiting
// lists); this object orders their work. A compute run, a memory access or a
// message's issue holds the pipeline; a context waiting on a req_sync's reply
// does not, so another context runs meanwhile. When the pipeline passes from
// one context to another, the new one first pays the switch time.
//
// AT: a context holds the pipeline from take() to release(). A context that
// finds it held (the holder waits inside its operation, as every memory
// access does) queues and is handed the pipeline at the holder's release
// time, first come first served.
//
// LT: the contexts run ahead of the kernel within their quantum, each in
// its own time, so they reach the pipeline out of time order. book() keeps
// its busy intervals on a calendar (ResourceTimeline) and puts each
// operation in the earliest gap where it fits: a context's compute fills
// the time its sibling, booked earlier, spends waiting for a grant. A
// switch is charged when the booking before it (in simulation order) was
// another context's.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <systemc>

#include "models/tlm/resource_timeline.h"

namespace syncron {

class CorePipeline {
public:
    /// A context's turn: when it starts, and whether the pipeline came to it
    /// from another context (the start then includes the switch time).
    struct Turn {
        sc_core::sc_time start;
        bool switched = false;
    };

    CorePipeline(unsigned contexts, const sc_core::sc_time& switch_time);

    /// Context `ctx` wants the pipeline from its time `at`. Free: it holds
    /// it now and starts at the returned time (>= at: after the last
    /// holder's release, plus the switch time when that was another
    /// context). Held: `ctx` is queued, nothing is returned, and the caller
    /// waits on handed(ctx); its turn is then handed_turn(ctx).
    std::optional<Turn> take(unsigned ctx, const sc_core::sc_time& at);
    /// The holder is done at its time `at`: the first queued context gets
    /// the pipeline at that time (its event fires then), or it stays free.
    void release(unsigned ctx, const sc_core::sc_time& at);
    sc_core::sc_event& handed(unsigned ctx) { return *m_handed.at(ctx); }
    /// LT: `ctx` used the pipeline for `occupancy` from its time `at`; the
    /// turn it gets is the earliest gap from `at` on where the work (and a
    /// switch, when due) fits.
    Turn book(unsigned ctx, const sc_core::sc_time& at, const sc_core::sc_time& occupancy);
    /// The turn of a context that was handed the pipeline.
    const Turn& handed_turn(unsigned ctx) const { return m_turn.at(ctx); }

    unsigned contexts() const { return static_cast<unsigned>(m_handed.size()); }
    /// Passes from one context to another, each paying the switch time.
    uint64_t switches() const { return m_switches; }

private:
    static constexpr unsigned kNobody = ~0u;
    /// `ctx` holds the pipeline from `free` on: its turn.
    Turn turn_of(unsigned ctx, const sc_core::sc_time& free);

    sc_core::sc_time m_switch;
    unsigned m_holder = kNobody;
    unsigned m_last = kNobody; ///< the context that held it last
    sc_core::sc_time m_free_at;
    std::deque<unsigned> m_queue;
    std::vector<std::unique_ptr<sc_core::sc_event>> m_handed;
    std::vector<Turn> m_turn;
    uint64_t m_switches = 0;
    ResourceTimeline m_calendar; ///< LT bookings
};

} // namespace syncron
