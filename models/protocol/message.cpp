#include "models/protocol/message.h"

#include <cstdio>

namespace syncron {

std::string to_string(const Message& m) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s addr=0x%llx se=%u core=%u info=0x%llx", std::string(to_string(m.op)).c_str(),
                  static_cast<unsigned long long>(m.addr), unsigned(m.se), unsigned(m.core),
                  static_cast<unsigned long long>(m.info));
    std::string text = buf;
    if (m.expected) { // rmw_cas_* only
        std::snprintf(buf, sizeof buf, " expected=0x%llx", static_cast<unsigned long long>(m.expected));
        text += buf;
    }
    return text;
}

} // namespace syncron
