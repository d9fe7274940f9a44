#pragma once
// Whether a transfer is synchronization or data traffic (the paper's Figure 15
// splits data movement that way; docs/energy.md, "Data movement"). A payload
// is synchronization traffic when it carries a SynCron message, a remote
// atomic, or the SyncTrafficExtension marker, which the initiators whose every
// memory access serves synchronization set: the SE (syncronVar) and the
// server cores of the software schemes (their tables), or a coherence message
// for a synchronization variable's line. The crossbars and
// links count bytes by this class.
#include <cstdint>

#include <tlm>

#include "models/protocol/tlm/atomic_extension.h"
#include "models/protocol/tlm/coherence_extension.h"
#include "models/protocol/tlm/syncron_extension.h"

namespace syncron {

enum class TrafficClass : uint8_t { data, sync };

/// Marker: this memory access is made on behalf of a synchronization scheme.
class SyncTrafficExtension : public tlm::tlm_extension<SyncTrafficExtension> {
public:
    tlm::tlm_extension_base* clone() const override { return new SyncTrafficExtension(*this); }
    void copy_from(const tlm::tlm_extension_base&) override {}
};

inline TrafficClass traffic_class(const tlm::tlm_generic_payload& trans) {
    const bool sync = trans.get_extension<SyncronExtension>() != nullptr ||
                      trans.get_extension<AtomicExtension>() != nullptr ||
                      trans.get_extension<SyncTrafficExtension>() != nullptr;
    if (sync) return TrafficClass::sync;
    // Coherence messages are synchronization traffic for the lines of
    // synchronization variables (mesi_lock), data traffic otherwise.
    const CoherenceExtension* coh = trans.get_extension<CoherenceExtension>();
    return coh && coh->sync ? TrafficClass::sync : TrafficClass::data;
}

} // namespace syncron
