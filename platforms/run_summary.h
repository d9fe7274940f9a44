#pragma once
// What the printed summary of a run shows (syncron-sim without --compare),
// read once from the run's statistics JSON (docs/stats.md). A key the
// statistics must hold and lack is an error naming it, not a silent zero.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace syncron {

/// stats[key], or std::out_of_range naming `where` and `key` when it is missing.
const nlohmann::json& stat_at(const nlohmann::json& stats, const std::string& key, const std::string& where);

struct RunSummary {
    struct Se {
        unsigned unit = 0;
        uint64_t messages = 0; ///< received, all kinds
        double st_occupancy_avg = 0;
        unsigned st_occupancy_max = 0;
        unsigned st_entries = 0;
        uint64_t overflow_requests = 0;
    };
    struct Server {
        unsigned unit = 0;
        uint64_t messages_handled = 0;
        double busy_fraction = 0;
    };
    struct Atomics {
        uint64_t cas = 0, cas_failures = 0, swap = 0, faa = 0;
    };
    struct Misar {
        uint64_t aborts = 0, fallbacks = 0, retries = 0;
    };
    /// Energy by component, picojoules (docs/energy.md).
    struct Energy {
        double cores = 0, caches = 0, network = 0, links = 0, memory = 0, se = 0, total = 0;
    };
    /// Bytes moved, by where and by kind (docs/energy.md, "Data movement").
    struct DataMovement {
        uint64_t within_data = 0, within_sync = 0, across_data = 0, across_sync = 0;
    };
    /// One kind of blocking call's request-to-grant latency (sync_latency).
    struct Latency {
        std::string call; ///< lock_acquire, barrier_wait_within_unit, ...
        uint64_t count = 0;
        double mean_ns = 0, p50_ns = 0, p95_ns = 0, p99_ns = 0, max_ns = 0;
    };
    /// How the lock acquisitions and waits spread over the client cores and
    /// units (lock_fairness).
    struct Fairness {
        double share_min = 0, share_max = 0;
        double wait_jain_index = 0; ///< over the per-core mean waits
        /// Lowest and highest per-core wait percentiles, ns.
        double p50_lo = 0, p50_hi = 0, p99_lo = 0, p99_hi = 0, max_lo = 0, max_hi = 0;
        std::vector<double> unit_shares; ///< per unit, its share of the acquisitions
        /// Hand-offs that kept the lock in its unit and that moved it; only when the SEs served the locks.
        std::optional<uint64_t> handoffs_within, handoffs_across;
    };

    // What ran (always in the statistics).
    std::string scheme, workload, timing;
    unsigned cores = 0, units = 0;
    double throughput_ops_per_us = 0;
    // The platform's figures: zero and empty when the platform was never built.
    uint64_t bytes_within_units = 0, bytes_across_links = 0, sync_messages = 0;
    Energy energy;
    DataMovement data_movement;
    std::vector<Se> ses; ///< empty when the scheme does not use the SEs
    std::vector<std::string> sync_variables;
    // The scheme's sections, present as the scheme writes them.
    std::vector<Server> servers;
    std::optional<Atomics> atomics;
    std::optional<Misar> misar;
    std::vector<Latency> latency;     ///< the blocking calls the run made
    std::optional<Fairness> fairness; ///< when the run acquired locks

    /// Reads the statistics of simulate(); throws std::out_of_range for a missing key.
    static RunSummary from_stats(const nlohmann::json& j);
};

} // namespace syncron
