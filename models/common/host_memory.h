#pragma once
// How much memory this process may still take: a run whose inputs alone
// would need more is refused before they are built, with both numbers,
// rather than ending in std::bad_alloc after minutes (docs/reliability.md).
#include <cstdint>
#include <string>

namespace syncron {

struct HostMemory {
    uint64_t bytes = 0; ///< the smallest of the limits below that is set
    std::string what;   ///< which one: "MemAvailable", "RLIMIT_AS" or "RLIMIT_DATA"
};

/// The memory the host has available now (/proc/meminfo's MemAvailable),
/// or the process's address-space or data limit when smaller. `bytes` is 0
/// when none of them can be read (no limit known).
HostMemory host_memory_available();

/// `bytes` in binary units for messages ("3.5 GiB").
std::string format_bytes(double bytes);

} // namespace syncron
