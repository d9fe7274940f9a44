// The consumer's own use of Boost.Program_options (linked through its
// Boost_LIBRARIES) next to a SynCron fabric from the installed package:
// both compile and link together.
#include <iostream>

#include <boost/program_options.hpp>
#include <systemc>

#include "models/frontend/syncron_fabric.h"

int sc_main(int argc, char* argv[]) {
    namespace po = boost::program_options;
    po::options_description opts("consumer");
    opts.add_options()("units", po::value<unsigned>()->default_value(2), "SynCron units");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, opts), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "consumer: " << e.what() << "\n";
        return 2;
    }
    syncron::FabricParams p;
    p.units = vm["units"].as<unsigned>();
    p.window_base = 0x10000000;
    p.vars.var_base = 0x80000000;
    p.default_memory = true;
    syncron::SyncronFabric<64> fabric("fabric", p); // built and linked; a platform would bind and run it
    std::cout << "consumer: PASS (" << fabric.units() << " units)\n";
    return 0;
}
