#pragma once
// The energy account of a run (docs/energy.md): per component, dynamic
// energy from event counts times a per-event figure, static energy from a
// power times the run's simulated time. Plain arithmetic over counters the
// models already keep, so it is tested without SystemC and costs nothing
// while simulating.
#include <cstdint>

#include "models/common/params.h"

namespace syncron {

/// What a run did, as far as energy is concerned. Filled by the platform from
/// its modules' statistics.
struct EnergyCounters {
    double seconds = 0;        ///< simulated time of the run
    uint64_t cores = 0;        ///< hardware cores charged static power (clients and servers)
    uint64_t instructions = 0; ///< executed by every core (clients and servers)
    uint64_t l1_hits = 0;      ///< every core's L1
    uint64_t l1_misses = 0;
    uint64_t xbar_bytes = 0;   ///< bytes through crossbars, once per crossbar crossed (one hop)
    uint64_t link_bytes = 0;   ///< bytes over inter-unit links
    uint64_t memory_bytes = 0; ///< bytes read and written in DRAM (an atomic counts both)
    uint64_t activations = 0;  ///< row activations
    uint64_t memory_units = 0; ///< units whose memory is charged background power
    uint64_t ses = 0;          ///< SEs charged their power (0 when the scheme does not use them)
};

/// One component's energy, in picojoules.
struct EnergyComponent {
    double dynamic_pj = 0;
    double static_pj = 0;
    double total_pj() const { return dynamic_pj + static_pj; }
};

struct EnergyAccount {
    EnergyComponent cores;   ///< instructions and core static power
    EnergyComponent caches;  ///< L1 hits and misses
    EnergyComponent network; ///< crossbars within units
    EnergyComponent links;   ///< links between units
    EnergyComponent memory;  ///< DRAM accesses, activations, background
    EnergyComponent se;      ///< Synchronization Engines
    double total_pj() const;
};

EnergyAccount energy_of(const EnergyCounters& counters, const EnergyParams& params);

} // namespace syncron
