#pragma once
// The initiator side of the 4-phase base protocol (docs/timing.md, "AT
// engine"), for one socket or every index of a multi-socket. The model calls
// send() for one request at a time per socket and registers its
// nb_transport_bw to forward here; the port handles what comes back:
//   - END_REQ, or BEGIN_RESP without END_REQ, ends the request phase:
//     end_request(index, trans), after which send() may go again on `index`;
//   - BEGIN_RESP (on the backward path, returned as TLM_UPDATED, or implied
//     by TLM_COMPLETED): the port ends the response phase (TLM_COMPLETED on
//     the backward path; END_RESP on the forward path when the response came
//     on the return path), then response(index, trans).
// Each phase takes effect at sc_time_stamp() + delay, through the payload
// event queue when the delay is not zero, or always with Options::defer (one
// delta later at zero delay). The model owns the payload's reference.
#include <cstddef>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include "models/tlm/in_flight_table.h"

namespace syncron {

class AtInitiatorPort {
public:
    using Payload = tlm::tlm_generic_payload;
    /// Calls nb_transport_fw on socket `index` (e.g. out[index]->nb_transport_fw).
    using Forward = std::function<tlm::tlm_sync_enum(unsigned index, Payload&, tlm::tlm_phase&, sc_core::sc_time&)>;
    using Handler = std::function<void(unsigned index, Payload&)>;

    struct Callbacks {
        Handler end_request; ///< the request phase of `trans` has ended
        Handler response;    ///< BEGIN_RESP took effect (its phase already ended)
    };
    struct Options {
        bool defer = false; ///< zero-delay phases also go through the queue
    };

    /// `owner` names the reports; construct during elaboration (the queue is an sc_object).
    AtInitiatorPort(const sc_core::sc_object& owner, const char* peq_name, Forward forward, Callbacks callbacks,
                    Options options);
    AtInitiatorPort(const AtInitiatorPort&) = delete;
    AtInitiatorPort& operator=(const AtInitiatorPort&) = delete;

    /// BEGIN_REQ for `trans` on socket `index` now (request exclusion: the
    /// previous request of `index` must have ended).
    void send(unsigned index, Payload& trans);
    /// The model's nb_transport_bw for socket `index` forwards here.
    tlm::tlm_sync_enum nb_transport_bw(unsigned index, Payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);

    /// A request of `index` is in its request phase.
    bool request_open(unsigned index) const { return index < m_open.size() && m_open[index] != nullptr; }
    /// Transactions sent whose BEGIN_RESP has not taken effect yet.
    std::size_t in_flight() const { return m_index.size(); }

private:
    /// A phase arrived for `trans` (returned or on the backward path).
    void arrived(Payload& trans, const tlm::tlm_phase& phase, const sc_core::sc_time& delay);
    void peq_cb(Payload& trans, const tlm::tlm_phase& phase);
    void take_effect(Payload& trans, const tlm::tlm_phase& phase);
    void error(const std::string& what) const;

    const sc_core::sc_object& m_owner;
    Forward m_forward;
    Callbacks m_cb;
    Options m_opt;
    std::vector<Payload*> m_open;                      ///< per socket: the request in its phase
    InFlightTable<Payload> m_index;                    ///< in flight -> socket index
    std::unordered_set<const Payload*> m_end_resp_due; ///< BEGIN_RESP returned: END_RESP owed
    tlm_utils::peq_with_cb_and_phase<AtInitiatorPort> m_peq;
};

} // namespace syncron
