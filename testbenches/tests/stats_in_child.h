#pragma once
// One simulation in a forked child, as the test suites run them (a SystemC
// kernel elaborates once per process): its statistics, or the child's error
// (child_result.h reads both).
#include <string>

#include <nlohmann/json.hpp>

#include "models/schemes/scheme_factory.h"
#include "platforms/run_in_child.h"
#include "platforms/simulation.h"

namespace syncron::test {

inline nlohmann::json stats_of(const SimParams& p) {
    return in_child([p] { return simulate(p).stats; });
}

/// A graph kernel on a small R-MAT graph (scale 6, edge factor 4; pr: 2
/// iterations) under one scheme and timing, AT with the protocol checker.
inline SimParams small_graph_kernel(const std::string& name, const std::string& scheme, Timing timing) {
    SimParams p;
    p.platform.timing = timing;
    p.platform.scheme = *scheme_from_string(scheme);
    p.check.protocol = timing == Timing::at;
    p.workload.name = name;
    p.workload.rmat_scale = 6;
    p.workload.rmat_edge_factor = 4;
    p.workload.ops = 2;
    return p;
}

} // namespace syncron::test
