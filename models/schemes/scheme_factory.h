#pragma once
// The scheme plug-in for a platform.scheme value (docs/schemes.md).
#include <memory>

#include "models/common/scheme.h"
#include "models/schemes/sync_scheme.h"

namespace syncron {

std::unique_ptr<SyncScheme> make_scheme(Scheme scheme);

} // namespace syncron
