#pragma once
// The core side of the ideal scheme (docs/schemes.md, "ideal"): every Table 2
// call is a direct call to the IdealHub, answered without time or traffic.
#include <cstdint>

#include "models/core/sync_client.h"
#include "models/schemes/ideal_hub.h"

namespace syncron {

class IdealClient final : public SyncClient {
public:
    explicit IdealClient(IdealHub& hub) : m_hub(hub) {}
    void request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) override;

private:
    IdealHub& m_hub;
};

} // namespace syncron
