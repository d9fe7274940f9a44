#include "models/common/scheme.h"

namespace syncron {

const std::vector<std::string>& scheme_names() {
    static const std::vector<std::string> names = {"syncron",
                                                   "flat",
                                                   "central",
                                                   "hier",
                                                   "ideal",
                                                   "remote_atomics",
                                                   "syncron_central_ovrfl",
                                                   "syncron_distrib_ovrfl",
                                                   "mesi_lock"};
    return names;
}

const char* to_string(Scheme s) { return scheme_names().at(static_cast<unsigned>(s)).c_str(); }

std::optional<Scheme> scheme_from_string(const std::string& name) {
    const auto& names = scheme_names();
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return static_cast<Scheme>(i);
    return std::nullopt;
}

} // namespace syncron
