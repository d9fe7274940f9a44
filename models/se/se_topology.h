#pragma once
// What an SE must know about the system it sits in.
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

namespace syncron {

struct SeTopology {
    unsigned units = 4;
    unsigned cores_per_unit = 16;
    /// Client (workload) cores per unit; an across-units barrier whose initial
    /// count equals their sum aggregates per unit, any other count is one-level.
    std::vector<unsigned> client_cores{15, 15, 15, 15};
    /// Unit whose memory holds an address: its SE is the variable's Master SE.
    std::function<unsigned(uint64_t)> home_unit;

    unsigned total_client_cores() const {
        return std::accumulate(client_cores.begin(), client_cores.end(), 0u);
    }
};

} // namespace syncron
