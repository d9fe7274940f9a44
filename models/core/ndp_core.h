#pragma once
// An in-order NDP core (paper Table 5) as a TLM-2.0 initiator.
// It runs one workload program (written against CoreApi) in an SC_THREAD:
// 1 instruction per cycle, one outstanding memory operation. Loads, stores
// and SynCron messages all leave through `bus`; SE replies and coherence
// probes arrive at `mailbox`. The core is its function (this class: the
// CoreApi and CoreServices calls, statistics, traces) plus parts:
//  - CoherentL1: the L1 and its MESI side (models/core/coherent_l1.h);
//  - a CoreBus, chosen by set_timing before sc_start: LtCoreBus (blocking
//    b_transport, temporal decoupling) or AtCoreBus (pooled payloads,
//    4-phase, no decoupling) (models/core/core_bus.h);
//  - ReplySlot (the one outstanding req_sync) and ServerInbox (server cores).
// The mailbox serves b_transport and nb_transport_fw in both styles.
// docs/ndp_core.md describes the timing rules.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/common/stat_provider.h"
#include "models/core/at_core_bus.h"
#include "models/core/coherent_l1.h"
#include "models/core/core_api.h"
#include "models/core/core_pipeline.h"
#include "models/core/core_services.h"
#include "models/core/core_state.h"
#include "models/core/core_stats.h"
#include "models/core/lt_core_bus.h"
#include "models/core/reply_slot.h"
#include "models/core/server_inbox.h"
#include "models/core/sync_client.h"
#include "models/protocol/endpoint.h"
#include "models/protocol/message.h"
#include "models/protocol/opcode.h"
#include "models/protocol/wire_format.h"
#include "models/tlm/at_target_port.h"
#include "models/tlm/trace_sink.h"

namespace syncron {

class NdpCore : public sc_core::sc_module, public CoreApi, public CoreServices, public StatProvider {
public:
    using CoreState = syncron::CoreState;
    using BlockingCall = syncron::BlockingCall;
    using Stats = CoreStats;
    using Coherent = CoherentL1::Coherent;
    static constexpr unsigned kBlockingCalls = syncron::kBlockingCalls;
    static const char* blocking_call_name(BlockingCall c) { return syncron::blocking_call_name(c); }

    tlm_utils::simple_initiator_socket<NdpCore> bus;
    tlm_utils::simple_target_socket<NdpCore> mailbox;

    SC_HAS_PROCESS(NdpCore);
    NdpCore(sc_core::sc_module_name name, unsigned unit, unsigned local_id, unsigned global_id,
            const CoreParams& params, const AddressMap& address_map, std::function<bool(uint64_t)> is_cacheable);

    /// The program the core runs from time 0; without one the core is done at once.
    void set_program(std::function<void(CoreApi&)> program);
    /// Timing::lt (default) or Timing::at: picks the bus; call before
    /// sc_start (an error afterwards). The mailbox answers both styles either way.
    void set_timing(Timing timing);
    Timing timing() const { return m_bus == &m_at_bus ? Timing::at : Timing::lt; }
    /// The AT path's payloads; in_use() == 0 once nothing is in flight.
    const PayloadPool& payload_pool() const { return m_at_bus.pool(); }

    bool done() const { return m_state == CoreState::done; }
    sc_core::sc_time finish_time() const { return m_stats.finish_time; }
    /// Notified (one delta after) when the program has returned.
    sc_core::sc_event& done_event() { return m_done_event; }
    CoreState state() const { return m_state; }
    const char* operation() const { return m_operation; }
    /// Attach a probe (before sc_start); nullptr = tracing off.
    void set_trace(TraceSink* sink);

    const Stats& stats() const { return m_stats; }
    /// This module's group of statistics (docs/stats.md); in ndp_core_stats.cpp.
    void report_stats(const StatContext& ctx, nlohmann::json& out) const override;
    const L1Cache& l1() const { return m_l1.cache(); }
    sc_core::sc_time cycle_time() const { return m_cycle; }

    // ---- Services for synchronization schemes and server programs
    //      (CoreServices, models/core/core_services.h; docs/schemes.md).
    //      Workloads use CoreApi only.

    /// The scheme behind the Table 2 calls (before sc_start); not owned. The
    /// platform injects one into every core; a Table 2 call on a core
    /// without one is reported as an error.
    void set_sync_client(SyncClient* client);
    /// Coherent lines (docs/coherence.md; before sc_start): loads, stores and
    /// atomics on addresses `coherent` classifies as coherent go through the
    /// L1 with MESI, asking the line's home directory for permission;
    /// `changed` (optional) is called with the line address after every
    /// change of this L1's state for a line (the platform's checker).
    void set_coherence(std::function<Coherent(uint64_t)> coherent, std::function<void(uint64_t line)> changed);
    /// Called at the moment a load, store or atomic on a coherent line is
    /// performed on memory (the order of these calls is the coherence order;
    /// tests replay it). Before sc_start.
    void set_perform_hook(std::function<void(uint64_t addr)> hook) { m_l1.set_perform_hook(std::move(hook)); }
    /// Server cores: every message reaching the mailbox is queued for
    /// receive() instead of answering an expected reply (before sc_start).
    void set_server_mailbox(bool on);
    /// LT: memory accesses take this direct path where it covers them
    /// (docs/timing.md, "The direct path"); not owned (before sc_start).
    void set_direct_path(LtDirectPath* path);
    /// Multi-threaded cores (docs/ndp_core.md): this core is context `context`
    /// of the core whose pipeline is `pipeline` (not owned; before sc_start).
    /// Without one the core has the pipeline to itself.
    void set_pipeline(CorePipeline* pipeline, unsigned context);

    // CoreServices
    const char* name() const override { return sc_module::name(); }
    Message message(Opcode op, uint64_t var, uint64_t info = 0) const override;
    bool post(uint64_t dest, const Message& m) override;
    std::optional<Message> exchange(uint64_t dest, const Message& m, Opcode reply, Opcode alt) override;
    void expect(uint64_t var, Opcode reply, Opcode alt) override { m_replies.expect(var, reply, alt); }
    std::optional<Message> await_reply(const sc_core::sc_time& issued) override { return m_bus->await_reply(issued); }
    std::optional<Message> reply_if_arrived(const sc_core::sc_time& issued) override {
        return m_bus->reply_if_arrived(issued);
    }
    void deliver(const Message& m, const sc_core::sc_time& at, const Endpoint& src) override;
    sc_core::sc_time local_time() const override { return m_bus->local_time(); }
    uint64_t atomic(AtomicOp op, uint64_t addr, uint64_t operand, uint64_t compare, unsigned size) override;
    uint64_t instant_rmw(RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) override;
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
    uint64_t atomic_rmw(uint64_t addr, RmwOp op, uint64_t operand, uint64_t expected = 0) override;
    uint64_t vault_rmw(uint64_t addr, RmwOp op, uint64_t operand, uint64_t expected = 0) override;

private:
    void run();
    /// Checks size and line crossing; false (after reporting) when invalid.
    bool check_access(uint64_t addr, unsigned size, const char* what);
    /// A load or store of up to 8 bytes in `buf`, by the line's kind.
    void memory(bool write, uint64_t addr, uint8_t* buf, unsigned size);
    /// A coherent access has been performed: probes that waited are answered.
    void performed(uint64_t addr);
    /// False (after reporting) when the destination answered with an error
    /// (AT: when that is already known once the request phase has ended).
    bool send(uint64_t dest, const Message& m, bool sync);
    /// Empty when `addr` is a word an rmw may work on, else why not.
    std::string rmw_address_problem(uint64_t addr) const;
    /// A Table 2 call through the scheme's client.
    void table2(Opcode op, uint64_t var, uint64_t info);
    /// A blocking Table 2 call, its latency sampled from the call to the grant.
    void blocking(BlockingCall call, Opcode op, uint64_t var, uint64_t info);
    void set_state(CoreState state, const char* operation, uint64_t addr);

    /// The shared pipeline for one operation (nested uses count once): `work`
    /// is a compute run or a memory access, otherwise a message's issue. AT
    /// holds the pipeline for either; LT books work on its calendar once its
    /// length is known, and an issue's cycle before it leaves.
    class PipelineUse {
    public:
        PipelineUse(NdpCore& core, bool work) : m_core(core), m_work(work), m_begin(core.take_pipeline(work)) {}
        ~PipelineUse() { m_core.release_pipeline(m_work, m_begin); }
        PipelineUse(const PipelineUse&) = delete;
        PipelineUse& operator=(const PipelineUse&) = delete;

    private:
        NdpCore& m_core;
        bool m_work;
        sc_core::sc_time m_begin;
    };
    /// The core's time when its use began.
    sc_core::sc_time take_pipeline(bool work);
    void release_pipeline(bool work, const sc_core::sc_time& begin);

    // ---- Mailbox (target): replies, probes and server messages, in either style.
    void mailbox_b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    tlm::tlm_sync_enum mailbox_nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay) {
        return m_mailbox_port.nb_transport_fw(0, t, phase, delay);
    }
    /// A message reached the mailbox (at its effective time): taken and answered.
    void at_mailbox_request(tlm::tlm_generic_payload& t);
    /// Checks a reply and takes it as arrived at sc_time_stamp() + delay.
    tlm::tlm_response_status take_reply(const tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay);
    /// The message part of take_reply (also used by deliver()).
    tlm::tlm_response_status accept(const Message& m, const sc_core::sc_time& arrival, const Endpoint& src,
                                    const sc_core::sc_time& sent);
    tlm::tlm_sync_enum bus_nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                           sc_core::sc_time& delay) {
        return m_bus->nb_transport_bw(t, phase, delay);
    }

    unsigned m_unit;
    unsigned m_local_id;
    unsigned m_global_id;
    AddressMap m_map;
    sc_core::sc_time m_cycle;
    WireLayout m_layout;
    bool m_wire_ok;
    std::function<void(CoreApi&)> m_program;
    SyncClient* m_client = nullptr; ///< injected by the platform (set_sync_client)

    Stats m_stats;
    CoreState m_state = CoreState::computing;
    const char* m_operation = "compute"; // static string, for traces
    TraceSink* m_trace = nullptr;
    sc_core::sc_event m_done_event;

    ReplySlot m_replies;
    ServerInbox m_inbox;
    bool m_server_mailbox = false;
    /// Set on a server core's memory accesses: its tables are synchronization
    /// traffic (traffic_class.h).
    SyncTrafficExtension m_sync_tag;

    LtCoreBus m_lt_bus;
    AtCoreBus m_at_bus;
    CoreBus* m_bus; ///< the one set_timing chose
    CoherentL1 m_l1;
    CorePipeline* m_pipeline = nullptr; ///< shared with the core's other contexts
    unsigned m_context = 0;
    unsigned m_pipeline_depth = 0; ///< nested PipelineUses

    AtTargetPort m_mailbox_port;                              ///< 4-phase target side of `mailbox` (accepts at once)
    std::vector<tlm::tlm_generic_payload*> m_deferred_probes; ///< AT: held until the access is performed
};

} // namespace syncron
