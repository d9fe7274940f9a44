#pragma once
// The core side of an NDP core's L1 (docs/coherence.md, "The L1 side"): the
// tag store (L1Cache) with the traffic of its misses and evictions, and, for
// lines the platform makes coherent, MESI permissions asked of the line's
// home directory and probes answered from the directory. Timing comes from
// the core's bus; the core calls it for every cacheable access.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <tlm>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/core/core_bus.h"
#include "models/core/core_stats.h"
#include "models/core/l1_cache.h"
#include "models/protocol/coherence.h"
#include "models/protocol/tlm/coherence_extension.h"

namespace syncron {

class CoherentL1 {
public:
    /// Which lines are coherent: not at all, as data, or as a
    /// synchronization variable's line (its traffic counts as synchronization).
    enum class Coherent : uint8_t { no, data, sync };

    /// `owner` names the reports; `stats` are the core's (L1 and coherence counts).
    CoherentL1(const sc_core::sc_object& owner, unsigned unit, unsigned local_id, const CoreParams& params,
               const AddressMap& map, const sc_core::sc_time& cycle, CoreStats& stats);

    /// The bus the misses and coherence requests go through (chosen with the core's timing).
    void set_bus(CoreBus& bus) { m_bus = &bus; }
    void set_cacheable(std::function<bool(uint64_t)> cacheable) { m_cacheable = std::move(cacheable); }
    void set_coherence(std::function<Coherent(uint64_t)> coherent, std::function<void(uint64_t line)> changed) {
        m_coherent = std::move(coherent);
        m_changed = std::move(changed);
    }
    /// Called when a coherent access is performed (the coherence order; tests replay it).
    void set_perform_hook(std::function<void(uint64_t addr)> hook) { m_perform_hook = std::move(hook); }

    bool coherent(uint64_t addr) const { return m_coherent && m_coherent(addr) != Coherent::no; }
    bool cacheable(uint64_t addr) const { return m_cacheable && m_cacheable(addr); }

    /// A non-coherent cacheable access: lookup plus the fill / write-back of a miss.
    void access(uint64_t addr, bool write);
    /// Gets read (or write) permission for addr's line; returns once the
    /// access may be performed. Call performed() right after performing it,
    /// before anything can wait.
    void acquire(uint64_t addr, bool write);
    /// The access of addr has been performed; the probes that waited for it
    /// may be answered now.
    void performed(uint64_t addr);
    /// Answers a probe from a directory (fills the extension and, for a
    /// forward, the data). False when it must wait for the pending access.
    bool probe(tlm::tlm_generic_payload& trans, CoherenceExtension& ext, bool may_defer);

    const L1Cache& cache() const { return m_l1; }
    /// How long the L1 takes to answer a hit or a probe.
    const sc_core::sc_time& hit_time() const { return m_hit_time; }
    unsigned line_bytes() const { return m_l1.line_bytes(); }

private:
    /// Makes a line leave the L1: a write-back of a dirty non-coherent line,
    /// put_m / put_e to the directory for a coherent one.
    void evict(const L1Cache::Victim& v);
    /// One coherence request to the line's home directory (blocking).
    void request(CoherenceMsg msg, uint64_t line, CoherenceExtension& ext);
    void changed(uint64_t line) {
        if (m_changed) m_changed(line);
    }
    /// The hit time, and the L1's counts copied into the core's statistics.
    void count_hit();

    const sc_core::sc_object& m_owner;
    unsigned m_unit;
    unsigned m_local_id;
    AddressMap m_map;
    sc_core::sc_time m_hit_time;
    CoreStats& m_stats;
    CoreBus* m_bus = nullptr;
    L1Cache m_l1;
    std::vector<uint8_t> m_line_buf; ///< fill / write-back data, one line
    std::function<bool(uint64_t)> m_cacheable;
    std::function<Coherent(uint64_t)> m_coherent;
    std::function<void(uint64_t)> m_changed;
    std::function<void(uint64_t)> m_perform_hook;

    /// The coherence request in progress (from sending it until the access
    /// it serves is performed): probes for its line may have to wait.
    struct Pending {
        uint64_t line;
        CoherenceMsg msg;
        bool invalidated; ///< get_s: an inv overtook the grant; use the line once
    };
    std::optional<Pending> m_pending;
    /// The line being evicted with put_m / put_e, until the directory has it.
    struct Evicting {
        uint64_t line;
        MesiState state;
    };
    std::optional<Evicting> m_evicting;
};

} // namespace syncron
