// Template of docs/se.md's "Using it alone in a third-party platform"
// (scripts/doc-snippets.py): the snippet's includes at the top, its
// statements in sc_main, with the bus and the names it assumes.
// @snippet-head se_alone
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

namespace {

// The platform's interconnect as the snippet uses it: one initiator socket
// towards the SE, one target socket for the SE's three initiator sockets.
struct MyBus : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<MyBus> initiator_socket;
    tlm_utils::multi_passthrough_target_socket<MyBus> target_socket;
    explicit MyBus(const sc_core::sc_module_name& name) : sc_module(name) {
        target_socket.register_b_transport(this, &MyBus::b_transport);
    }
    void b_transport(int /*id*/, tlm::tlm_generic_payload& t, sc_core::sc_time& /*delay*/) {
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

} // namespace

int sc_main(int, char*[]) {
    MyBus my_bus("my_bus");
    auto& socket = my_bus.initiator_socket;
    const uint64_t lock_addr = 0x40;
    // @snippet se_alone
    return 0;
}
