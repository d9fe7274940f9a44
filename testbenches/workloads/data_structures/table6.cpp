#include "testbenches/workloads/data_structures/table6.h"

#include <stdexcept>

namespace syncron {

const std::vector<DataStructureShape>& data_structure_shapes() {
    // Paper Table 6 (elements, mix). Operations per core: a default run takes
    // a few seconds of host time at 60 cores in LT (docs/workloads.md lists
    // the measured times); --ops or workload.ops sets any other number.
    static const std::vector<DataStructureShape> shapes = {
        {"stack", 100000, 100, 100, 100},       // 100% push
        {"queue", 100000, 100, 0, 100},         // 100% pop
        {"array_map", 10, 0, 50, 100},          // 100% lookup
        {"priority_queue", 20000, 100, 0, 100}, // 100% deleteMin
        {"skip_list", 5000, 100, 0, 100},       // 100% deletion
        {"hash_table", 1000, 0, 50, 100},       // 100% lookup
        {"linked_list", 20000, 0, 50, 2},       // 100% lookup (each ~5000 lock requests)
        {"bst_fg", 20000, 0, 50, 100},          // 100% lookup
        {"bst_drachsler", 10000, 100, 0, 100},  // 100% deletion
    };
    return shapes;
}

const DataStructureShape& data_structure_shape(const std::string& name) {
    for (const auto& s : data_structure_shapes())
        if (s.name == name) return s;
    throw std::invalid_argument("'" + name + "' is not a data-structure workload");
}

} // namespace syncron
