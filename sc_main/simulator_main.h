#pragma once
// syncron-sim as a library: a program that registers workloads of its own
// (examples/custom_workload) runs the same command line, outputs and exit
// statuses (README, docs/configuration.md) over them. Define
//   int sc_main(int argc, char* argv[]) { return syncron::simulator_sc_main(argc, argv); }
// and call simulator_main() from main() after registering.
#include <systemc> // declares sc_main (extern "C")

namespace syncron {

/// The body of syncron-sim's sc_main: the command line in, the exit status out.
int simulator_sc_main(int argc, char* argv[]);

/// Starts SystemC (sc_elab_and_sim), which calls the program's sc_main.
int simulator_main(int argc, char* argv[]);

} // namespace syncron
