#pragma once
// How an NDP core's requests leave it (docs/ndp_core.md): loads, stores,
// atomics and coherence requests as timed transactions, SynCron messages,
// and the wait for a req_sync's reply. NdpCore keeps its function (the
// CoreApi calls, the L1, the mailbox) and talks to one of two buses, chosen
// once before simulation starts:
//  - LtCoreBus: blocking b_transport with temporal decoupling (a quantum keeper);
//  - AtCoreBus: pooled payloads on the 4-phase protocol, no decoupling.
// Both keep the core's local time in the same quantum keeper (in AT it only
// holds compute and L1 time not yet waited off).
#include <cstdint>
#include <optional>

#include <systemc>
#include <tlm>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "models/core/core_pipeline.h"
#include "models/core/core_state.h"
#include "models/core/reply_slot.h"
#include "models/protocol/endpoint.h"
#include "models/protocol/message.h"
#include "models/protocol/tlm/atomic_extension.h"
#include "models/protocol/tlm/coherence_extension.h"
#include "models/protocol/tlm/traffic_class.h"
#include "models/tlm/kernel_time.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

/// One load, store, atomic or coherence request. `atomic` (caller-owned)
/// makes it a remote read-modify-write; `coherence` (caller-owned) a
/// coherence request, after which the caller keeps time once the access it
/// serves is performed.
struct BusAccess {
    tlm::tlm_command cmd;
    uint64_t addr;
    uint8_t* data;
    unsigned len;
    AtomicExtension* atomic = nullptr;
    CoherenceExtension* coherence = nullptr;
};

/// What a context's use of a shared pipeline cost it (CorePipeline).
struct PipelineCharge {
    sc_core::sc_time begin;  ///< the context's time when its use began
    sc_core::sc_time waited; ///< how much later its turn started (switch included)
    bool switched = false;   ///< the pipeline came from another context
};

/// What a bus knows of its core.
struct BusOwner {
    const sc_core::sc_object& core; ///< names the reports
    Endpoint self;                  ///< the core's endpoint (message sources, traces)
    sc_core::sc_time cycle;
    CoreState& state;   ///< the core's activity, shown as computing while it waits off compute time
    ReplySlot& replies; ///< the core's one outstanding req_sync
};

class CoreBus {
public:
    CoreBus(tlm::tlm_initiator_socket<>& socket, const BusOwner& owner) : m_socket(socket), m_owner(owner) {}
    virtual ~CoreBus() = default;
    CoreBus(const CoreBus&) = delete;
    CoreBus& operator=(const CoreBus&) = delete;

    /// The core's own time: sc_time_stamp() plus what it has run ahead.
    sc_core::sc_time local_time() const { return kernel_time() + m_qk.get_local_time(); }
    void advance(const sc_core::sc_time& t) { m_qk.inc(t); }
    /// From the global quantum (it may be set after construction).
    void start() { m_qk.reset(); }
    /// Waits for `e` in simulated time without first reaching the core's own
    /// time: the core goes on from the later of its own time and the event's.
    void wait_keeping_time(sc_core::sc_event& e) {
        const sc_core::sc_time mine = local_time();
        sc_core::wait(e);
        const sc_core::sc_time now = kernel_time();
        m_qk.set(mine > now ? mine - now : sc_core::SC_ZERO_TIME);
    }

    /// The core may yield here (LT: when its quantum is used up).
    virtual void keep_time() {}
    /// Before a synchronization operation (a Table 2 call, an atomic, a
    /// message): LT with a memory quantum syncs here once past the global
    /// quantum, so synchronization stays within it of timestamp order.
    virtual void sync_point() {}
    /// Before looking at state other agents change (AT: reach the core's own time).
    virtual void align() {}
    /// Reaches the core's own time in simulated time (end of the program, a server's receive).
    virtual void settle() = 0;
    /// One timed transaction; reports error responses.
    virtual void timed(const BusAccess& a) = 0;
    /// A SynCron message to `dest` (wire form in `wire`); a req_sync (`sync`)
    /// waits for await_reply(). False (after reporting) when it was rejected.
    virtual bool send(uint64_t dest, const Message& m, uint8_t* wire, bool sync) = 0;
    /// Waits for the expected reply; nothing when the request failed.
    virtual std::optional<Message> await_reply(const sc_core::sc_time& issued) = 0;
    /// A rejected req_sync: no reply will come.
    virtual void abandon_sync() { m_owner.replies.abandon(); }
    /// Context `ctx` takes the core's shared pipeline for a compute run or a
    /// memory access (`work`) or a message's issue (ndp_core.md,
    /// "Multi-threaded cores"). AT holds it until release_pipeline(); LT
    /// books an issue's cycle at once and work, whose length it knows only
    /// then, at its release.
    virtual PipelineCharge take_pipeline(CorePipeline& pipeline, unsigned ctx, bool work) = 0;
    virtual PipelineCharge release_pipeline(CorePipeline& pipeline, unsigned ctx, bool work,
                                            const sc_core::sc_time& begin) = 0;
    /// The socket's backward path (AT only).
    virtual tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay);

    /// The reply if it is already in: the core's time moves to its arrival
    /// (or stays, if later) without synchronizing.
    std::optional<Message> reply_if_arrived(const sc_core::sc_time& issued);
    /// Untimed access (debug transport); reports short transfers.
    void debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len);
    /// Server cores tag their memory accesses as synchronization traffic.
    void set_sync_tag(SyncTrafficExtension* tag) { m_sync_tag = tag; }
    void set_trace(TraceSink* sink) { m_trace = sink; }

protected:
    void report_access_error(const BusAccess& a, const tlm::tlm_generic_payload& t) const;
    void report_send_error(const Message& m, const tlm::tlm_generic_payload& t) const;
    /// A memory transaction for the trace sink (when one is attached).
    void trace_access(const BusAccess& a, const sc_core::sc_time& begin, const sc_core::sc_time& end_req,
                      const sc_core::sc_time& begin_resp, const sc_core::sc_time& end, bool at) const;

    tlm::tlm_initiator_socket<>& m_socket;
    BusOwner m_owner;
    tlm_utils::tlm_quantumkeeper m_qk;
    SyncTrafficExtension* m_sync_tag = nullptr;
    TraceSink* m_trace = nullptr;

private:
    tlm::tlm_generic_payload m_dbg_trans; ///< debug accesses, apart from any timed one in progress
};

} // namespace syncron
