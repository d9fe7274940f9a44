#include "models/core/core_stats.h"

namespace syncron {

const char* blocking_call_name(BlockingCall c) {
    switch (c) {
    case BlockingCall::lock_acquire: return "lock_acquire";
    case BlockingCall::barrier_wait_within_unit: return "barrier_wait_within_unit";
    case BlockingCall::barrier_wait_across_units: return "barrier_wait_across_units";
    case BlockingCall::sem_wait: return "sem_wait";
    case BlockingCall::cond_wait: return "cond_wait";
    case BlockingCall::count: break;
    }
    return "?";
}

} // namespace syncron
