#pragma once
// The data structures' defaults: sizes and operation mixes of paper Table 6,
// and operations per core that keep a default run interactive.
#include <cstdint>
#include <string>
#include <vector>

namespace syncron {

struct DataStructureShape {
    std::string name;
    uint64_t elements;       ///< Table 6 initial size
    unsigned update_percent; ///< Table 6: % of operations that modify the structure
    unsigned insert_percent; ///< Table 6: % of those updates that insert
    unsigned default_ops;    ///< operations per core when workload.ops is unset
};

/// The nine structures in the order --help lists them.
const std::vector<DataStructureShape>& data_structure_shapes();
/// The shape of `name`; std::invalid_argument for another name.
const DataStructureShape& data_structure_shape(const std::string& name);

} // namespace syncron
