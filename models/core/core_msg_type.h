#pragma once
// The SystemC report message type of every NDP core report (one name, so a
// user's sc_report_handler actions for the cores cover all of them).
namespace syncron {

inline constexpr const char* kCoreMsgType = "/syncron/ndp_core";

} // namespace syncron
