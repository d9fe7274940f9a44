#pragma once
// The 38 SynCron message opcodes of paper Table 3, plus the model's
// extensions: the abort messages of the MiSAR-style comparison schemes
// (docs/schemes.md), the condition-variable confirmations and the
// read-modify-write messages (docs/protocol.md).
#include <cstdint>
#include <optional>
#include <string_view>

namespace syncron {

enum class Opcode : uint8_t {
    // lock
    lock_acquire_global,
    lock_acquire_local,
    lock_acquire_overflow,
    lock_release_global,
    lock_release_local,
    lock_release_overflow,
    lock_grant_global,
    lock_grant_local,
    lock_grant_overflow,
    // barrier
    barrier_wait_global,
    barrier_wait_local_within_unit,
    barrier_wait_local_across_units,
    barrier_wait_overflow,
    barrier_depart_global,
    barrier_depart_local,
    barrier_departure_overflow,
    // semaphore
    sem_wait_global,
    sem_wait_local,
    sem_wait_overflow,
    sem_grant_global,
    sem_grant_local,
    sem_grant_overflow,
    sem_post_global,
    sem_post_local,
    sem_post_overflow,
    // condition variable
    cond_wait_global,
    cond_wait_local,
    cond_wait_overflow,
    cond_signal_global,
    cond_signal_local,
    cond_signal_overflow,
    cond_broad_global,
    cond_broad_local,
    cond_broad_overflow,
    cond_grant_global,
    cond_grant_local,
    cond_grant_overflow,
    // other
    decrease_indexing_counter,
    // Model extension (not in Table 3): the non-integrated, MiSAR-style
    // overflow of syncron_central_ovrfl / syncron_distrib_ovrfl. An SE tells a
    // core (local), a Master SE tells an SE (global), or a Master SE tells an
    // SE about one of its cores (overflow) that a request was aborted.
    // MessageInfo: see abort_info() below.
    abort_local,
    abort_global,
    abort_overflow,
    // Model extension (not in Table 3): a Master SE confirms a condition
    // variable's registration whose lock is homed at another SE, so the
    // registering SE releases the lock only once no signal can overtake the
    // registration (docs/protocol.md, "Condition variable"). Global: an SE's
    // registration (MessageInfo = lock); overflow: one core's (CoreID = core).
    cond_registered_global,
    cond_registered_overflow,
    // Model extension (not in Table 3; paper §6's "simple atomic operations
    // in the SE"): a read-modify-write on a 64-bit word, executed by the
    // Master SE of the word's address (models/protocol/rmw.h,
    // docs/protocol.md "Atomic read-modify-write"). A core asks its SE
    // (_local, MessageInfo = operand); a non-Master SE forwards it to the
    // Master SE (_global); the old value comes back in MessageInfo of
    // rmw_reply_global (Master SE to SE) and rmw_reply_local (SE to core).
    // rmw_cas_* carry the expected value in a trailer flit (wire_format.h).
    // The SE-to-SE ones name the requesting core: their CoreID is split
    // like the overflow level's.
    rmw_fetch_add_local,
    rmw_swap_local,
    rmw_cas_local,
    rmw_min_local,
    rmw_max_local,
    rmw_fetch_add_global,
    rmw_swap_global,
    rmw_cas_global,
    rmw_min_global,
    rmw_max_global,
    rmw_reply_global,
    rmw_reply_local,
};

/// Opcodes of paper Table 3 (raw values 0..37).
inline constexpr unsigned kPaperOpcodeCount = 38;
inline constexpr unsigned kOpcodeCount = 55;

enum class Primitive : uint8_t { lock, barrier, semaphore, condvar, other };
/// Which hop a message travels: core<->own SE, SE<->Master SE, overflowed SE<->Master SE.
enum class Level : uint8_t { local, global, overflow, other };

std::string_view to_string(Opcode op);
std::optional<Opcode> opcode_from_string(std::string_view name);
/// Raw 6-bit value to opcode; empty when out of range.
std::optional<Opcode> opcode_from_raw(unsigned raw);

Primitive primitive_of(Opcode op);

/// Level of every opcode, in Opcode order (asked for every message).
inline constexpr Level kOpcodeLevels[kOpcodeCount] = {
    Level::global,   Level::local,    Level::overflow, // lock_acquire_*
    Level::global,   Level::local,    Level::overflow, // lock_release_*
    Level::global,   Level::local,    Level::overflow, // lock_grant_*
    Level::global,   Level::local,    Level::local,    // barrier_wait_global, _local_within_unit, _local_across_units
    Level::overflow, Level::global,   Level::local,    // barrier_wait_overflow, barrier_depart_global, _local
    Level::overflow,                                   // barrier_departure_overflow
    Level::global,   Level::local,    Level::overflow, // sem_wait_*
    Level::global,   Level::local,    Level::overflow, // sem_grant_*
    Level::global,   Level::local,    Level::overflow, // sem_post_*
    Level::global,   Level::local,    Level::overflow, // cond_wait_*
    Level::global,   Level::local,    Level::overflow, // cond_signal_*
    Level::global,   Level::local,    Level::overflow, // cond_broad_*
    Level::global,   Level::local,    Level::overflow, // cond_grant_*
    Level::other,                                      // decrease_indexing_counter
    Level::local,    Level::global,   Level::overflow, // abort_*
    Level::global,   Level::overflow,                  // cond_registered_*
    Level::local,    Level::local,    Level::local,    // rmw_fetch_add_local, _swap_local, _cas_local
    Level::local,    Level::local,                     // rmw_min_local, _max_local
    Level::overflow, Level::overflow, Level::overflow, // rmw_*_global: SE and core in CoreID
    Level::overflow, Level::overflow,                  //
    Level::overflow, Level::local,                     // rmw_reply_global, rmw_reply_local
};
inline Level level_of(Opcode op) {
    const unsigned i = static_cast<unsigned>(op);
    return i < kOpcodeCount ? kOpcodeLevels[i] : Level::other;
}
/// The read-modify-write messages (rmw_*), requests and replies.
inline bool is_rmw(Opcode op) { return op >= Opcode::rmw_fetch_add_local && op <= Opcode::rmw_reply_local; }
/// The rmw requests, from a core (_local) or a non-Master SE (_global).
inline bool is_rmw_request(Opcode op) { return op >= Opcode::rmw_fetch_add_local && op <= Opcode::rmw_max_global; }
/// True when kOpcodeLevels agrees with the opcode names (tested).
bool level_table_matches_names();
/// Acquire-type messages may allocate an ST entry or bump an indexing counter.
bool is_acquire_type(Opcode op);
/// Messages a core may send to its SE (req_sync / req_async).
bool is_core_request(Opcode op);
/// Requests for which the core waits for an ACK (req_sync).
bool is_sync_request(Opcode op);

/// The ACK a core waits for after a req_sync request (lock_acquire_local ->
/// lock_grant_local, barrier waits -> barrier_depart_local, ...); the
/// opcode itself for anything else.
Opcode grant_of(Opcode request);

/// The same request at the local level, the opcode a core sends
/// (lock_acquire_global / _overflow -> lock_acquire_local, sem_post_global ->
/// sem_post_local, ...). Barrier waits of the global and overflow levels map
/// to barrier_wait_local_across_units (the level does not say which barrier
/// a core waited at). Anything else: the opcode itself.
Opcode local_opcode_of(Opcode request);
/// The acquire-type request at the overflow level, as a local SE redirects it
/// (lock_acquire_local -> lock_acquire_overflow, both barrier waits ->
/// barrier_wait_overflow, ...). Anything else: the opcode itself.
Opcode overflow_opcode_of(Opcode request);

/// MessageInfo of an abort_* message: the aborted request's opcode in bits
/// 0..7 and two flags.
namespace abort_info {
/// The Master SE keeps the variable in hardware (an ST entry exists) but the
/// requester's SE could not buffer it: retry the request through the SE after
/// a back-off instead of using the software fallback. Not counted.
inline constexpr uint64_t kRetry = 1u << 8;
/// cond_wait only: the SE had already released the associated lock for the
/// core before the abort; the core must re-acquire it.
inline constexpr uint64_t kLockReleased = 1u << 9;
/// abort_global only (SE to SE, never seen by a core): the Master SE moved a
/// barrier to software and aborts every waiter the SE registered with it,
/// not only the one request the message answers (docs/protocol.md).
inline constexpr uint64_t kAllWaiters = 1u << 10;
inline uint64_t make(Opcode aborted, uint64_t flags = 0) { return static_cast<uint8_t>(aborted) | flags; }
inline Opcode aborted(uint64_t info) { return static_cast<Opcode>(info & 0xffu); }
} // namespace abort_info

} // namespace syncron
