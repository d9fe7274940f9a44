#pragma once
// Whether an SE's syncronVar access (paper §4.3, the SE's `to_mem`) came
// back from memory in good order, as a free function so that the LT and AT
// shells of the SE decide alike. A memory that never sets the response
// status leaves TLM_INCOMPLETE_RESPONSE (the payload's initial status): some
// third-party memories do, and SeParams::accept_incomplete_response lets
// the SE take their data as it is (docs/integration.md).
#include <cstdint>
#include <optional>
#include <string>

#include <tlm>

namespace syncron {

/// Empty when the access succeeded; otherwise the error text, naming the
/// address, the response and, for TLM_INCOMPLETE_RESPONSE, its likely cause
/// and the option that accepts it.
/// `addr` is the variable's line as the SE addressed it (the bus may have
/// changed the payload's).
inline std::optional<std::string> memory_response_error(const tlm::tlm_generic_payload& t, uint64_t addr,
                                                        bool accept_incomplete_response) {
    const tlm::tlm_response_status s = t.get_response_status();
    if (s == tlm::TLM_OK_RESPONSE) return std::nullopt;
    if (s == tlm::TLM_INCOMPLETE_RESPONSE && accept_incomplete_response) return std::nullopt;
    std::string text =
        "syncronVar access failed at address " + std::to_string(addr) + " (" + t.get_response_string() + ")";
    if (s == tlm::TLM_INCOMPLETE_RESPONSE)
        text += ": the memory behind the SE's overflow socket likely never sets the response status; to accept "
                "such a memory, set SeParams::accept_incomplete_response (FabricParams::se.accept_incomplete_response "
                "= true)";
    return text;
}

} // namespace syncron
