#pragma once
// One vault controller of an HMC-like cube (docs/vault_controller.md).
// Loosely-timed target: b_transport adds the access latency and any bank
// queueing to the annotated delay and never waits. Closed-page policy: every
// access activates its row and the bank precharges right after.
// Contention is a per-bank ResourceTimeline booked at the request's effective
// time (sc_time_stamp() + delay), first fit, so temporally decoupled
// initiators do not queue behind each other's future bookings; the timing
// helpers are separate from the transport code so an nb_transport (AT) path
// can reuse them.
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/address_map.h"
#include "models/common/params.h"
#include "models/common/resource_timeline.h"
#include "models/memory/backing_store.h"

namespace syncron {

class VaultController : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<VaultController> socket;

    /// When an access occupies its bank and when its data transfer completes
    /// (both absolute simulation times).
    struct Schedule {
        sc_core::sc_time start;
        sc_core::sc_time done;
    };

    /// `store` is the unit's memory, shared by the unit's vaults; it must
    /// outlive this module. `map` must outlive it as well.
    VaultController(const sc_core::sc_module_name& name, unsigned unit, unsigned vault,
                    const MemoryParams& params, const AddressMap& map, BackingStore& store);

    unsigned unit() const { return m_unit; }
    unsigned vault() const { return m_vault; }
    const MemoryParams& params() const { return m_params; }

    // Timing helpers (no side effects).
    /// Command-to-last-data latency once the bank is free:
    /// read tRCD + tCL + bursts*tBurst, write tRCD + bursts*tBurst.
    sc_core::sc_time access_latency(bool is_write, unsigned len) const;
    /// How long the bank stays unavailable after the access starts:
    /// read max(tRAS, tRCD + bursts*tBurst) + tRP,
    /// write tRCD + bursts*tBurst + tWR + tRP.
    sc_core::sc_time bank_occupancy(bool is_write, unsigned len) const;
    /// 64 B bursts needed for len bytes (at least one).
    static unsigned bursts(unsigned len) { return len == 0 ? 1u : (len + 63u) / 64u; }
    /// End of the last booking of `bank` (it may still have earlier gaps).
    sc_core::sc_time bank_busy_until(unsigned bank) const { return m_banks.at(bank).busy_until(); }
    const ResourceTimeline& bank_timeline(unsigned bank) const { return m_banks.at(bank); }

    // Statistics.
    uint64_t reads() const { return m_reads; }
    uint64_t writes() const { return m_writes; }
    uint64_t accesses() const { return m_reads + m_writes; }
    uint64_t bytes() const { return m_bytes_read + m_bytes_written; }
    uint64_t bytes_read() const { return m_bytes_read; }
    uint64_t bytes_written() const { return m_bytes_written; }
    /// Sum over accesses of the delay added (bank queueing + access latency).
    const sc_core::sc_time& total_latency() const { return m_total_latency; }
    sc_core::sc_time average_latency() const;
    /// Accesses that found their bank busy at their arrival and had to wait.
    uint64_t bank_conflicts(unsigned bank) const { return m_bank_conflicts.at(bank); }
    uint64_t bank_conflicts() const;
    /// Requests rejected with an error response (address, byte enable, burst).
    uint64_t errors() const { return m_errors; }
    void reset_stats();

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);

    /// TLM_OK_RESPONSE if this vault can serve the payload, else the error to return.
    tlm::tlm_response_status check(const tlm::tlm_generic_payload& trans, bool warn) const;
    /// Book the bank for an access arriving at `arrival` (first fit); updates
    /// bank state and conflict statistics.
    Schedule schedule(unsigned bank, bool is_write, unsigned len, const sc_core::sc_time& arrival);
    /// Move the data between the payload and the backing store.
    void copy_data(tlm::tlm_generic_payload& trans);

    unsigned m_unit;
    unsigned m_vault;
    MemoryParams m_params;
    const AddressMap& m_map;
    BackingStore& m_store;

    std::vector<ResourceTimeline> m_banks;
    std::vector<uint64_t> m_bank_conflicts;
    uint64_t m_reads = 0;
    uint64_t m_writes = 0;
    uint64_t m_bytes_read = 0;
    uint64_t m_bytes_written = 0;
    uint64_t m_errors = 0;
    sc_core::sc_time m_total_latency;
};

} // namespace syncron
