#pragma once
// JSON names of the enums of params.h. Only the configuration includes this
// header, so the models do not compile nlohmann. nlohmann maps an unknown name
// to the first value without a word: the configuration checks names itself.
#include <nlohmann/json.hpp>

#include "models/common/params.h"

namespace syncron {

NLOHMANN_JSON_SERIALIZE_ENUM(PagePolicy, {{PagePolicy::closed, "closed"}, {PagePolicy::open, "open"}})

} // namespace syncron
