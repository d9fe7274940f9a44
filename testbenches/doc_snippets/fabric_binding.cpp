// Template of docs/integration.md's binding snippet (scripts/doc-snippets.py):
// a bus of the usual shape (a multi-socket per side, an address map) and a
// two-unit fabric; the snippet runs once per unit. Elaboration then fails
// if any socket is left unbound or bound twice.
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/frontend/syncron_fabric.h"

namespace {

struct Bus : sc_core::sc_module {
    tlm_utils::multi_passthrough_initiator_socket<Bus, 32> out; // to targets
    tlm_utils::multi_passthrough_target_socket<Bus, 32> in;     // from masters
    struct Range {
        uint64_t begin, end;
        unsigned port;
    };
    std::vector<Range> m_map;

    explicit Bus(const sc_core::sc_module_name& name) : sc_module(name) {
        in.register_b_transport(this, &Bus::b_transport);
    }
    void map(uint64_t begin, uint64_t end, unsigned port) { m_map.push_back({begin, end, port}); }
    void b_transport(int /*id*/, tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        for (const Range& r : m_map)
            if (t.get_address() >= r.begin && t.get_address() < r.end) return out[r.port]->b_transport(t, delay);
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
};

} // namespace

int sc_main(int, char*[]) {
    syncron::FabricParams params;
    params.units = 2;
    params.window_base = 0x10000000;
    params.default_memory = false;
    syncron::SyncronFabric<32> fabric("fabric", params);
    Bus bus("bus");
    // A memory for the overflow traffic is the platform's; none is needed to
    // elaborate, so the bus has no RAM port here.
    for (unsigned u = 0; u < params.units; ++u) {
        const unsigned port = u;
        // @snippet fabric_binding
    }
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return 0;
}
