#pragma once
// One SynCron message (paper Figure 5) in its decoded, model-internal form.
// Fields are wider than the 140-bit wire form so that platforms larger than
// 4 units x 16 cores work; wire_format.h packs it when the layout fits.
#include <cstdint>
#include <string>

#include "models/protocol/opcode.h"

namespace syncron {

struct Message {
    uint64_t addr = 0; ///< address of the synchronization variable
    Opcode op = Opcode::lock_acquire_local;
    uint16_t core = 0; ///< local ID of the core within its unit (local/overflow messages)
    uint16_t se = 0;   ///< global ID of the SE: sender of global/overflow requests, target of their replies
    uint64_t info = 0; ///< MessageInfo: barrier #cores, semaphore #resources, condvar lock address, rmw operand
    /// rmw_cas_* only: the expected value, the wire form's trailer flit (wire_format.h); zero otherwise.
    uint64_t expected = 0;

    bool operator==(const Message& o) const {
        return addr == o.addr && op == o.op && core == o.core && se == o.se && info == o.info && expected == o.expected;
    }
    bool operator!=(const Message& o) const { return !(*this == o); }
};

std::string to_string(const Message& m);

} // namespace syncron
