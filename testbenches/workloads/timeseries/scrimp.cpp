// Time-series analysis: the SCRIMP matrix profile (Zhu et al., ICDM 2018) as
// the paper runs it, with locks and barriers. The series is replicated in
// every unit that has client cores (input replicated per unit); the profile
// (distance and index per subsequence) is partitioned over those units in
// contiguous ranges with one lock per entry, homed with the entry (output
// partitioned). Phase 1: each core computes the mean and deviation of its
// share of its unit's subsequences and stores them into every unit's
// replica; a barrier. Phase 2: diagonal k (from the exclusion zone window/4
// on) goes to client core k mod cores; the core carries the dot product
// along the diagonal, computes each pair's z-normalised distance and updates
// both entries of the pair, each under its lock (load the distance, and
// where smaller store distance and index); a barrier ends the run.
// Check: every distance equal (bit for bit: the same arithmetic in the same
// order, matrix_profile.h) to the host reference, and every index a match at
// exactly that distance (ties may pick another index).
// Cost: phase 1 per subsequence `window` loads, 2 stores per unit; phase 2
// per diagonal 2 window loads to start, then per pair 4 loads of the series,
// 4 of the statistics, about 20 instructions, and two lock/unlock pairs each
// with 1 load and up to 2 stores.
#include <cmath>
#include <limits>
#include <stdexcept>

#include "testbenches/workloads/applications.h"
#include "testbenches/workloads/double_bits.h"
#include "testbenches/workloads/timeseries/matrix_profile.h"
#include "testbenches/workloads/timeseries/series.h"

namespace syncron {
namespace {

class Scrimp final : public Workload {
public:
    explicit Scrimp(const WorkloadParams& p) : m_p(p) {}

    std::string name() const override { return "ts"; }
    uint64_t operations() const override { return m_lock_acquisitions + m_barrier_waits; }

    void setup(Driver& d) override {
        m_series =
            m_p.series.empty() ? random_walk(m_p.series_length, m_p.seed) : load_series(m_p.series, m_p.series_column);
        m_window = m_p.window;
        if (m_series.values.size() < 2 * uint64_t(m_window))
            throw std::invalid_argument("workload ts: the series (" + m_series.source + ") has " +
                                        std::to_string(m_series.values.size()) +
                                        " values, fewer than twice workload.window (" + std::to_string(m_window) + ")");
        const uint64_t n = m_series.values.size();
        m_count = n - m_window + 1;
        m_cores = d.client_cores();
        m_units = d.units();
        m_workers.clear();
        m_unit_cores.assign(m_units, 0);
        for (unsigned u = 0; u < m_units; ++u) {
            m_unit_cores[u] = d.client_cores_in_unit(u);
            if (m_unit_cores[u] > 0) m_workers.push_back(u);
        }
        if (m_workers.empty()) throw std::invalid_argument("workload ts: no client cores");
        // Output partition: contiguous ranges of subsequences over the worker units.
        m_owner.assign(m_count, 0);
        m_range.assign(m_units, {0, 0});
        for (size_t w = 0; w < m_workers.size(); ++w) {
            const uint64_t lo = w * m_count / m_workers.size(), hi = (w + 1) * m_count / m_workers.size();
            m_range[m_workers[w]] = {lo, hi};
            for (uint64_t i = lo; i < hi; ++i) m_owner[i] = m_workers[w];
        }
        const uint64_t per_unit =
            n * kWordBytes + 2 * m_count * kWordBytes + 2 * m_count * kWordBytes + m_count * 64 + 1024;
        for (unsigned u : m_workers)
            if (per_unit > d.free_bytes(u))
                throw std::invalid_argument("workload ts: a series of " + std::to_string(n) +
                                            " values does not fit in unit " + std::to_string(u) +
                                            "'s memory; use a shorter series or more memory (memory.unit_bytes)");
        m_x.assign(m_units, 0);
        m_mean.assign(m_units, 0);
        m_dev.assign(m_units, 0);
        m_dist.assign(m_units, 0);
        m_index.assign(m_units, 0);
        for (unsigned u : m_workers) {
            m_x[u] = d.allocate(u, n * kWordBytes, Sharing::read_only);
            m_mean[u] = d.allocate(u, m_count * kWordBytes, Sharing::shared);
            m_dev[u] = d.allocate(u, m_count * kWordBytes, Sharing::shared);
            for (uint64_t i = 0; i < n; ++i) d.write(m_x[u] + i * kWordBytes, bits(m_series.values[i]), kWordBytes);
            const auto [lo, hi] = m_range[u];
            const uint64_t entries = std::max<uint64_t>(1, hi - lo);
            m_dist[u] = d.allocate(u, entries * kWordBytes, Sharing::shared);
            m_index[u] = d.allocate(u, entries * kWordBytes, Sharing::shared);
            for (uint64_t i = lo; i < hi; ++i) {
                d.write(entry(m_dist, i), bits(std::numeric_limits<double>::infinity()), kWordBytes);
                d.write(entry(m_index, i), ~uint64_t(0), kWordBytes);
            }
        }
        m_locks.assign(m_count, 0);
        for (uint64_t i = 0; i < m_count; ++i) m_locks[i] = d.create_syncvar(m_owner[i]);
        m_barrier = d.create_syncvar(m_workers.front());
        m_lock_acquisitions = m_barrier_waits = m_local = m_remote = m_pairs = 0;
    }

    void run(CoreApi& c) override {
        const unsigned u = c.unit();
        // Phase 1: statistics of this core's share of its unit's subsequences, into every replica.
        const auto [lo, hi] = m_range[u];
        const uint64_t in_unit = std::max(1u, m_unit_cores[u]);
        const uint64_t first = lo + c.local_id() * (hi - lo) / in_unit;
        const uint64_t last = lo + (c.local_id() + 1) * (hi - lo) / in_unit;
        std::vector<double> buffer(m_window), other(m_window);
        for (uint64_t i = first; i < last; ++i) {
            for (unsigned t = 0; t < m_window; ++t) buffer[t] = x(c, i + t);
            c.compute(uint64_t(4) * m_window);
            const SubsequenceStats s = subsequence_stats(buffer.data(), m_window);
            for (unsigned w : m_workers) {
                access(c, w);
                c.store(m_mean[w] + i * kWordBytes, bits(s.mean), kWordBytes);
                access(c, w);
                c.store(m_dev[w] + i * kWordBytes, bits(s.deviation), kWordBytes);
            }
        }
        barrier(c);
        // Phase 2: this core's diagonals.
        const uint64_t zone = exclusion_zone(m_window);
        for (uint64_t k = zone + c.global_id(); k < m_count; k += m_cores) {
            double qt = 0;
            for (uint64_t i = 0; i + k < m_count; ++i) {
                const uint64_t j = i + k;
                if (i == 0) {
                    for (unsigned t = 0; t < m_window; ++t) {
                        buffer[t] = x(c, t);
                        other[t] = x(c, k + t);
                    }
                    c.compute(uint64_t(2) * m_window);
                    qt = dot(buffer.data(), other.data(), m_window);
                } else {
                    const double out_i = x(c, i - 1), out_j = x(c, j - 1);
                    const double in_i = x(c, i + m_window - 1), in_j = x(c, j + m_window - 1);
                    qt = next_dot(qt, out_i, out_j, in_i, in_j);
                }
                const SubsequenceStats a = stats(c, i), b = stats(c, j);
                c.compute(20);
                const double d = z_distance(qt, m_window, a, b);
                ++m_pairs;
                update(c, i, d, j);
                update(c, j, d, i);
            }
        }
        barrier(c);
    }

    CheckResult check(Driver& d) override {
        CheckResult r;
        try {
            const MatrixProfile expected = matrix_profile(m_series.values, m_window);
            uint64_t wrong = 0;
            for (uint64_t i = 0; i < m_count; ++i) {
                const double got = real(d.read(entry(m_dist, i), kWordBytes));
                const uint64_t at = d.read(entry(m_index, i), kWordBytes);
                std::string why;
                if (bits(got) != bits(expected.distance[i]))
                    why = "distance " + std::to_string(got) + ", expected " + std::to_string(expected.distance[i]);
                else if (at >= m_count || (at > i ? at - i : i - at) < exclusion_zone(m_window))
                    why = "index " + std::to_string(at) + " is not a valid match";
                else if (bits(pair_distance(m_series.values, m_window, i, at)) != bits(got))
                    why = "index " + std::to_string(at) + " is at distance " +
                          std::to_string(pair_distance(m_series.values, m_window, i, at)) + ", not " +
                          std::to_string(got);
                if (why.empty()) continue;
                if (++wrong <= 5) r.fail("ts profile: entry " + std::to_string(i) + ": " + why);
            }
            if (wrong > 5) r.fail("ts profile: " + std::to_string(wrong) + " entries differ in all");
        } catch (const std::exception& e) {
            r.fail("ts: reading the profile back failed: " + std::string(e.what()));
        }
        return r;
    }

    void report_stats(const StatContext&, nlohmann::json& out) const override {
        out["application"] = "ts";
        out["series"] = m_series.source;
        out["series_length"] = m_series.values.size();
        out["window"] = m_window;
        out["exclusion_zone"] = exclusion_zone(m_window);
        out["profile_entries"] = m_count;
        out["pairs"] = m_pairs;
        out["partition_units"] = m_workers.size();
        out["lock_acquisitions"] = m_lock_acquisitions;
        out["barrier_waits"] = m_barrier_waits;
        out["local_accesses"] = m_local;
        out["remote_accesses"] = m_remote;
        const uint64_t all = m_local + m_remote;
        out["remote_access_fraction"] = all ? double(m_remote) / double(all) : 0.0;
    }

private:
    uint64_t entry(const std::vector<uint64_t>& base, uint64_t i) const {
        const unsigned u = m_owner[i];
        return base[u] + (i - m_range[u].first) * kWordBytes;
    }
    void access(CoreApi& c, unsigned home) { ++(home == c.unit() ? m_local : m_remote); }
    double x(CoreApi& c, uint64_t i) {
        access(c, c.unit());
        return real(c.load(m_x[c.unit()] + i * kWordBytes, kWordBytes));
    }
    SubsequenceStats stats(CoreApi& c, uint64_t i) {
        SubsequenceStats s;
        access(c, c.unit());
        s.mean = real(c.load(m_mean[c.unit()] + i * kWordBytes, kWordBytes));
        access(c, c.unit());
        s.deviation = real(c.load(m_dev[c.unit()] + i * kWordBytes, kWordBytes));
        return s;
    }
    void update(CoreApi& c, uint64_t i, double d, uint64_t match) {
        c.lock_acquire(m_locks[i]);
        ++m_lock_acquisitions;
        access(c, m_owner[i]);
        if (d < real(c.load(entry(m_dist, i), kWordBytes))) {
            access(c, m_owner[i]);
            c.store(entry(m_dist, i), bits(d), kWordBytes);
            access(c, m_owner[i]);
            c.store(entry(m_index, i), match, kWordBytes);
        }
        c.lock_release(m_locks[i]);
    }
    void barrier(CoreApi& c) {
        c.barrier_wait_across_units(m_barrier, m_cores);
        ++m_barrier_waits;
    }

    WorkloadParams m_p;
    Series m_series;
    unsigned m_window = 0, m_cores = 0, m_units = 0;
    uint64_t m_count = 0;
    std::vector<unsigned> m_workers, m_unit_cores, m_owner;
    std::vector<std::pair<uint64_t, uint64_t>> m_range; ///< per unit: its profile entries [first, last)
    std::vector<uint64_t> m_x, m_mean, m_dev, m_dist, m_index;
    std::vector<SyncVar> m_locks;
    SyncVar m_barrier = 0;
    uint64_t m_lock_acquisitions = 0, m_barrier_waits = 0, m_local = 0, m_remote = 0, m_pairs = 0;
};

} // namespace

std::unique_ptr<Workload> make_ts(const WorkloadParams& p) { return std::make_unique<Scrimp>(p); }

} // namespace syncron
