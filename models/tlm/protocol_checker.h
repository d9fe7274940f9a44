#pragma once
// TLM-2.0 base-protocol checker (docs/protocol_checker.md): a pass-through
// module inserted on one binding,
//     initiator.socket -> checker.target,   checker.initiator -> target.socket,
// that forwards every interface method unchanged (b_transport, nb_transport_fw/
// bw, transport_dbg, get_direct_mem_ptr, invalidate_direct_mem_ptr) and checks
// the base-protocol rules on the way. Each violation is counted and reported
// with SC_REPORT_ERROR("/syncron/check/<rule>", "<name>: <rule>: <what>").
//
// Written from the rules of IEEE 1666-2011 §14-15 (see the doc page for the
// list); it neither acquires nor releases payloads, so it does not disturb
// reference counts. On the success path it does a hash-map lookup and a few
// field comparisons per phase and builds no strings.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/stat_provider.h"

namespace syncron {

class ProtocolChecker : public sc_core::sc_module, public StatProvider {
public:
    /// The rules; each is reported under the message type "/syncron/check/<name>".
    enum class Rule : uint8_t {
        phase_sequence,
        request_exclusion,
        response_exclusion,
        timing,
        blocking_nonblocking_mix,
        memory_manager,
        payload_modified,
        response_status,
        debug_payload,
    };
    static constexpr size_t kNumRules = 9;
    /// How many violation messages are kept (the counters keep counting).
    static constexpr size_t kMaxMessages = 32;

    tlm_utils::simple_target_socket<ProtocolChecker> target;       ///< bind the initiator here
    tlm_utils::simple_initiator_socket<ProtocolChecker> initiator; ///< bind to the original target

    explicit ProtocolChecker(const sc_core::sc_module_name& name);

    /// "phase_sequence", ... (the <rule> part of the message and message type).
    static const char* rule_name(Rule rule);
    /// "/syncron/check/phase_sequence", ...
    static const char* msg_type(Rule rule);
    /// Sets the actions of `severity` reports of every rule's message type.
    /// (sc_report_handler matches message types exactly: set_actions on the
    /// prefix "/syncron/check" alone does not reach "/syncron/check/<rule>".)
    static void set_actions(sc_core::sc_severity severity, sc_core::sc_actions actions);

    // Results.
    uint64_t violations() const;
    uint64_t violations(Rule rule) const { return m_counts[static_cast<size_t>(rule)]; }
    /// By rule name; throws std::invalid_argument for an unknown name.
    uint64_t violations(std::string_view rule) const;
    /// This module's group of statistics (docs/stats.md); in protocol_checker_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    /// The first kMaxMessages violation messages, in order.
    const std::vector<std::string>& messages() const { return m_messages; }

    // Traffic seen (for tests and statistics).
    uint64_t nb_transactions() const { return m_nb_begun; } ///< BEGIN_REQs seen
    uint64_t b_transports() const { return m_b_calls; }
    uint64_t debug_transports() const { return m_dbg_calls; }
    uint64_t dmi_requests() const { return m_dmi_calls; }
    /// Transactions currently tracked (nb in flight plus b_transport calls in progress).
    size_t in_flight() const { return m_txns.size() + m_blocking.size(); }

private:
    /// Where an nb transaction stands (`idle`: not counted in either phase).
    enum class Stage : uint8_t { idle, request, end_request, response };

    /// The attributes nobody may change while the transaction is in flight.
    struct Snapshot {
        uint64_t address = 0;
        unsigned char* data = nullptr;
        unsigned char* byte_enable = nullptr;
        uint64_t write_hash = 0; ///< data contents, for writes only
        unsigned length = 0;
        unsigned byte_enable_length = 0;
        unsigned streaming_width = 0;
        tlm::tlm_command command = tlm::TLM_IGNORE_COMMAND;
    };

    struct Txn {
        Snapshot snap;
        sc_core::sc_time last; ///< effective time of the latest phase
        Stage stage = Stage::idle;
        bool has_mm = false;
        bool mm_reported = false;
    };
    using Map = std::unordered_map<const tlm::tlm_generic_payload*, Txn>;

    // Interface methods (forwarding plus checks).
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

    // Phase bookkeeping. *_call returns whether the call's phase was a legal
    // step that the state machine followed (an illegal one is reported and
    // ignored, so one mistake gives one report).
    bool fw_call(const tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase, const sc_core::sc_time& delay);
    void fw_return(const tlm::tlm_generic_payload& trans, const tlm::tlm_phase& in_phase,
                   const sc_core::sc_time& in_delay, const tlm::tlm_phase& phase, const sc_core::sc_time& delay,
                   tlm::tlm_sync_enum status);
    bool bw_call(const tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase, const sc_core::sc_time& delay);
    void bw_return(const tlm::tlm_generic_payload& trans, const tlm::tlm_phase& in_phase,
                   const sc_core::sc_time& in_delay, const tlm::tlm_phase& phase, const sc_core::sc_time& delay,
                   tlm::tlm_sync_enum status);
    /// ACCEPTED leaves phase and delay alone; the payload is compared too.
    void check_accepted(const tlm::tlm_generic_payload& trans, const tlm::tlm_phase& in_phase,
                        const sc_core::sc_time& in_delay, const tlm::tlm_phase& phase, const sc_core::sc_time& delay,
                        const char* where);
    /// Timing, payload attributes and reference count at a later phase.
    void check_in_flight(Txn& x, const tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay,
                         const tlm::tlm_phase& phase, const char* where);
    /// A legal BEGIN_RESP (called or returned): status, exclusion, stage.
    void begin_response(Txn& x, const tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase, const char* where);
    void set_stage(Txn& x, Stage stage);
    /// A new entry for `trans` (reusing a spare map node when there is one).
    Txn& start(const tlm::tlm_generic_payload* trans);
    void finish(Map::iterator it);
    bool in_b_transport(const tlm::tlm_generic_payload* trans) const;

    static Snapshot snapshot(const tlm::tlm_generic_payload& trans);
    static bool unchanged(const Snapshot& s, const tlm::tlm_generic_payload& trans);
    static uint64_t hash(const unsigned char* data, unsigned length);
    static std::string changes(const Snapshot& s, const tlm::tlm_generic_payload& trans);
    static std::string stage_name(Stage stage);
    static std::string phase_name(const tlm::tlm_phase& phase);
    /// Another transaction in `stage` (for messages), or nullptr.
    const tlm::tlm_generic_payload* other_in(Stage stage, const tlm::tlm_generic_payload* self) const;

    /// Counts, keeps and reports one violation. `phase` may be null.
    void report(Rule rule, const tlm::tlm_generic_payload& trans, const tlm::tlm_phase* phase, const std::string& what);

    Map m_txns;                                              ///< nb transactions in flight
    std::vector<Map::node_type> m_spare;                     ///< recycled map nodes: no allocation per transaction
    std::vector<const tlm::tlm_generic_payload*> m_blocking; ///< payloads in b_transport
    unsigned m_in_request = 0;                               ///< tracked transactions in their request phase
    unsigned m_in_response = 0;                              ///< tracked transactions in their response phase
    std::array<uint64_t, kNumRules> m_counts{};
    std::vector<std::string> m_messages;
    uint64_t m_nb_begun = 0;
    uint64_t m_b_calls = 0;
    uint64_t m_dbg_calls = 0;
    uint64_t m_dmi_calls = 0;
};

} // namespace syncron
