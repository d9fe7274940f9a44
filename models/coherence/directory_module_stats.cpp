// One directory's group (docs/stats.md, "coherence"): messages by kind,
// what the transactions did, occupancy and the bytes of coherence traffic.
// The platform adds the groups of every unit into one.
#include <nlohmann/json.hpp>

#include "models/coherence/directory_module.h"

namespace syncron {

void DirectoryModule::report_stats(const StatContext&, nlohmann::json& out) const {
    const Directory::Stats& s = m_dir.stats();
    nlohmann::json messages = nlohmann::json::object();
    for (unsigned m = 0; m < kCoherenceMsgCount; ++m)
        messages[to_string(static_cast<CoherenceMsg>(m))] = m_traffic.messages[m];
    out["messages"] = messages;
    out["invalidations"] = m_traffic.messages[static_cast<unsigned>(CoherenceMsg::inv)];
    out["forwards"] = m_traffic.messages[static_cast<unsigned>(CoherenceMsg::fwd_get_s)] +
                      m_traffic.messages[static_cast<unsigned>(CoherenceMsg::fwd_get_m)];
    out["memory_reads"] = s.memory_reads;
    out["owner_data"] = s.owner_data;
    out["write_backs"] = s.write_backs;
    out["queued_requests"] = s.queued;
    out["stale_puts"] = s.stale_puts;
    out["lines_tracked_max"] = s.lines_max;
    out["lines_busy_max"] = s.busy_max;
    out["bytes_within_unit"] = m_traffic.bytes_within_unit;
    out["bytes_across_links"] = m_traffic.bytes_across_links;
}

} // namespace syncron
