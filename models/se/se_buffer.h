#pragma once
// The SPU's message buffer, sorted by (arrival time, sequence), and the
// 4-phase target side of `in` that fills it. `in` takes both styles in both
// timings (a bench may drive an LT SE with nb_transport): a BEGIN_REQ enters
// the buffer when it takes effect, and while buffer_messages wait, END_REQ is
// withheld until the SPU frees a slot (back-pressure). b_transport arrivals go
// through the chosen SeTransport (SeTransport::deliver).
#include <cstdint>

#include <systemc>
#include <tlm>

#include "models/common/sorted_fifo.h"
#include "models/protocol/message.h"
#include "models/se/se_service.h"
#include "models/tlm/at_target_port.h"

namespace syncron {

class SeBuffer {
public:
    struct Arrival {
        sc_core::sc_time time;
        uint64_t seq;
        Message msg;
        bool operator<(const Arrival& o) const { return time != o.time ? time < o.time : seq < o.seq; }
    };

    /// `owner` names the 4-phase queue; `backward` is in->nb_transport_bw.
    SeBuffer(const sc_core::sc_object& owner, SeService& service, AtTargetPort::Backward backward);

    /// `msg` arriving at `time`, numbered in arrival order (ties keep call order).
    Arrival stamp(const sc_core::sc_time& time, const Message& msg) { return {time, m_seq++, msg}; }
    /// Queues `a` (sorted); the SPU thread looks again after `delay`.
    void insert(const Arrival& a, const sc_core::sc_time& delay);

    bool empty() const { return m_fifo.empty(); }
    std::size_t size() const { return m_fifo.size(); }
    const Arrival& front() const { return m_fifo.front(); }
    void pop_front() { m_fifo.pop_front(); }
    /// Buffered messages arrived by `t`.
    unsigned waiting_at(const sc_core::sc_time& t) const;
    /// Notified on every arrival (the SPU thread waits on it).
    const sc_core::sc_event& arrival_event() const { return m_arrival; }

    /// `in`'s nb_transport_fw forwards here.
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_port.nb_transport_fw(0, t, ph, d);
    }
    /// A slot may have freed: accept the withheld request, if any.
    void release_withheld();

private:
    /// BEGIN_REQ at its effective time.
    void request(tlm::tlm_generic_payload& t);
    void accept(tlm::tlm_generic_payload& t);

    SeService& m_service;
    SortedFifo<Arrival> m_fifo;
    uint64_t m_seq = 0;
    sc_core::sc_event m_arrival;
    AtTargetPort m_port;
    tlm::tlm_generic_payload* m_withheld = nullptr; // request held back while the buffer is full
};

} // namespace syncron
