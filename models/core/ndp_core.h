#pragma once
// An in-order NDP core (paper Table 5) as a TLM-2.0 initiator.
// It runs one workload program (written against CoreApi) in an SC_THREAD:
// 1 instruction per cycle, one outstanding memory operation. Loads, stores
// and SynCron messages all leave through `bus`; SE replies arrive at
// `mailbox`. Two timing styles (set_timing, before sc_start):
//  - LT (default): blocking b_transport, temporal decoupling through a
//    quantum keeper;
//  - AT: pooled payloads, 4-phase nb_transport_fw on `bus`, no decoupling
//    (pending compute time is waited off before every transaction).
// The mailbox serves b_transport and nb_transport_fw in both styles.
// docs/ndp_core.md describes the timing rules.
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "models/common/address_map.h"
#include "models/common/latency_samples.h"
#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/core/core_api.h"
#include "models/core/core_services.h"
#include "models/core/l1_cache.h"
#include "models/core/sync_client.h"
#include "models/protocol/coherence.h"
#include "models/protocol/endpoint.h"
#include "models/protocol/message.h"
#include "models/protocol/opcode.h"
#include "models/protocol/tlm/atomic_extension.h"
#include "models/protocol/tlm/coherence_extension.h"
#include "models/protocol/tlm/traffic_class.h"
#include "models/protocol/wire_format.h"
#include "models/tlm/at_initiator_port.h"
#include "models/tlm/at_target_port.h"
#include "models/tlm/payload_pool.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

class NdpCore : public sc_core::sc_module, public CoreApi, public CoreServices, public StatProvider {
public:
    /// What the core is doing, for waveform tracing.
    enum class CoreState { computing, memory, waiting_sync, done };
    /// The Table 2 calls that block until a grant; the core samples each
    /// one's request-to-grant latency (docs/stats.md, "sync_latency").
    enum class BlockingCall : unsigned {
        lock_acquire,
        barrier_wait_within_unit,
        barrier_wait_across_units,
        sem_wait,
        cond_wait, ///< the whole call: the wait and the lock's re-acquisition
        count
    };
    static constexpr unsigned kBlockingCalls = static_cast<unsigned>(BlockingCall::count);
    static const char* blocking_call_name(BlockingCall c);

    struct Stats {
        uint64_t instructions = 0; ///< compute() instructions + one per load/store/Table 2 message
        uint64_t loads = 0;
        uint64_t stores = 0;
        uint64_t l1_hits = 0;
        uint64_t l1_misses = 0;
        uint64_t l1_writebacks = 0;
        std::array<uint64_t, kOpcodeCount> messages_sent{};     ///< indexed by Opcode
        std::array<uint64_t, kOpcodeCount> messages_received{}; ///< mailbox, indexed by Opcode
        uint64_t sync_ops = 0;                                  ///< Table 2 calls completed (cond_wait counts once)
        std::array<uint64_t, 3> atomics{};                      ///< atomics issued, indexed by AtomicOp
        /// Coherence (docs/coherence.md): requests sent and probes answered,
        /// indexed by CoherenceMsg; probes held until the access they raced
        /// with was performed; atomics performed in the L1.
        std::array<uint64_t, kCoherenceMsgCount> coherence_sent{};
        std::array<uint64_t, kCoherenceMsgCount> coherence_probes{};
        uint64_t coherence_deferred = 0;
        uint64_t coherent_atomics = 0;
        uint64_t cas_failures = 0;                              ///< compare-and-swaps that found another value
        sc_core::sc_time ack_wait_time = sc_core::SC_ZERO_TIME; ///< issue-to-ACK time of every req_sync
        sc_core::sc_time finish_time = sc_core::SC_ZERO_TIME;
        /// Request-to-grant latency of every blocking call, indexed by BlockingCall:
        /// from the core's local time at the call to its local time at the grant.
        std::array<LatencySamples, kBlockingCalls> sync_latency{};

        uint64_t messages(Opcode op) const { return messages_sent[static_cast<unsigned>(op)]; }
    };

    tlm_utils::simple_initiator_socket<NdpCore> bus;
    tlm_utils::simple_target_socket<NdpCore> mailbox;

    SC_HAS_PROCESS(NdpCore);
    NdpCore(sc_core::sc_module_name name, unsigned unit, unsigned local_id, unsigned global_id,
            const CoreParams& params, const AddressMap& address_map, std::function<bool(uint64_t)> is_cacheable);

    /// The program the core runs from time 0; without one the core is done at once.
    void set_program(std::function<void(CoreApi&)> program);
    /// Timing::lt (default) or Timing::at; call before sc_start (an error
    /// afterwards). The mailbox answers both styles either way.
    void set_timing(Timing timing);
    Timing timing() const { return m_timing; }
    /// The AT path's payloads; in_use() == 0 once nothing is in flight.
    const PayloadPool& payload_pool() const { return m_pool; }

    bool done() const { return m_state == CoreState::done; }
    sc_core::sc_time finish_time() const { return m_stats.finish_time; }
    /// Notified (one delta after) when the program has returned.
    sc_core::sc_event& done_event() { return m_done_event; }
    CoreState state() const { return m_state; }
    const char* operation() const { return m_operation; }
    /// Attach a probe (before sc_start); nullptr = tracing off.
    void set_trace(TraceSink* sink) { m_trace = sink; }

    const Stats& stats() const { return m_stats; }
    /// This module's group of statistics (docs/stats.md); in ndp_core_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    const L1Cache& l1() const { return m_l1; }
    sc_core::sc_time cycle_time() const { return m_cycle; }

    // ---- Services for synchronization schemes and server programs
    //      (CoreServices, models/core/core_services.h; docs/schemes.md).
    //      Workloads use CoreApi only.

    /// The scheme behind the Table 2 calls (before sc_start); not owned. The
    /// platform injects one into every core; a Table 2 call on a core
    /// without one is reported as an error.
    void set_sync_client(SyncClient* client);
    /// Which lines are coherent: not at all, as data, or as a
    /// synchronization variable's line (its traffic counts as synchronization).
    enum class Coherent : uint8_t { no, data, sync };
    /// Coherent lines (docs/coherence.md; before sc_start): loads, stores and
    /// atomics on addresses `coherent` classifies as coherent go through the
    /// L1 with MESI, asking the line's home directory for permission;
    /// `changed` (optional) is called with the line address after every
    /// change of this L1's state for a line (the platform's checker).
    void set_coherence(std::function<Coherent(uint64_t)> coherent, std::function<void(uint64_t line)> changed);
    /// Called at the moment a load, store or atomic on a coherent line is
    /// performed on memory (the order of these calls is the coherence order;
    /// tests replay it). Before sc_start.
    void set_perform_hook(std::function<void(uint64_t addr)> hook) { m_perform_hook = std::move(hook); }
    /// Server cores: every message reaching the mailbox is queued for
    /// receive() instead of answering an expected reply (before sc_start).
    void set_server_mailbox(bool on) { m_server_mailbox = on; }

    // CoreServices
    const char* name() const override { return sc_module::name(); }
    Message message(Opcode op, uint64_t var, uint64_t info = 0) const override;
    bool post(uint64_t dest, const Message& m) override;
    std::optional<Message> exchange(uint64_t dest, const Message& m, Opcode reply, Opcode alt) override;
    void expect(uint64_t var, Opcode reply, Opcode alt) override;
    std::optional<Message> await_reply(const sc_core::sc_time& issued) override;
    std::optional<Message> reply_if_arrived(const sc_core::sc_time& issued) override;
    void deliver(const Message& m, const sc_core::sc_time& at, const Endpoint& src) override;
    sc_core::sc_time local_time() const override { return sc_core::sc_time_stamp() + m_qk.get_local_time(); }
    uint64_t atomic(AtomicOp op, uint64_t addr, uint64_t operand, uint64_t compare, unsigned size) override;
    Received receive() override;
    void access(bool write, uint64_t addr, uint8_t* data, unsigned len) override;
    const AddressMap& address_map() const override { return m_map; }

    // CoreApi
    unsigned unit() const override { return m_unit; }
    unsigned local_id() const override { return m_local_id; }
    unsigned global_id() const override { return m_global_id; }
    void compute(uint64_t instructions) override;
    uint64_t load(uint64_t addr, unsigned size) override;
    void store(uint64_t addr, uint64_t value, unsigned size) override;
    void lock_acquire(SyncVar lock) override;
    void lock_release(SyncVar lock) override;
    void barrier_wait_within_unit(SyncVar barrier, unsigned initial_cores) override;
    void barrier_wait_across_units(SyncVar barrier, unsigned initial_cores) override;
    void sem_wait(SyncVar sem, unsigned initial_resources) override;
    void sem_post(SyncVar sem) override;
    void cond_wait(SyncVar cond, SyncVar lock) override;
    void cond_signal(SyncVar cond) override;
    void cond_broadcast(SyncVar cond) override;

private:
    void run();
    void mailbox_b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    /// Checks a reply and, when it matches the pending expectation, stores it
    /// as arrived at sc_time_stamp() + delay. Returns the response status.
    tlm::tlm_response_status take_reply(const tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay);
    /// The message part of take_reply (also used by deliver()).
    tlm::tlm_response_status accept(const Message& m, const sc_core::sc_time& arrival, const Endpoint& src,
                                    const sc_core::sc_time& sent);

    /// Checks size and line crossing; false (after reporting) when invalid.
    bool check_access(uint64_t addr, unsigned size, const char* what);
    /// One timed transaction through the keeper; reports error responses.
    /// `atomic` (caller-owned) makes it a remote read-modify-write.
    /// `coherence` (caller-owned) makes it a coherence request: the caller
    /// keeps time once the access it serves is performed.
    void timed(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, AtomicExtension* atomic = nullptr,
               CoherenceExtension* coherence = nullptr);
    /// Untimed access; reports short transfers.
    void debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len);
    /// L1 lookup plus the fill / write-back traffic of a miss.
    void cache_access(uint64_t addr, bool write);
    void copy_l1_stats() {
        m_stats.l1_hits = m_l1.stats().hits;
        m_stats.l1_misses = m_l1.stats().misses;
        m_stats.l1_writebacks = m_l1.stats().writebacks;
    }
    /// Makes a line leave the L1: a write-back of a dirty non-coherent line,
    /// put_m / put_e to the directory for a coherent one.
    void evict(const L1Cache::Victim& v);

    // ---- Coherence (docs/coherence.md, "The L1 side")
    bool is_coherent(uint64_t addr) const { return m_coherent && m_coherent(addr) != Coherent::no; }
    /// Gets read (or write) permission for addr's line; returns once the
    /// access may be performed. Call coherent_done() right after performing
    /// it, before anything can wait.
    void coherent_access(uint64_t addr, bool write);
    /// The access of addr has been performed.
    void coherent_done(uint64_t addr);
    /// One coherence request to the line's home directory (blocking).
    void coherence_request(CoherenceMsg msg, uint64_t line, CoherenceExtension& ext);
    /// Answers a probe from a directory (fills the extension and, for a
    /// forward, the data). False when it must wait for the pending access.
    bool take_probe(tlm::tlm_generic_payload& trans, CoherenceExtension& ext, bool may_defer);
    void coherence_changed(uint64_t line) {
        if (m_coherence_changed) m_coherence_changed(line);
    }

    /// False (after reporting) when the destination answered with an error
    /// (AT: when that is already known once the request phase has ended).
    bool send(uint64_t dest, const Message& m, bool sync);
    void report_send_error(const Message& m, const tlm::tlm_generic_payload& t);
    /// A Table 2 call through the scheme's client.
    void table2(Opcode op, uint64_t var, uint64_t info);
    /// Samples the latency of a blocking call issued at local time `issued`.
    void sample_latency(BlockingCall call, const sc_core::sc_time& issued) {
        m_stats.sync_latency[static_cast<unsigned>(call)].add((local_time() - issued).value());
    }
    void keep_time() {
        if (m_timing == Timing::lt && m_qk.need_sync()) m_qk.sync();
    }
    void set_state(CoreState state, const char* operation, uint64_t addr);
    void trace_memory(tlm::tlm_command cmd, uint64_t addr, unsigned len, const sc_core::sc_time& begin,
                      const sc_core::sc_time& end, bool at);

    // ---- AT path (docs/ndp_core.md, "Approximately-timed")
    /// Waits off the pending local time (compute, L1 hits) so the next
    /// transaction starts at the core's own time.
    void catch_up();
    /// BEGIN_REQ of a pooled payload at the current time; returns once its
    /// request phase has ended (END_REQ or BEGIN_RESP has taken effect).
    void at_begin_request(tlm::tlm_generic_payload& t);
    /// A load/store transaction: returns when its BEGIN_RESP has taken effect.
    void at_timed(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, AtomicExtension* atomic,
                  CoherenceExtension* coherence);
    bool at_send(uint64_t dest, const Message& m, const uint8_t* wire, bool sync);
    /// The request phase of `t` has ended (END_REQ or BEGIN_RESP took effect).
    void at_end_request(tlm::tlm_generic_payload& t);
    /// BEGIN_RESP has taken effect for `t` (the engine has ended its phase).
    void at_response(tlm::tlm_generic_payload& t);
    tlm::tlm_sync_enum bus_nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                           sc_core::sc_time& delay) {
        return m_bus_port.nb_transport_bw(0, t, phase, delay);
    }
    tlm::tlm_sync_enum mailbox_nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay) {
        return m_mailbox_port.nb_transport_fw(0, t, phase, delay);
    }
    /// A message reached the mailbox (at its effective time): taken and answered.
    void at_mailbox_request(tlm::tlm_generic_payload& t);

    unsigned m_unit;
    unsigned m_local_id;
    unsigned m_global_id;
    CoreParams m_params;
    AddressMap m_map;
    std::function<bool(uint64_t)> m_is_cacheable;
    std::function<Coherent(uint64_t)> m_coherent;
    std::function<void(uint64_t)> m_coherence_changed;
    std::function<void(uint64_t)> m_perform_hook;
    /// The coherence request in progress (from sending it until the access
    /// it serves is performed): probes for its line may have to wait.
    struct CoherencePending {
        uint64_t line;
        CoherenceMsg msg;
        bool invalidated; ///< get_s: an inv overtook the grant; use the line once
    };
    std::optional<CoherencePending> m_coh_pending;
    /// The line being evicted with put_m / put_e, until the directory has it.
    struct Evicting {
        uint64_t line;
        MesiState state;
    };
    std::optional<Evicting> m_evicting;
    std::vector<tlm::tlm_generic_payload*> m_deferred_probes; ///< AT: held until coherent_done()
    std::function<void(CoreApi&)> m_program;

    sc_core::sc_time m_cycle;
    tlm_utils::tlm_quantumkeeper m_qk;
    L1Cache m_l1;
    std::vector<uint8_t> m_line_buf;     ///< fill / write-back data, one line
    tlm::tlm_generic_payload m_lt_trans; ///< the LT path's payload, reused by every access
    WireLayout m_layout;
    bool m_wire_ok;

    // The one outstanding req_sync: what the core waits for, and the reply once in.
    struct Expected {
        Opcode op;
        Opcode alt;
        uint64_t addr;
    };
    std::optional<Expected> m_expected;
    std::optional<Message> m_reply;
    sc_core::sc_time m_reply_time;
    sc_core::sc_event m_reply_event;
    bool m_awaiting = false; ///< LT: the core is suspended until a reply comes

    // AT bus side.
    Timing m_timing = Timing::lt;
    PayloadPool m_pool;
    AtInitiatorPort m_bus_port;                      ///< 4-phase initiator side of `bus` (deferred phases)
    tlm::tlm_generic_payload* m_mem_trans = nullptr; ///< the load/store awaiting BEGIN_RESP
    bool m_mem_done = false;
    tlm::tlm_generic_payload* m_sync_trans = nullptr; ///< the req_sync message awaiting BEGIN_RESP
    bool m_sync_failed = false;                       ///< it got an error response: no ACK will come
    sc_core::sc_event m_bus_event;                    ///< END_REQ or BEGIN_RESP took effect

    // AT mailbox side.
    AtTargetPort m_mailbox_port; ///< 4-phase target side of `mailbox` (accepts at once)

    CoreState m_state = CoreState::computing;
    const char* m_operation = "compute"; // static string, for traces
    TraceSink* m_trace = nullptr;
    sc_core::sc_time m_mem_end_req, m_mem_begin_resp; // AT phase times of the memory operation, for traces

    sc_core::sc_event m_done_event;
    Stats m_stats;

    SyncClient* m_client = nullptr; ///< injected by the platform (set_sync_client)

    // Server mailbox: messages in arrival order (time, sequence).
    struct Inbound {
        sc_core::sc_time time;
        uint64_t seq;
        Message msg;
        Endpoint src;
    };
    bool m_server_mailbox = false;
    /// Set on a server core's memory accesses: its tables are synchronization
    /// traffic (traffic_class.h).
    SyncTrafficExtension m_sync_tag;
    std::deque<Inbound> m_inbox;
    uint64_t m_inbox_seq = 0;
    sc_core::sc_event m_inbox_event;
};

} // namespace syncron
