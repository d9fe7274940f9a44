#include "models/memory/fr_fcfs_scheduler.h"

namespace syncron {

using sc_core::sc_time;

std::optional<VaultRequest> FrFcfsScheduler::pick(const std::vector<VaultBank>& banks, const sc_time& now) {
    int best = -1;
    bool best_hit = false;
    for (std::size_t i = 0; i < m_queue.size(); ++i) {
        const VaultRequest& q = m_queue[i];
        const VaultBank& b = banks[q.bank];
        if (b.free_at() > now) continue;
        const bool hit = b.row_hit(q.row);
        if (best < 0 || (hit && !best_hit)) {
            best = static_cast<int>(i);
            best_hit = hit;
            if (hit) break; // the oldest hit
        }
    }
    if (best < 0) return std::nullopt;
    const VaultRequest q = m_queue[best];
    m_queue.erase(m_queue.begin() + best);
    return q;
}

std::optional<sc_time> FrFcfsScheduler::next_free(const std::vector<VaultBank>& banks, const sc_time& now) const {
    std::optional<sc_time> next;
    for (const VaultRequest& q : m_queue) {
        const sc_time f = banks[q.bank].free_at();
        if (f > now && (!next || f < *next)) next = f;
    }
    return next;
}

} // namespace syncron
