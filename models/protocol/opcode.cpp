#include "models/protocol/opcode.h"

#include <array>

namespace syncron {
namespace {
constexpr std::array<std::string_view, kOpcodeCount> kNames = {
    "lock_acquire_global",
    "lock_acquire_local",
    "lock_acquire_overflow",
    "lock_release_global",
    "lock_release_local",
    "lock_release_overflow",
    "lock_grant_global",
    "lock_grant_local",
    "lock_grant_overflow",
    "barrier_wait_global",
    "barrier_wait_local_within_unit",
    "barrier_wait_local_across_units",
    "barrier_wait_overflow",
    "barrier_depart_global",
    "barrier_depart_local",
    "barrier_departure_overflow",
    "sem_wait_global",
    "sem_wait_local",
    "sem_wait_overflow",
    "sem_grant_global",
    "sem_grant_local",
    "sem_grant_overflow",
    "sem_post_global",
    "sem_post_local",
    "sem_post_overflow",
    "cond_wait_global",
    "cond_wait_local",
    "cond_wait_overflow",
    "cond_signal_global",
    "cond_signal_local",
    "cond_signal_overflow",
    "cond_broad_global",
    "cond_broad_local",
    "cond_broad_overflow",
    "cond_grant_global",
    "cond_grant_local",
    "cond_grant_overflow",
    "decrease_indexing_counter",
    "abort_local",
    "abort_global",
    "abort_overflow",
    "cond_registered_global",
    "cond_registered_overflow",
    "rmw_fetch_add_local",
    "rmw_swap_local",
    "rmw_cas_local",
    "rmw_min_local",
    "rmw_max_local",
    "rmw_fetch_add_global",
    "rmw_swap_global",
    "rmw_cas_global",
    "rmw_min_global",
    "rmw_max_global",
    "rmw_reply_global",
    "rmw_reply_local",
};
static_assert(static_cast<unsigned>(Opcode::decrease_indexing_counter) + 1 == kPaperOpcodeCount);
static_assert(static_cast<unsigned>(Opcode::rmw_reply_local) + 1 == kOpcodeCount);

unsigned idx(Opcode op) { return static_cast<unsigned>(op); }
} // namespace

std::string_view to_string(Opcode op) {
    return idx(op) < kOpcodeCount ? kNames[idx(op)] : std::string_view("invalid_opcode");
}

std::optional<Opcode> opcode_from_string(std::string_view name) {
    for (unsigned i = 0; i < kOpcodeCount; ++i)
        if (kNames[i] == name) return static_cast<Opcode>(i);
    return std::nullopt;
}

std::optional<Opcode> opcode_from_raw(unsigned raw) {
    if (raw >= kOpcodeCount) return std::nullopt;
    return static_cast<Opcode>(raw);
}

Primitive primitive_of(Opcode op) {
    const unsigned i = idx(op);
    if (i <= idx(Opcode::lock_grant_overflow)) return Primitive::lock;
    if (i <= idx(Opcode::barrier_departure_overflow)) return Primitive::barrier;
    if (i <= idx(Opcode::sem_post_overflow)) return Primitive::semaphore;
    if (i <= idx(Opcode::cond_grant_overflow)) return Primitive::condvar;
    if (op == Opcode::cond_registered_global || op == Opcode::cond_registered_overflow) return Primitive::condvar;
    return Primitive::other;
}

namespace {
// The level table in opcode.h is written out by hand; check it against the
// names once (the suffix says the level, save three barrier opcodes).
Level level_from_name(Opcode op) {
    switch (op) {
    case Opcode::decrease_indexing_counter: return Level::other;
    case Opcode::barrier_wait_local_within_unit:
    case Opcode::barrier_wait_local_across_units: return Level::local;
    case Opcode::barrier_departure_overflow: return Level::overflow;
    default: break;
    }
    const std::string_view n = to_string(op);
    if (n.size() >= 6 && n.substr(n.size() - 6) == "_local") return Level::local;
    // The rmw messages between SEs name the requesting core: their CoreID is
    // split like the overflow level's.
    if (n.size() >= 7 && n.substr(n.size() - 7) == "_global") return is_rmw(op) ? Level::overflow : Level::global;
    if (n.size() >= 9 && n.substr(n.size() - 9) == "_overflow") return Level::overflow;
    return Level::other;
}
} // namespace

bool level_table_matches_names() {
    for (unsigned i = 0; i < kOpcodeCount; ++i)
        if (kOpcodeLevels[i] != level_from_name(static_cast<Opcode>(i))) return false;
    return true;
}

bool is_acquire_type(Opcode op) {
    switch (op) {
    case Opcode::lock_acquire_global:
    case Opcode::lock_acquire_local:
    case Opcode::lock_acquire_overflow:
    case Opcode::barrier_wait_global:
    case Opcode::barrier_wait_local_within_unit:
    case Opcode::barrier_wait_local_across_units:
    case Opcode::barrier_wait_overflow:
    case Opcode::sem_wait_global:
    case Opcode::sem_wait_local:
    case Opcode::sem_wait_overflow:
    case Opcode::cond_wait_global:
    case Opcode::cond_wait_local:
    case Opcode::cond_wait_overflow: return true;
    default: return false;
    }
}

bool is_core_request(Opcode op) {
    switch (op) {
    case Opcode::lock_acquire_local:
    case Opcode::lock_release_local:
    case Opcode::barrier_wait_local_within_unit:
    case Opcode::barrier_wait_local_across_units:
    case Opcode::sem_wait_local:
    case Opcode::sem_post_local:
    case Opcode::cond_wait_local:
    case Opcode::cond_signal_local:
    case Opcode::cond_broad_local: return true;
    default: return is_rmw_request(op) && level_of(op) == Level::local;
    }
}

bool is_sync_request(Opcode op) { return is_core_request(op) && is_acquire_type(op); }

Opcode grant_of(Opcode request) {
    switch (request) {
    case Opcode::lock_acquire_local: return Opcode::lock_grant_local;
    case Opcode::barrier_wait_local_within_unit:
    case Opcode::barrier_wait_local_across_units: return Opcode::barrier_depart_local;
    case Opcode::sem_wait_local: return Opcode::sem_grant_local;
    case Opcode::cond_wait_local: return Opcode::cond_grant_local;
    default: return request;
    }
}

Opcode local_opcode_of(Opcode request) {
    switch (request) {
    case Opcode::lock_acquire_global:
    case Opcode::lock_acquire_overflow: return Opcode::lock_acquire_local;
    case Opcode::lock_release_global:
    case Opcode::lock_release_overflow: return Opcode::lock_release_local;
    case Opcode::barrier_wait_global:
    case Opcode::barrier_wait_overflow: return Opcode::barrier_wait_local_across_units;
    case Opcode::sem_wait_global:
    case Opcode::sem_wait_overflow: return Opcode::sem_wait_local;
    case Opcode::sem_post_global:
    case Opcode::sem_post_overflow: return Opcode::sem_post_local;
    case Opcode::cond_wait_global:
    case Opcode::cond_wait_overflow: return Opcode::cond_wait_local;
    case Opcode::cond_signal_global:
    case Opcode::cond_signal_overflow: return Opcode::cond_signal_local;
    case Opcode::cond_broad_global:
    case Opcode::cond_broad_overflow: return Opcode::cond_broad_local;
    default: return request;
    }
}

Opcode overflow_opcode_of(Opcode request) {
    switch (request) {
    case Opcode::lock_acquire_local:
    case Opcode::lock_acquire_global: return Opcode::lock_acquire_overflow;
    case Opcode::barrier_wait_local_within_unit:
    case Opcode::barrier_wait_local_across_units:
    case Opcode::barrier_wait_global: return Opcode::barrier_wait_overflow;
    case Opcode::sem_wait_local:
    case Opcode::sem_wait_global: return Opcode::sem_wait_overflow;
    case Opcode::cond_wait_local:
    case Opcode::cond_wait_global: return Opcode::cond_wait_overflow;
    default: return request;
    }
}

} // namespace syncron
