#pragma once
// Probes designed into the models: every model that can be traced holds a
// `TraceSink*` (nullptr = tracing off, one branch per event) and reports
// what happened with absolute simulated times. Recorders (traces/) implement
// the sink; TraceFanout feeds several of them.
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "models/protocol/endpoint.h"
#include "models/protocol/message.h"
#include "models/protocol/var_snapshot.h"

namespace syncron {

/// One SynCron message delivered: sent by `src` at `sent`, received by `dst`
/// (its SPU buffer or mailbox) at `arrived`.
struct MessageRecord {
    Endpoint src, dst;
    Message msg;
    sc_core::sc_time sent, arrived;
};

/// One message served by an SE's SPU, with the SE's state after it.
struct ServiceRecord {
    unsigned se = 0;
    Message msg;
    sc_core::sc_time arrival, start, end;
    unsigned st_occupancy = 0;
    unsigned buffer_waiting = 0; ///< messages waiting when it started (incl. itself)
    unsigned counters_in_use = 0;
    bool overflow = false;         ///< served through the overflow path
    std::vector<VarSnapshot> vars; ///< traced variables this message touched
};

/// What a core is doing (paper's in-order core: one thing at a time).
enum class CoreActivity : uint8_t { computing, memory, waiting_sync, done };

struct CoreStateRecord {
    unsigned unit = 0, core = 0, global_id = 0;
    CoreActivity activity = CoreActivity::computing;
    const char* operation = ""; ///< static string: "compute", "load", "store", "lock_acquire", ...
    uint64_t addr = 0;          ///< variable or data address of the operation (0 for compute)
    sc_core::sc_time at;
};

/// One memory transaction issued by a core or an SE (syncronVar access).
/// In LT begin_resp == end and end_req == begin.
struct MemoryRecord {
    Endpoint initiator;
    uint64_t addr = 0;
    unsigned size = 0;
    bool write = false;
    bool at = false;
    sc_core::sc_time begin, end_req, begin_resp, end;
};

/// One transfer over an inter-cube link direction (serialization interval
/// on the wire and delivery at the far end).
struct LinkRecord {
    unsigned src = 0, dst = 0;
    unsigned bytes = 0;
    bool response = false;       ///< READ data on its way back
    sc_core::sc_time start, end; ///< on the wire
    sc_core::sc_time delivered;
};

/// Occupancy of an AT queue changed (vault request queue, crossbar output,
/// link direction); `component` is the module's name.
struct QueueRecord {
    const char* component = "";
    unsigned depth = 0;
    sc_core::sc_time at;
};

class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual void on_message(const MessageRecord&) {}
    virtual void on_service(const ServiceRecord&) {}
    virtual void on_core_state(const CoreStateRecord&) {}
    virtual void on_memory(const MemoryRecord&) {}
    virtual void on_link(const LinkRecord&) {}
    virtual void on_queue(const QueueRecord&) {}
};

/// Forwards every record to each attached sink.
class TraceFanout : public TraceSink {
public:
    void add(TraceSink* s) { m_sinks.push_back(s); }
    bool empty() const { return m_sinks.empty(); }
    void on_message(const MessageRecord& r) override {
        for (auto* s : m_sinks) s->on_message(r);
    }
    void on_service(const ServiceRecord& r) override {
        for (auto* s : m_sinks) s->on_service(r);
    }
    void on_core_state(const CoreStateRecord& r) override {
        for (auto* s : m_sinks) s->on_core_state(r);
    }
    void on_memory(const MemoryRecord& r) override {
        for (auto* s : m_sinks) s->on_memory(r);
    }
    void on_link(const LinkRecord& r) override {
        for (auto* s : m_sinks) s->on_link(r);
    }
    void on_queue(const QueueRecord& r) override {
        for (auto* s : m_sinks) s->on_queue(r);
    }

private:
    std::vector<TraceSink*> m_sinks;
};

} // namespace syncron
