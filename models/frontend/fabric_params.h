#pragma once
// Parameters of the SynCron fabric (docs/integration.md): the units, the
// harts' register windows and the range of synchronization variables.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "models/common/params.h"
#include "models/frontend/sw/syncron_mmio_regs.h"

namespace syncron {

/// Where synchronization variables live: unit u's SE is the Master SE of
/// [var_base + u * unit_bytes, var_base + (u + 1) * unit_bytes).
struct VariableSpace {
    uint64_t var_base = 0;
    uint64_t unit_bytes = 1ull << 20;
    unsigned units = 1;

    bool contains(uint64_t addr) const { return addr >= var_base && (addr - var_base) / unit_bytes < units; }
    /// Master SE of a variable; `units` when it is outside the range.
    unsigned home(uint64_t addr) const {
        return contains(addr) ? static_cast<unsigned>((addr - var_base) / unit_bytes) : units;
    }
};

struct FabricParams {
    unsigned units = 1;          ///< SEs (clusters, NDP units)
    unsigned harts_per_unit = 4; ///< harts served by each SE
    /// Address of hart 0's register window; hart h (global ID) at
    /// window_base + h * window_bytes, as the platform's memory map has it.
    uint64_t window_base = 0;
    uint64_t window_bytes = SYNCRON_MMIO_DEFAULT_WINDOW; ///< power of two, >= SYNCRON_MMIO_MIN_WINDOW
    /// What address the bus passes each front end: false, the absolute
    /// address (window_base + ...); true, the offset from the start of the
    /// front end's own mapping, [unit_window_begin(u), unit_window_end(u)),
    /// as buses that subtract the port's base do.
    bool port_offsets = false;
    VariableSpace vars;         ///< vars.units is set from units
    double access_ns = 1.0;     ///< latency of one register access
    Timing timing = Timing::lt; ///< how the SEs initiate inside the fabric
    /// Bind each unit's overflow socket to a vault of the project's own memory
    /// model instead of leaving it to the integrator.
    bool default_memory = false;
    /// LT: a blocking command load returns a delay never smaller than the one
    /// passed in (the hart's time ends at the grant plus its offset), for
    /// quantum keepers that assert it. Off: the delay is annotated down to the
    /// grant, which may lower it (legal TLM, and exact).
    bool monotonic_delay = false;
    /// A bad access gets a TLM error response (true), or TLM_OK_RESPONSE with
    /// its STATUS code in a load's data (false), for ISSs that trap on every
    /// error response. STATUS says why in both cases.
    bool error_responses = true;
    SeParams se;
    XbarParams xbar;
    LinkParams link;
    MemoryParams memory; ///< the default memory's timing

    uint64_t windows_end() const { return window_base + uint64_t(units) * harts_per_unit * window_bytes; }
};

/// Throws std::invalid_argument naming the parameter that does not fit a
/// bus of `bus_bits` data bits (32 or 64; a 32-bit bus also has 32-bit addresses).
inline void validate(const FabricParams& p, unsigned bus_bits) {
    const auto bad = [](const std::string& what) { throw std::invalid_argument("SyncronFabric: " + what); };
    if (p.units == 0) bad("units must be at least 1");
    if (p.harts_per_unit == 0) bad("harts_per_unit must be at least 1");
    if (bus_bits != 32 && bus_bits != 64) bad("bus width must be 32 or 64 bits, got " + std::to_string(bus_bits));
    if (p.window_bytes < SYNCRON_MMIO_MIN_WINDOW || (p.window_bytes & (p.window_bytes - 1)) != 0)
        bad("window_bytes " + std::to_string(p.window_bytes) + " must be a power of two of at least " +
            std::to_string(SYNCRON_MMIO_MIN_WINDOW));
    if (p.window_base % p.window_bytes != 0)
        bad("window_base " + std::to_string(p.window_base) + " must be aligned to window_bytes " +
            std::to_string(p.window_bytes));
    if (p.vars.unit_bytes == 0 || p.vars.unit_bytes % 64 != 0)
        bad("vars.unit_bytes must be a positive multiple of 64 (one line per variable)");
    if (!(p.access_ns >= 0)) bad("access_ns must not be negative");
    const uint64_t limit = bus_bits == 32 ? (1ull << 32) : 0; // 0: the whole 64-bit space
    const unsigned hart_count = p.units * p.harts_per_unit;
    if (p.window_bytes > (~0ull - p.window_base) / hart_count) bad("the register windows overflow the address space");
    if (limit && p.windows_end() > limit)
        bad("the register windows [window_base, window_base + units * harts_per_unit * window_bytes) end at " +
            std::to_string(p.windows_end()) + ", beyond the 32-bit address space of a 32-bit bus");
    if (p.vars.unit_bytes > (~0ull - p.vars.var_base) / p.units) bad("the variable range overflows the address space");
    const uint64_t vars_end = p.vars.var_base + p.units * p.vars.unit_bytes;
    if (limit && vars_end > limit)
        bad("the variable range ends at " + std::to_string(vars_end) +
            ", beyond the 32-bit address space of a 32-bit bus");
    if (p.window_base < vars_end && p.vars.var_base < p.windows_end())
        bad("the register windows overlap the variable range");
}

} // namespace syncron
