// One core's group: what cores_summary adds up, and the messages it sent.
#include "models/core/ndp_core.h"

namespace syncron {

void NdpCore::report_stats(const StatContext&, nlohmann::json& out) const {
    out["instructions"] = stats().instructions;
    out["loads"] = stats().loads;
    out["stores"] = stats().stores;
    out["sync_requests"] = stats().sync_ops;
    out["l1_hits"] = stats().l1_hits;
    out["l1_misses"] = stats().l1_misses;
    out["sync_wait_ns_total"] = stats().ack_wait_time.to_seconds() * 1e9;
    if (m_pipeline) {
        // Multi-threaded cores only, so single-context statistics keep their keys.
        out["pipeline_wait_ns_total"] = stats().pipeline_wait.to_seconds() * 1e9;
        out["context_switches"] = stats().context_switches;
    }
    out["messages_sent"] =
        nonzero_counts(stats().messages_sent, [](size_t i) { return to_string(static_cast<Opcode>(i)); });
}

} // namespace syncron
