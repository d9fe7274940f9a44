#pragma once
// What an NDP core is doing, for waveform tracing (docs/traces.md).
namespace syncron {

enum class CoreState { computing, memory, waiting_sync, done };

} // namespace syncron
