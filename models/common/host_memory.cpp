#include "models/common/host_memory.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include <sys/resource.h>

namespace syncron {

HostMemory host_memory_available() {
    HostMemory m;
    const auto consider = [&m](uint64_t bytes, const char* what) {
        if (bytes > 0 && (m.bytes == 0 || bytes < m.bytes)) m = {bytes, what};
    };
    std::ifstream meminfo("/proc/meminfo");
    for (std::string line; std::getline(meminfo, line);) {
        std::istringstream fields(line);
        std::string key;
        uint64_t kib = 0;
        if (fields >> key >> kib && key == "MemAvailable:") consider(kib * 1024, "MemAvailable");
    }
    for (const auto& [resource, what] : {std::pair{RLIMIT_AS, "RLIMIT_AS"}, std::pair{RLIMIT_DATA, "RLIMIT_DATA"}}) {
        rlimit lim{};
        if (getrlimit(resource, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) consider(lim.rlim_cur, what);
    }
    return m;
}

std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    unsigned u = 0;
    while (bytes >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

} // namespace syncron
