#pragma once
// The identity of this build (syncron-sim --version; the "build" object of the
// statistics, docs/stats.md; the trace database's meta table). Defined in a
// source generated at build time (cmake/build_info.cmake), the only file that
// is recompiled when the commit changes.
#include <string>

namespace syncron {

/// The project version, CMake's project(... VERSION), e.g. "0.1.0".
const char* build_version();
/// The git commit the build was made from: short hash, "-dirty" when tracked
/// files differed from it, "unknown" when built outside a git checkout.
const char* build_commit();
/// "<program> <version> (commit <commit>)", the --version line.
inline std::string version_line(const std::string& program) {
    return program + " " + build_version() + " (commit " + build_commit() + ")";
}

} // namespace syncron
