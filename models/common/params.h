#pragma once
// Typed parameter structs of every model, with the defaults of the hmc4 preset.
// platforms/config validates JSON presets into these; models take them by value.
#include <cstdint>
#include <optional>
#include <string>

#include "models/common/scheme.h"

namespace syncron {

enum class Timing { lt, at };

/// Row-buffer policy of the AT vault scheduler (docs/vault_controller.md).
/// JSON names in params_json.h: "closed", "open".
enum class PagePolicy {
    closed, ///< precharge after every access (HMC's vault controllers)
    open,   ///< keep the row open until another row of the bank is needed
};

/// Synchronization Engine (paper Figures 6-8, Table 5).
struct SeParams {
    double clock_ghz = 1.0;           ///< SPU clock
    unsigned cycles_per_message = 12; ///< SPU cycles per message (barrier_depart_global sets it)
    unsigned st_cycles = 1;           ///< one ST access
    unsigned counter_cycles = 2;      ///< one indexing-counter access
    unsigned st_entries = 64;         ///< 0 = every request takes the overflow path
    unsigned indexing_counters = 256; ///< indexed by the low address bits
    unsigned buffer_messages = 16;    ///< SPU message buffer (280 B)
    /// Local grant counter threshold (the paper's fairness proposal): after this
    /// many consecutive grants inside a unit, a release hands the lock to
    /// another waiting SE. 0 = off, as evaluated in the paper.
    unsigned lock_fairness_threshold = 0;
    /// Take a syncronVar access that memory answered with the payload's
    /// initial TLM_INCOMPLETE_RESPONSE as done: for third-party memories that
    /// never set the status (docs/integration.md). Off: such an access is an error.
    bool accept_incomplete_response = false;
};

/// In-order NDP core with a private L1 (Table 5).
struct CoreParams {
    double clock_ghz = 2.5;
    double quantum_ns = 100.0; ///< temporal-decoupling quantum (LT)
    /// LT: how far a core may run ahead between synchronization points
    /// (plain loads, stores, computation); it syncs past quantum_ns only at
    /// a synchronization point. 0 = quantum_ns everywhere.
    double memory_quantum_ns = 0.0;
    unsigned l1_bytes = 16 * 1024;
    unsigned l1_ways = 2;
    unsigned l1_line_bytes = 64;
    unsigned l1_hit_cycles = 4;
    /// Hardware contexts per core (model extension of the paper's future
    /// work, docs/ndp_core.md "Multi-threaded cores"): the contexts share the
    /// pipeline, a context waiting on a req_sync's reply leaves it to a ready
    /// one, and each has its own bit in the SEs' waiting lists. 1 = the paper.
    unsigned threads = 1;
    /// Cycles a switch to another context costs: the in-order pipeline's
    /// stages behind the switch point are refilled (docs/ndp_core.md).
    unsigned switch_cycles = 4;
};

/// One memory controller: a vault of an HMC cube, a pseudo-channel-free HBM
/// channel or a DDR4 channel, with the organisation and timings of the preset
/// (docs/memory/*.md cite every figure). The defaults are hmc4's.
struct MemoryParams {
    unsigned vaults_per_unit = 32;    ///< controllers per unit: HMC vaults, HBM channels, DDR4 channels
    unsigned banks_per_vault = 16;    ///< banks behind one controller
    uint64_t unit_bytes = 1ull << 30; ///< 4 GB over 4 cubes
    unsigned interleave_bytes = 64;   ///< vault interleaving granule (low-order bits)
    double t_rcd_ns = 17.0;           ///< activate to READ (HBM: nRCDR)
    /// Activate to WRITE (HBM's nRCDW); unset (null in JSON) = t_rcd_ns.
    std::optional<double> t_rcd_write_ns;
    double t_ras_ns = 34.0;
    double t_wr_ns = 19.0;
    double t_cl_ns = 17.0; ///< not in the paper: taken equal to tRCD
    /// WRITE command to its first data beat (CAS write latency). 0 for hmc4:
    /// a write is answered once its data beats are in the bank.
    double t_cwl_ns = 0.0;
    double t_rp_ns = 17.0;                       ///< not in the paper: taken equal to tRCD
    double t_burst_ns = 6.4;                     ///< 64 B at the HMC 2.1 vault bandwidth of 10 GB/s
    PagePolicy page_policy = PagePolicy::closed; ///< AT row policy (LT is always closed-page)
    unsigned queue_depth = 32;                   ///< AT request queue per vault (FR-FCFS window)
    /// Atomic unit of the vault controller (remote_atomics): the modify step
    /// of a read-modify-write, between reading and writing the open row.
    /// One cycle of the HMC 2.1 vault clock (1250 MHz).
    double t_alu_ns = 0.8;

    /// t_rcd_write_ns when set, else t_rcd_ns.
    double rcd_write_ns() const { return t_rcd_write_ns.value_or(t_rcd_ns); }
};

/// Energy figures (docs/energy.md: the model and every figure's source). The
/// defaults are hmc4's; pJ are per event, mW are static power per instance.
struct EnergyParams {
    double core_pj_per_instruction = 70.0; ///< dynamic energy of one executed instruction
    double core_static_mw = 0.0;           ///< per hardware core, whole run (0 = not charged)
    double l1_hit_pj = 23.0;               ///< paper Table 5
    double l1_miss_pj = 47.0;              ///< paper Table 5
    double xbar_pj_per_bit = 0.4;          ///< per bit per crossbar hop (paper Table 5)
    double link_pj_per_bit = 4.0;          ///< inter-unit links (paper Table 5)
    double memory_pj_per_bit = 3.7;        ///< DRAM array read or write, per bit moved
    double memory_activate_pj = 0.0;       ///< per row activation, when not folded into the per-bit figure
    double memory_static_mw = 0.0;         ///< background power per unit's memory (0 = not charged)
    double se_mw = 2.7;                    ///< one SE (paper: 2.7 mW at 40 nm), charged while it exists
};

/// Crossbar joining the cores, SE, vaults and link ports of one unit.
struct XbarParams {
    double clock_ghz = 2.5;
    unsigned arbiter_cycles = 1;
    unsigned hop_cycles = 1;
    unsigned flit_bytes = 16; ///< output port width per cycle
    unsigned queue_depth = 8; ///< AT: requests buffered per output port
};

/// Inter-cube link, one per direction between every pair of units.
struct LinkParams {
    double bandwidth_gbps = 12.8; ///< GB/s per direction
    double latency_ns = 40.0;     ///< transfer latency of one 64 B line, serialization included
    unsigned queue_depth = 8;     ///< AT: transfers buffered per direction before back-pressure
};

/// Software synchronization servers: the server cores of Central and Hier and
/// the fallback servers of the MiSAR-style schemes (docs/schemes.md).
struct ServerParams {
    /// Instructions the server core executes per message it handles (poll and
    /// pop the mailbox, decode, look the variable up, update its waiting list,
    /// compose and send the reply): the counted listing in docs/schemes.md.
    unsigned instructions_per_request = 40;
    /// Entries of the server's software table (64 B each, in its unit's
    /// memory); beyond it the server keeps variables in their syncronVar.
    /// 256 x 64 B = the server core's 16 KiB L1 (Table 5): the servers keep
    /// their variables in their caches (paper §6.3; docs/schemes.md).
    unsigned table_entries = 256;
    /// Whether the table goes through the server core's L1: off for the one
    /// system-wide server (central, syncron_central_ovrfl), on for the
    /// per-unit servers (hier, syncron_distrib_ovrfl).
    bool central_cached = false;
    bool per_unit_cached = true;
};

/// Remote atomics: spin-waiting on read-modify-write units in the vault
/// controllers (scheme remote_atomics).
struct AtomicsParams {
    /// Exponential back-off after a failed attempt, in instructions: it starts
    /// at backoff_min, doubles per failure up to backoff_max, plus a seeded
    /// random jitter below the current back-off.
    unsigned backoff_min = 16;
    unsigned backoff_max = 1024;
};

/// Spin-waiting on coherent atomics (scheme mesi_lock): the test-and-test-
/// and-set lock with back-off of libslock (Tudor David et al., ttas.c and
/// ttas.h at github.com/tudordavid/libslock), whose constants are the
/// defaults. A back-off is in core cycles, as libslock's cdelay() counts them.
struct MesiLockParams {
    /// First back-off limit of a core on a lock: libslock starts every
    /// thread's limit at 1 (init_ttas_local, init_ttas_array_local in ttas.c).
    unsigned backoff_min = 1;
    /// Cap of the limit, which doubles per failed test-and-set and is never
    /// reset: MAX_DELAY 1000 (ttas.h). The delay is a random number below it.
    unsigned backoff_max = 1000;
    /// Instructions of one spin iteration besides its load: libslock's spin
    /// `while ((*l)==1) {}` (ttas_lock in ttas.c) is a load and a compare-
    /// and-branch, with no pause instruction.
    unsigned spin_instructions = 1;
};

/// The MiSAR-style overflow schemes (syncron_central_ovrfl, syncron_distrib_ovrfl).
struct MisarParams {
    /// Instructions a core waits before re-sending a request the Master SE
    /// answered with a retry (the variable is busy in hardware while the
    /// core's own SE has no ST entry for it).
    unsigned retry_backoff = 100;
};

/// Run-time checking.
struct CheckParams {
    bool protocol = false; ///< insert TLM-2.0 base-protocol checkers on AT bindings
    /// Check the coherence invariants after every L1 state change
    /// (docs/coherence.md, "Checker"); a violation fails the run.
    bool coherence = false;
};

/// The MESI directory protocol (docs/coherence.md). Under mesi_lock the
/// synchronization variables' lines are coherent and cacheable.
struct CoherenceParams {
    /// Also cache shared read-write data, kept coherent (off: it stays
    /// uncacheable, as in the paper).
    bool shared_data = false;
    /// Directory lookup per request, in core cycles (gem5 Ruby's MESI
    /// directory controller default, directory_latency = 6 cycles).
    unsigned directory_cycles = 6;
    /// The directory keeps the data of the lines it tracks (as an inclusive
    /// shared cache would) and supplies a grant's line without a memory read
    /// when no owner does. Off: the NDP system has no cache level between
    /// the L1s and memory (paper Table 5), so the line comes from its vault.
    bool directory_data = false;
};

struct PlatformParams {
    unsigned units = 4;
    unsigned cores_per_unit = 16; ///< hardware cores (incl. the server core of Central/Hier)
    unsigned client_cores = 60;   ///< cores running the workload, spread evenly over units
    Timing timing = Timing::lt;
    /// syncron | flat | central | hier | ideal | remote_atomics |
    /// syncron_central_ovrfl | syncron_distrib_ovrfl | mesi_lock (docs/schemes.md)
    Scheme scheme = Scheme::syncron;
    /// Three-level hierarchy (model extension, docs/protocol.md "Three
    /// levels"): units per group, 0 = SynCron's two levels. Scheme syncron only.
    unsigned units_per_group = 0;
};

struct WorkloadParams {
    std::string name = "lock";
    unsigned interval = 200; ///< instructions between synchronization points
    /// Operations per core; unset (null in JSON) = the workload's own default
    /// (WorkloadRegistry::resolve: 100 for the microbenchmarks, fewer for the
    /// data structures, docs/workloads.md).
    std::optional<unsigned> ops;
    uint64_t seed = 1;
    unsigned variables = 1; ///< synchronization variables, spread over the units
    /// Also check the invariant in simulated memory (a shared counter in the
    /// critical section, epoch words at barriers). Off = the paper's empty
    /// critical section; host-side invariant checks run either way.
    bool memory_check = false;
    /// condvar: home each condition variable one unit after its lock's, so
    /// registration and lock release take different paths (docs/protocol.md).
    bool condvar_apart = false;
    // The data structures (docs/workloads.md); unset = the paper's Table 6.
    std::optional<uint64_t> elements;       ///< initial size of the structure
    std::optional<unsigned> update_percent; ///< % of operations that modify it (the rest look up)
    std::optional<unsigned> insert_percent; ///< % of the updates that insert (the rest remove)
    // The applications (docs/workloads.md): graph kernels and the time series.
    std::string graph;             ///< graph file; empty = an R-MAT graph
    std::string graph_format;      ///< snap or mtx; empty = by the file's extension (.mtx: Matrix Market)
    unsigned rmat_scale = 8;       ///< R-MAT: 2^scale vertices
    unsigned rmat_edge_factor = 8; ///< R-MAT: edge_factor * 2^scale edges drawn
    /// Instructions a graph kernel executes per neighbour it reads, besides
    /// its own counted ones: 0 = the kernels as written (docs/workloads.md);
    /// an experiment for the work compiled code does per edge.
    unsigned edge_instructions = 0;
    /// bfs, cc, sssp: read the neighbour's word before locking it and lock
    /// only when that read says an update is due (CRONO's bfs and sssp,
    /// "test and test and set"); off = lock every neighbour read, the
    /// protocol before the cited code was read (docs/workloads.md).
    bool test_before_lock = true;
    /// The data structures: `none` executes only their loads, stores and
    /// Table 2 calls; `measured` adds the other instructions the cited code
    /// executes per operation, inside and outside its locks as it does
    /// (ASCYLIB, counted with callgrind; docs/workloads.md).
    std::string op_work = "none";
    /// pr: `push` adds each vertex's share to its neighbours' sums, one lock
    /// per edge (the push style the paper names for its kernels); `pull` is
    /// CRONO's pagerank_lock.cc: each vertex sums its neighbours' ranks with
    /// no lock, one global lock per dangling vertex, four barriers per
    /// iteration (docs/workloads.md).
    std::string pr_style = "push";
    std::string partition = "contiguous"; ///< vertices over units: contiguous or metis
    std::string series;                   ///< time-series file; empty = a seeded random walk
    unsigned series_column = 1;           ///< column of a CSV series (1 = the first)
    unsigned series_length = 256;         ///< length of the generated random walk
    unsigned window = 16;                 ///< subsequence length of the matrix profile
    // The counter microbenchmark (docs/workloads.md, model extension of §6).
    unsigned counters = 1;                 ///< counter: shared counters, spread over the units
    std::string counter_update = "se_rmw"; ///< counter: se_rmw, lock or remote_atomic
    /// The graph applications: per-vertex updates through the scheme's
    /// atomic_rmw instead of a lock (docs/workloads.md, model extension of §6).
    bool use_se_atomics = false;
};

struct SimParams {
    PlatformParams platform;
    SeParams se;
    CoreParams core;
    MemoryParams memory;
    XbarParams xbar;
    LinkParams link;
    WorkloadParams workload;
    CheckParams check;
    ServerParams server;
    AtomicsParams atomics;
    MesiLockParams mesi_lock;
    MisarParams misar;
    EnergyParams energy;
    CoherenceParams coherence;
};

} // namespace syncron
