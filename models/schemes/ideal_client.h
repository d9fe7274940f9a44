#pragma once
// The core side of the ideal scheme (docs/schemes.md, "ideal"): every Table 2
// call is a direct call to the IdealHub, answered without time or traffic.
#include <cstdint>

#include "models/core/core_services.h"
#include "models/core/sync_client.h"
#include "models/schemes/ideal_hub.h"

namespace syncron {

class IdealClient final : public SyncClient {
public:
    explicit IdealClient(IdealHub& hub) : m_hub(hub) {}
    void request(CoreServices& core, Opcode op, uint64_t var, uint64_t info) override;
    /// A zero-cost atomic: the word changes in memory at the core's time, no traffic.
    uint64_t rmw(CoreServices& core, RmwOp op, uint64_t addr, uint64_t operand, uint64_t expected) override {
        return core.instant_rmw(op, addr, operand, expected);
    }

private:
    IdealHub& m_hub;
};

} // namespace syncron
