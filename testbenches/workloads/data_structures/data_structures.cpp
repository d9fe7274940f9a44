#include "testbenches/workloads/data_structures/data_structures.h"

#include <map>

#include "platforms/workload_registry.h"
#include "testbenches/workloads/data_structures/table6.h"

namespace syncron {

void register_data_structures(WorkloadRegistry& registry) {
    const std::map<std::string, WorkloadRegistry::Factory> factories = {
        {"stack", &make_stack},
        {"queue", &make_queue},
        {"array_map", &make_array_map},
        {"priority_queue", &make_priority_queue},
        {"skip_list", &make_skip_list},
        {"hash_table", &make_hash_table},
        {"linked_list", &make_linked_list},
        {"bst_fg", &make_bst_fg},
        {"bst_drachsler", &make_bst_drachsler},
    };
    for (const DataStructureShape& s : data_structure_shapes()) {
        const auto it = factories.find(s.name);
        if (it == factories.end()) continue;
        registry.add(s.name, WorkloadInfo{it->second, s.default_ops, CoreMapping::fill_units, "data structures"});
    }
}

} // namespace syncron
