#pragma once
// TableInfo / VarInfo encodings, per primitive, shared by the local SE, the
// Master SE and the overflow policies:
//   lock:      owner; bit 63 valid, bit 62 "an SE as a whole", bits 16..31 SE, 0..15 core
//   barrier:   current number of arrived cores
//   semaphore: bits 0..31 signed (posts - grants), 32..62 initial resources, 63 initial known
//   condvar:   address of the associated lock
// and the MessageInfo flags the SEs add to condition-variable messages.
#include <cstdint>

#include "models/se/core/var_state.h"

namespace syncron::info_fields {

inline constexpr uint64_t kValid = 1ull << 63;
inline constexpr uint64_t kWholeSe = 1ull << 62;
/// MessageInfo of a cond_signal_global that only withdraws an SE's
/// registration (the field is otherwise unused by signals).
inline constexpr uint64_t kCondWithdraw = 1;
/// Abort policy: MessageInfo bit 63 of a cond_wait_overflow a local SE re-sends
/// for a registered waiter (abort_global): the lock was already released.
inline constexpr uint64_t kCondLockReleased = 1ull << 63;

inline int32_t sem_delta(uint64_t info) { return static_cast<int32_t>(info & 0xffffffffu); }
inline uint32_t sem_init(uint64_t info) { return static_cast<uint32_t>((info >> 32) & 0x7fffffffu); }
inline bool sem_known(uint64_t info) { return (info >> 63) & 1u; }
/// A wait with MessageInfo `initial` would be granted at once.
inline bool sem_available(const VarState& s, uint64_t initial) {
    const int64_t init = sem_known(s.info) ? sem_init(s.info) : static_cast<int64_t>(initial);
    return init + sem_delta(s.info) > 0;
}
inline uint64_t sem_pack(int32_t delta, uint32_t init, bool known) {
    return (uint64_t(static_cast<uint32_t>(delta))) | (uint64_t(init & 0x7fffffffu) << 32) | (known ? kValid : 0);
}

} // namespace syncron::info_fields
