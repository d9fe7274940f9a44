#pragma once
// The vault's request queue and its FR-FCFS choice (Rixner et al., ISCA 2000):
// among the queued requests whose bank is free, the oldest row hit, else the
// oldest request. Requests to one address share bank and row, so they are
// never reordered among themselves. Plain class: the AT shell calls it at
// event times. The only scheduling policy today; a second one would make this
// an interface chosen by an enum, like VaultPagePolicy.
#include <cstddef>
#include <optional>
#include <vector>

#include <systemc>

#include "models/memory/vault_bank.h"
#include "models/memory/vault_request.h"

namespace syncron {

class FrFcfsScheduler {
public:
    explicit FrFcfsScheduler(unsigned depth) : m_depth(depth) { m_queue.reserve(depth); }

    bool full() const { return m_queue.size() >= m_depth; }
    std::size_t size() const { return m_queue.size(); }
    /// Enqueue (arrival order).
    void push(const VaultRequest& r) { m_queue.push_back(r); }
    /// Remove and return the request to issue now, if a queued one has a free bank.
    std::optional<VaultRequest> pick(const std::vector<VaultBank>& banks, const sc_core::sc_time& now);
    /// The earliest time after `now` at which the bank of a queued request
    /// becomes free; nullopt when none waits for a busy bank.
    std::optional<sc_core::sc_time> next_free(const std::vector<VaultBank>& banks, const sc_core::sc_time& now) const;

private:
    unsigned m_depth;
    std::vector<VaultRequest> m_queue; ///< in arrival order (oldest first)
};

} // namespace syncron
