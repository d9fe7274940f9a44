#pragma once
// Who sends or receives a SynCron message: a core (unit, local ID) or an SE.
#include <cstdint>

namespace syncron {

struct Endpoint {
    enum class Kind : uint8_t { core, se } kind = Kind::core;
    uint16_t unit = 0;
    uint16_t index = 0; ///< local core ID; 0 for an SE
    static Endpoint core(unsigned unit, unsigned id) { return {Kind::core, uint16_t(unit), uint16_t(id)}; }
    static Endpoint se(unsigned unit) { return {Kind::se, uint16_t(unit), 0}; }
    bool operator==(const Endpoint& o) const { return kind == o.kind && unit == o.unit && index == o.index; }
};

} // namespace syncron
