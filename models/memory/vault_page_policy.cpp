#include "models/memory/vault_page_policy.h"

namespace syncron {

namespace {

/// Precharge as early as allowed; the bank is free once precharged, i.e.
/// activate + bank_occupancy, as the LT booking.
class ClosedPage final : public VaultPagePolicy {
public:
    explicit ClosedPage(const VaultTiming& timing) : m_timing(timing) {}
    sc_core::sc_time close(VaultBank& bank, uint64_t, const sc_core::sc_time&) const override {
        bank.open = false;
        return bank.pre_ready + m_timing.t_rp();
    }

private:
    const VaultTiming& m_timing;
};

/// The row stays open; the next column command may follow the data beats.
class OpenPage final : public VaultPagePolicy {
public:
    sc_core::sc_time close(VaultBank& bank, uint64_t row, const sc_core::sc_time& next_column) const override {
        bank.open = true;
        bank.row = row;
        return next_column;
    }
};

} // namespace

std::unique_ptr<VaultPagePolicy> VaultPagePolicy::make(PagePolicy policy, const VaultTiming& timing) {
    switch (policy) {
    case PagePolicy::open: return std::make_unique<OpenPage>();
    case PagePolicy::closed: break;
    }
    return std::make_unique<ClosedPage>(timing);
}

} // namespace syncron
