#pragma once
// A validated read, write or atomic on its way to its bank (decoded once).
#include <cstdint>

#include <systemc>
#include <tlm>

#include "models/protocol/tlm/atomic_extension.h"

namespace syncron {

struct VaultRequest {
    tlm::tlm_generic_payload* trans;
    unsigned bank;
    uint64_t row;
    bool is_write;
    unsigned len;
    sc_core::sc_time arrival;
    AtomicExtension* atomic; ///< nullptr for a plain read/write
};

} // namespace syncron
