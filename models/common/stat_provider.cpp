#include "models/common/stat_provider.h"

#include <stdexcept>

namespace syncron {

void accumulate_stats(nlohmann::json& total, const nlohmann::json& part) {
    if (!total.is_object() && !total.is_null()) throw std::invalid_argument("accumulate_stats: total is no object");
    for (auto it = part.begin(); it != part.end(); ++it) {
        const nlohmann::json& v = it.value();
        if (!total.contains(it.key())) {
            total[it.key()] = v;
            continue;
        }
        nlohmann::json& t = total[it.key()];
        if (v.is_object() && t.is_object()) {
            accumulate_stats(t, v);
        } else if (!v.is_number() || !t.is_number()) {
            throw std::invalid_argument("accumulate_stats: '" + it.key() + "' is not a number on both sides");
        } else if (v.is_number_float() || t.is_number_float()) {
            t = t.get<double>() + v.get<double>();
        } else if (v.is_number_unsigned() && t.is_number_unsigned()) {
            t = t.get<uint64_t>() + v.get<uint64_t>();
        } else {
            t = t.get<int64_t>() + v.get<int64_t>();
        }
    }
}

nlohmann::json stats_of(const StatProvider& p, const StatContext& ctx) {
    nlohmann::json out = nlohmann::json::object();
    p.report_stats(ctx, out);
    return out;
}

nlohmann::json take_stat(nlohmann::json& group, const std::string& key) {
    const auto it = group.find(key);
    if (it == group.end()) throw std::out_of_range("statistics: the group lacks '" + key + "'");
    nlohmann::json v = std::move(*it);
    group.erase(it);
    return v;
}

} // namespace syncron
