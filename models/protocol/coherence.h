#pragma once
// The MESI directory protocol's vocabulary (docs/coherence.md): the stable
// states of an L1 line and the messages between L1s and a directory. Plain
// C++: the directory's function (models/coherence/core) and the TLM
// extension that carries a message (models/protocol/tlm) share it.
#include <cstdint>

namespace syncron {

/// Stable state of a line in an L1 (I when absent).
enum class MesiState : uint8_t { I, S, E, M };

/// One coherence message. Requests go from an L1 to the line's home
/// directory; probes from the directory to an L1 (their TLM response is the
/// acknowledgement, with the line's data for the forwards).
enum class CoherenceMsg : uint8_t {
    get_s,     ///< read permission (grant S, or E when no other cache holds the line)
    get_m,     ///< write permission (grant M); also the upgrade from S
    put_m,     ///< eviction of a modified line, with its data
    put_e,     ///< eviction of an exclusive clean line
    inv,       ///< invalidate a shared copy
    fwd_get_s, ///< the owner downgrades to S and returns the line
    fwd_get_m, ///< the owner invalidates and returns the line
};
constexpr unsigned kCoherenceMsgCount = 7;

inline const char* to_string(MesiState s) {
    switch (s) {
    case MesiState::I: return "I";
    case MesiState::S: return "S";
    case MesiState::E: return "E";
    case MesiState::M: return "M";
    }
    return "?";
}

inline const char* to_string(CoherenceMsg m) {
    switch (m) {
    case CoherenceMsg::get_s: return "get_s";
    case CoherenceMsg::get_m: return "get_m";
    case CoherenceMsg::put_m: return "put_m";
    case CoherenceMsg::put_e: return "put_e";
    case CoherenceMsg::inv: return "inv";
    case CoherenceMsg::fwd_get_s: return "fwd_get_s";
    case CoherenceMsg::fwd_get_m: return "fwd_get_m";
    }
    return "?";
}

inline bool is_request(CoherenceMsg m) { return m <= CoherenceMsg::put_e; }

} // namespace syncron
