#pragma once
// Registers every workload shipped under testbenches/workloads with the
// platform's registry. Programs that run simulations by workload name
// (syncron-sim, the test suites) call it once before parsing options.
namespace syncron {

class WorkloadRegistry;

void register_builtin_workloads(WorkloadRegistry& registry);

} // namespace syncron
