#pragma once
// The paper's nine data-structure workloads (Table 6, docs/workloads.md),
// written against CoreApi, one file each in this folder.
#include <memory>

#include "models/common/params.h"
#include "models/core/workload.h"

namespace syncron {

class WorkloadRegistry;

/// Registers every structure under its name with its Table 6 defaults.
void register_data_structures(WorkloadRegistry& registry);

std::unique_ptr<Workload> make_stack(const WorkloadParams& p);
std::unique_ptr<Workload> make_queue(const WorkloadParams& p);
std::unique_ptr<Workload> make_array_map(const WorkloadParams& p);
std::unique_ptr<Workload> make_priority_queue(const WorkloadParams& p);
std::unique_ptr<Workload> make_skip_list(const WorkloadParams& p);
std::unique_ptr<Workload> make_hash_table(const WorkloadParams& p);
std::unique_ptr<Workload> make_linked_list(const WorkloadParams& p);
std::unique_ptr<Workload> make_bst_fg(const WorkloadParams& p);
std::unique_ptr<Workload> make_bst_drachsler(const WorkloadParams& p);

} // namespace syncron
