#pragma once
// Who a request at the Master SE comes from: one of its own cores, another SE
// as a whole, or an individual core of an overflowed SE.
#include <cstdint>
#include <string>

#include "models/protocol/message.h"
#include "models/se/core/info_fields.h"

namespace syncron {

struct Requester {
    enum Kind : uint8_t { own, se, remote } kind = own;
    uint16_t se_id = 0;
    uint16_t core = 0;

    static Requester of(const Message& m) {
        switch (level_of(m.op)) {
        case Level::local: return {own, 0, m.core};
        case Level::global: return {se, m.se, 0};
        default: return {remote, m.se, m.core};
        }
    }
    /// Lock owner as TableInfo: GlobalID | LocalID (the Master SE's own
    /// cores carry its ID, so they never collide with a remote core).
    uint64_t owner_code(unsigned master) const {
        using namespace info_fields;
        switch (kind) {
        case own: return kValid | (uint64_t(master) << 16) | core;
        case se: return kValid | kWholeSe | (uint64_t(se_id) << 16);
        default: return kValid | (uint64_t(se_id) << 16) | core;
        }
    }
    std::string describe() const {
        switch (kind) {
        case own: return "core " + std::to_string(core);
        case se: return "SE " + std::to_string(se_id);
        default: return "core " + std::to_string(core) + " of SE " + std::to_string(se_id);
        }
    }
};

} // namespace syncron
