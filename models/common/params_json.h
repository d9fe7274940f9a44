#pragma once
// JSON names of the enums of params.h (and of the Scheme it holds). Only the configuration includes this
// header, so the models do not compile nlohmann. nlohmann maps an unknown name
// to the first value without a word: the configuration checks names itself.
#include <nlohmann/json.hpp>

#include "models/common/params.h"
#include "models/common/scheme.h"

namespace syncron {

NLOHMANN_JSON_SERIALIZE_ENUM(PagePolicy, {{PagePolicy::closed, "closed"}, {PagePolicy::open, "open"}})

NLOHMANN_JSON_SERIALIZE_ENUM(Scheme, {
                                         {Scheme::syncron, to_string(Scheme::syncron)},
                                         {Scheme::flat, to_string(Scheme::flat)},
                                         {Scheme::central, to_string(Scheme::central)},
                                         {Scheme::hier, to_string(Scheme::hier)},
                                         {Scheme::ideal, to_string(Scheme::ideal)},
                                         {Scheme::remote_atomics, to_string(Scheme::remote_atomics)},
                                         {Scheme::syncron_central_ovrfl, to_string(Scheme::syncron_central_ovrfl)},
                                         {Scheme::syncron_distrib_ovrfl, to_string(Scheme::syncron_distrib_ovrfl)},
                                         {Scheme::mesi_lock, to_string(Scheme::mesi_lock)},
                                     })

} // namespace syncron
