#pragma once
// The SynCron front end as an sc_module: a memory-mapped target on plain
// TLM-2.0 (docs/integration.md). Harts issue ordinary loads and stores to
// their register windows through the platform's bus; the function
// (MmioFrontEndCore) decodes them and this shell adds time:
//   LT (b_transport): registers and req_async stores complete at once with
//     access_ns added to the delay; a req_sync load blocks inside
//     b_transport until the SE's grant and returns with the delay annotated
//     up to the grant's time, never before the hart's own local time (with
//     FabricParams::monotonic_delay, never below the delay passed in).
//   AT (4-phase nb_transport, on the project's AT engine): END_REQ at once,
//     BEGIN_RESP access_ns later, or, for a req_sync load, at the grant.
//   Debug transport reads registers without side effects or time.
// Requests leave on `to_se` (to the unit's SE, with a SyncronExtension and
// the wire form); the SE's grants come back on `replies`.
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/frontend/mmio_frontend_core.h"
#include "models/protocol/wire_format.h"
#include "models/tlm/at_target_port.h"

namespace syncron {

class MmioFrontEndBase : public sc_core::sc_module {
public:
    /// Requests to the unit's SE (the fabric binds it to the unit's crossbar).
    tlm_utils::simple_initiator_socket<MmioFrontEndBase> to_se;
    /// The SE's replies (the fabric binds the SE's to_cores here).
    tlm_utils::simple_target_socket<MmioFrontEndBase> replies;

    struct Stats {
        uint64_t accesses = 0; ///< loads and stores from the bus
        uint64_t requests = 0; ///< SynCron requests sent to the SE
        uint64_t grants = 0;   ///< replies delivered to a waiting hart
        uint64_t errors = 0;   ///< accesses answered with an error response
    };

    /// A hart whose blocking command load has not completed.
    struct Waiting {
        unsigned hart = 0;      ///< global hart ID
        Message request;        ///< its req_sync request: variable and opcode
        sc_core::sc_time since; ///< the hart's local time when it issued it
    };

    SC_HAS_PROCESS(MmioFrontEndBase);
    MmioFrontEndBase(sc_core::sc_module_name name, unsigned unit, const FabricParams& params, const AddressMap& map,
                     std::shared_ptr<KindTable> kinds);

    const MmioFrontEndCore& function() const { return m_core; }
    const Stats& stats() const { return m_stats; }
    std::vector<Waiting> waiting() const;
    unsigned unit() const { return m_core.unit(); }
    /// The lock fairness threshold behind SYNCRON_MMIO_FAIRNESS, shared with the SEs by the fabric.
    void share_lock_fairness(std::shared_ptr<unsigned> threshold) { m_core.share_lock_fairness(std::move(threshold)); }

protected:
    // The hart-facing socket of the derived class forwards here.
    void bus_b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    tlm::tlm_sync_enum bus_nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_bus_port.nb_transport_fw(0, t, ph, d);
    }
    unsigned bus_transport_dbg(tlm::tlm_generic_payload& t);
    virtual tlm::tlm_sync_enum bus_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) = 0;

private:
    struct Waiter {
        sc_core::sc_event granted_event;
        bool granted = false;
        sc_core::sc_time at;                         ///< when the grant arrived
        sc_core::sc_time since;                      ///< when the request was issued
        tlm::tlm_generic_payload* at_load = nullptr; ///< AT: the load awaiting the grant
    };

    MmioFrontEndCore::Outcome decode(tlm::tlm_generic_payload& t);
    void finish(tlm::tlm_generic_payload& t, uint32_t status);
    /// The data of a granted load: `value`, little-endian (0 = STATUS OK).
    void fill_load(tlm::tlm_generic_payload& t, uint64_t value);
    /// To the unit's SE; returns how long its full input held the message back (LT).
    sc_core::sc_time send(const Message& m, const sc_core::sc_time& delay);
    void at_request(tlm::tlm_generic_payload& t);
    void responder();
    void on_reply(tlm::tlm_generic_payload& t, const sc_core::sc_time& delay);
    void reply_b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    tlm::tlm_sync_enum reply_nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return m_reply_port.nb_transport_fw(0, t, ph, d);
    }

    MmioFrontEndCore m_core;
    AddressMap m_map;
    WireLayout m_layout;
    bool m_wire_ok;
    sc_core::sc_time m_access;
    bool m_monotonic_delay; // FabricParams::monotonic_delay
    bool m_error_responses; // FabricParams::error_responses
    std::vector<Waiter> m_waiters;
    tlm::tlm_generic_payload m_msg_trans;                         // reused for every request to the SE
    AtTargetPort m_bus_port;                                      // 4-phase target side of the hart-facing socket
    AtTargetPort m_reply_port;                                    // 4-phase target side of `replies`
    tlm_utils::peq_with_get<tlm::tlm_generic_payload> m_resp_peq; // AT responses at their time
    Stats m_stats;
};

/// The front end with a hart-facing target socket of BUSWIDTH bits (32 or 64).
template <unsigned BUSWIDTH = 64> class MmioFrontEnd : public MmioFrontEndBase {
public:
    tlm_utils::simple_target_socket<MmioFrontEnd<BUSWIDTH>, BUSWIDTH> socket;

    MmioFrontEnd(sc_core::sc_module_name name, unsigned unit, const FabricParams& params, const AddressMap& map,
                 std::shared_ptr<KindTable> kinds = {})
        : MmioFrontEndBase(name, unit, params, map, std::move(kinds)), socket("socket") {
        validate(params, BUSWIDTH);
        socket.register_b_transport(this, &MmioFrontEnd::b_transport);
        socket.register_nb_transport_fw(this, &MmioFrontEnd::nb_transport_fw);
        socket.register_transport_dbg(this, &MmioFrontEnd::transport_dbg);
    }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) { bus_b_transport(t, d); }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
        return bus_nb_transport_fw(t, ph, d);
    }
    unsigned transport_dbg(tlm::tlm_generic_payload& t) { return bus_transport_dbg(t); }
    tlm::tlm_sync_enum bus_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
        return socket->nb_transport_bw(t, ph, d);
    }
};

} // namespace syncron
