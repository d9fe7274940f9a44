#include "models/schemes/scheme.h"

namespace syncron {

const std::vector<std::string>& scheme_names() {
    static const std::vector<std::string> names = {"syncron", "flat",           "central",
                                                   "hier",    "ideal",          "remote_atomics",
                                                   "syncron_central_ovrfl", "syncron_distrib_ovrfl"};
    return names;
}

const char* to_string(Scheme s) { return scheme_names().at(static_cast<unsigned>(s)).c_str(); }

std::optional<Scheme> scheme_from_string(const std::string& name) {
    const auto& names = scheme_names();
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return static_cast<Scheme>(i);
    return std::nullopt;
}

bool uses_ses(Scheme s) {
    return s == Scheme::syncron || s == Scheme::flat || s == Scheme::syncron_central_ovrfl ||
           s == Scheme::syncron_distrib_ovrfl;
}

SeOrganization se_organization(Scheme s) {
    return s == Scheme::flat ? SeOrganization::flat : SeOrganization::hierarchical;
}

OverflowPolicy se_overflow(Scheme s) {
    return s == Scheme::syncron_central_ovrfl || s == Scheme::syncron_distrib_ovrfl ? OverflowPolicy::abort
                                                                                      : OverflowPolicy::integrated;
}

bool per_unit_servers(Scheme s) { return s == Scheme::hier || s == Scheme::syncron_distrib_ovrfl; }

bool has_servers(Scheme s) {
    return s == Scheme::central || s == Scheme::syncron_central_ovrfl || per_unit_servers(s);
}

bool has_server(Scheme s, unsigned unit) { return has_servers(s) && (per_unit_servers(s) || unit == 0); }

} // namespace syncron
