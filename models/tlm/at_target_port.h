#pragma once
// The target side of the 4-phase base protocol (docs/timing.md, "AT engine"),
// for one socket or every index of a multi-socket. The model registers its
// nb_transport_fw to forward here and keeps only its function:
//   - request(index, trans): BEGIN_REQ has taken effect (at sc_time_stamp()
//     + delay, through the payload event queue when the delay is not zero).
//     The model accepts now or later with accept() (END_REQ; withholding it
//     is back-pressure) and answers with respond() whenever the response is
//     ready;
//   - the port enforces request exclusion, holds the payload (acquire) from
//     BEGIN_REQ until its response has completed, queues responses and sends
//     BEGIN_RESP one at a time (response exclusion), and ends the response
//     phase on END_RESP, TLM_COMPLETED or TLM_UPDATED/END_RESP, at once or at
//     its annotated time.
// A zero-delay BEGIN_REQ is handed to the model inside the forward call, so an
// accept() there returns TLM_UPDATED/END_REQ; Options::defer sends zero-delay
// phases through the queue too (they take effect one delta later), and
// Options::accept_at_once returns END_REQ on every BEGIN_REQ (a target that
// never applies back-pressure; accept() is then not needed).
#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include "models/tlm/in_flight_table.h"

namespace syncron {

class AtTargetPort {
public:
    using Payload = tlm::tlm_generic_payload;
    /// Calls nb_transport_bw on socket `index` (e.g. in[index]->nb_transport_bw).
    using Backward = std::function<tlm::tlm_sync_enum(unsigned index, Payload&, tlm::tlm_phase&, sc_core::sc_time&)>;
    using Handler = std::function<void(unsigned index, Payload&)>;

    struct Callbacks {
        Handler request;          ///< BEGIN_REQ took effect (required)
        Handler response_started; ///< optional: BEGIN_RESP is about to be sent
    };
    struct Options {
        bool defer = false;          ///< zero-delay BEGIN_REQ / END_RESP also go through the queue
        bool accept_at_once = false; ///< END_REQ returned on every BEGIN_REQ
    };

    /// `owner` names the reports; construct during elaboration (the queue is an sc_object).
    AtTargetPort(const sc_core::sc_object& owner, const char* peq_name, Backward backward, Callbacks callbacks,
                 Options options);
    AtTargetPort(const AtTargetPort&) = delete;
    AtTargetPort& operator=(const AtTargetPort&) = delete;

    /// The model's nb_transport_fw for socket `index` forwards here.
    tlm::tlm_sync_enum nb_transport_fw(unsigned index, Payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    /// END_REQ for the request of `index` (now, or on the return path when
    /// called from request() inside a zero-delay forward call).
    void accept(unsigned index, Payload& trans);
    /// The response of `trans` is ready: BEGIN_RESP now, or once the previous
    /// response on `index` has completed. Call it after accept().
    void respond(unsigned index, Payload& trans);

    /// A BEGIN_REQ of `index` is waiting for its END_REQ.
    bool request_open(unsigned index) const;
    /// The socket index `trans` came in on (it must be in flight).
    unsigned index_of(const Payload& trans) const { return m_index.at(&trans); }
    /// Transactions from BEGIN_REQ until their response has completed.
    std::size_t in_flight() const { return m_index.size(); }

private:
    struct Socket {
        Payload* request = nullptr;     ///< BEGIN_REQ taken, END_REQ not yet sent
        bool in_call = false;           ///< inside a zero-delay nb_transport_fw
        bool accepted_in_call = false;  ///< accept() came inside that call
        std::deque<Payload*> responses; ///< ready, waiting for response exclusion
        Payload* responding = nullptr;  ///< BEGIN_RESP sent, not yet completed
    };

    /// Socket `index`, created on first use (a multi-socket's size is known only after binding).
    Socket& socket(unsigned index) { return index < m_sockets.size() ? m_sockets[index] : grow(index); }
    Socket& grow(unsigned index);
    void peq_cb(Payload& trans, const tlm::tlm_phase& phase);
    /// Sends the queued responses of `index` in order, then `ready` (if any), while the socket is free.
    void send_responses(unsigned index, Payload* ready = nullptr);
    void response_completed(unsigned index, Payload& trans);
    void error(const std::string& what) const;

    const sc_core::sc_object& m_owner;
    Backward m_backward;
    Callbacks m_cb;
    Options m_opt;
    std::vector<Socket> m_sockets;
    InFlightTable<Payload> m_index; ///< in flight -> socket index
    tlm_utils::peq_with_cb_and_phase<AtTargetPort> m_peq;
};

} // namespace syncron
