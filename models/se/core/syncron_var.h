#pragma once
// The syncronVar structure (paper Figure 9) that backs a variable in memory
// when an ST overflows. Sized from the configuration:
//   Waitlist[units]       ceil(cores_per_unit/8) bytes each (>= 2: uint16_t as in the paper)
//   VarInfo               8 bytes
//   OverflowInfo          ceil((units+1)/8) bytes: bit s = SE s overflowed,
//                         bit `units` = the Master SE is serving it from memory
//   OverflowAcquires[units] 2 bytes each (model extension, see docs/protocol.md)
// A Waitlist with its OverflowInfo bit clear and all bits set stands for an
// SE waiting as a whole (§4.3 case 1); with the bit set it lists that SE's
// individual cores (case 2).
// Flat organization (SeOrganization::flat): the Master SE's own-core list has
// one bit per core of the system; bit c of Waitlist[u] is the core with flat
// index u * cores_per_unit + c, so the image has exactly the same size and
// fields (no SE ever waits as a whole or overflows).
#include <cstdint>
#include <vector>

#include "models/se/core/var_state.h"

namespace syncron {

class SyncronVarLayout {
public:
    SyncronVarLayout(unsigned units, unsigned cores_per_unit, bool flat = false);

    unsigned bytes() const { return m_bytes; }
    unsigned waitlist_bytes() const { return m_wl_bytes; }
    bool flat() const { return m_flat; }

    /// Decodes a syncronVar image into `out` as seen by the Master SE `master`.
    /// Returns whether the Master SE had marked it active.
    bool decode(const std::vector<uint8_t>& img, unsigned master, Primitive kind, VarState& out) const;
    /// Encodes `st` (the Master SE's view) into an image.
    void encode(const VarState& st, unsigned master, bool active, std::vector<uint8_t>& img) const;

private:
    unsigned m_units;
    unsigned m_cores;
    bool m_flat;
    unsigned m_wl_bytes;
    unsigned m_info_off;
    unsigned m_ovf_off;
    unsigned m_ovf_bytes;
    unsigned m_acq_off;
    unsigned m_bytes;
};

} // namespace syncron
