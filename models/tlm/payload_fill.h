#pragma once
// Sets up a generic payload for a plain access: no byte enables, no
// streaming, no DMI hint, response not yet given. Used by every initiator.
#include <cstdint>

#include <tlm>

namespace syncron {

inline void fill_payload(tlm::tlm_generic_payload& t, tlm::tlm_command cmd, uint64_t addr, uint8_t* data,
                         unsigned len) {
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_byte_enable_ptr(nullptr);
    t.set_byte_enable_length(0);
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

} // namespace syncron
