#pragma once
// One unit's MESI directory as a TLM-2.0 module (docs/coherence.md): the
// Directory function (models/coherence/core) with thin LT and AT shells.
// `in` takes the L1s' requests from the unit's crossbar (the directory's MMIO
// port, AddressMap::directory_address); `out` goes back into the crossbar,
// for probes to the L1s (their core mailboxes, over the links for other
// units' cores) and for reads and write-backs of the line at its vault.
//
// Loosely-timed: a request is served inside its b_transport: the lookup,
// then every probe at once (the directory sends them in parallel; the
// request waits for the latest answer), then the memory read if no owner
// supplied the line. Nothing waits, so a transaction is atomic in host order.
// Approximately-timed: AtTargetPort on `in` (accepted at once; the blocking
// directory queues requests per line), AtInitiatorPort on `out`; a
// transaction moves on as its probes' responses come in. A line is busy only
// until its probes have answered: a memory read for the grant is then in
// flight while the next request for the line is served (the L1 handles a
// probe that overtakes its grant, docs/coherence.md).
// Write-backs leave the critical path in both styles.
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/coherence/core/directory.h"
#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/protocol/tlm/coherence_extension.h"
#include "models/tlm/at_initiator_port.h"
#include "models/tlm/at_target_port.h"
#include "models/tlm/payload_pool.h"

namespace syncron {

class DirectoryModule : public sc_core::sc_module, public StatProvider {
public:
    tlm_utils::simple_target_socket<DirectoryModule> in;
    tlm_utils::simple_initiator_socket<DirectoryModule> out;

    /// Coherence traffic the directory took part in, by where it travelled.
    struct Traffic {
        uint64_t messages[kCoherenceMsgCount] = {}; ///< requests received and probes sent
        uint64_t bytes_within_unit = 0;             ///< requests, probes and their responses inside the unit
        uint64_t bytes_across_links = 0;            ///< ... to and from other units' cores
    };

    SC_HAS_PROCESS(DirectoryModule);
    /// The directory tracks every L1 of the system (units x cores per unit;
    /// an L1's index is unit x cores_per_unit + local ID). `map` must outlive
    /// the module.
    DirectoryModule(const sc_core::sc_module_name& name, unsigned unit, const CoherenceParams& params,
                    const CoreParams& core, const AddressMap& map);

    /// Timing::lt (default) or Timing::at; before sc_start.
    void set_timing(Timing timing) { m_timing = timing; }
    unsigned unit() const { return m_unit; }
    const Directory& directory() const { return m_dir; }
    const Traffic& traffic() const { return m_traffic; }
    sc_core::sc_time lookup_latency() const { return m_lookup; }
    /// AT payloads in flight (0 once everything has drained).
    size_t in_flight() const { return m_pool.in_use(); }

    /// This module's group of statistics (docs/stats.md, "coherence").
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;

private:
    /// What an outgoing AT payload is for.
    struct Outgoing {
        enum class Kind { probe, read, write } kind = Kind::probe;
        uint64_t line = 0;
        unsigned cache = 0;
        CoherenceExtension ext;
        /// A read: the request it fetches the line for, and its outcome.
        tlm::tlm_generic_payload* request = nullptr;
        Directory::Outcome outcome;
    };

    unsigned cache_of(const CoherenceExtension& e) const { return e.unit * m_map.cores_per_unit() + e.core; }
    unsigned unit_of_cache(unsigned cache) const { return cache / m_map.cores_per_unit(); }
    /// Checks that `t` is a coherence request this directory serves;
    /// sets the error response and returns nullptr otherwise.
    CoherenceExtension* validate(tlm::tlm_generic_payload& t);
    /// Counts a message and its response of `request_bytes` / `response_bytes`
    /// exchanged with an L1 of `peer_unit`.
    void count(CoherenceMsg msg, unsigned peer_unit, unsigned request_bytes, unsigned response_bytes);
    /// Counts a probe sent to `cache` and its answer.
    void count_probe(CoherenceMsg msg, unsigned cache, bool present);
    /// Sets up a probe payload for `cache` (LT: on m_probe / AT: pooled).
    void setup_probe(tlm::tlm_generic_payload& t, CoherenceExtension& ext, const Directory::Probe& p, uint64_t line,
                     bool sync);
    /// Fills a request's response: result fields, the line's data for a READ.
    void answer(tlm::tlm_generic_payload& t, CoherenceExtension& ext, const Directory::Outcome& o);
    void read_line(uint64_t line, uint8_t* buf);

    // LT shell.
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    /// A timed access of the line at its vault through `out` (LT).
    void memory_lt(tlm::tlm_command cmd, uint64_t line, bool sync, sc_core::sc_time& delay);

    // AT shell.
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_core::sc_time& d) {
        return m_in_port.nb_transport_fw(0, t, p, d);
    }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& p, sc_core::sc_time& d) {
        return m_out_port.nb_transport_bw(0, t, p, d);
    }
    void at_request(tlm::tlm_generic_payload& t);
    void lookup_done(); ///< SC_METHOD on m_lookup_peq
    void at_start(tlm::tlm_generic_payload& t);
    void at_after_probes(uint64_t line);
    void at_complete(uint64_t line);
    /// Answers a request whose transaction has ended (AT).
    void at_respond(tlm::tlm_generic_payload& t, const Directory::Outcome& o);
    void at_send(tlm::tlm_generic_payload& t);
    void at_pump();
    void at_response(tlm::tlm_generic_payload& t);
    tlm::tlm_generic_payload& at_memory(Outgoing::Kind kind, uint64_t line, bool sync);
    Outgoing& outgoing(tlm::tlm_generic_payload& t);

    unsigned m_unit;
    CoherenceParams m_params;
    const AddressMap& m_map;
    unsigned m_line_bytes;
    sc_core::sc_time m_lookup;
    Timing m_timing = Timing::lt;
    Directory m_dir;
    Traffic m_traffic;

    // LT: payloads reused by every probe and memory access (nothing nests).
    tlm::tlm_generic_payload m_lt_trans;
    std::vector<uint8_t> m_buf;

    // AT.
    AtTargetPort m_in_port;
    AtInitiatorPort m_out_port;
    tlm_utils::peq_with_get<tlm::tlm_generic_payload> m_lookup_peq;
    PayloadPool m_pool;
    std::unordered_map<const tlm::tlm_generic_payload*, std::unique_ptr<Outgoing>> m_outgoing;
    std::vector<std::unique_ptr<Outgoing>> m_free_outgoing;
    std::deque<tlm::tlm_generic_payload*> m_send_queue;
};

} // namespace syncron
