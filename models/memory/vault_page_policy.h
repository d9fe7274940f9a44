#pragma once
// What a bank does with its row after an access (the AT row-state machine):
// the page policy, chosen by MemoryParams::page_policy (a PagePolicy enum),
// as DRAMSys picks its bank machines by the configured page policy.
#include <cstdint>
#include <memory>

#include <systemc>

#include "models/common/params.h"
#include "models/memory/vault_bank.h"
#include "models/memory/vault_timing.h"

namespace syncron {

class VaultPagePolicy {
public:
    virtual ~VaultPagePolicy() = default;

    /// After an access to `row` whose bank state (activate, pre_ready) is
    /// already updated: leave the row open or precharge it, and return when
    /// the bank takes its next access. `next_column` is the earliest next
    /// column command to the same open row (after this access's data beats).
    virtual sc_core::sc_time close(VaultBank& bank, uint64_t row, const sc_core::sc_time& next_column) const = 0;

    static std::unique_ptr<VaultPagePolicy> make(PagePolicy policy, const VaultTiming& timing);
};

} // namespace syncron
