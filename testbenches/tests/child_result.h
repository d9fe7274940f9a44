#pragma once
// Assertions on what a forked child simulation reported (platforms/run_in_child.h).
// A failed child returns {"child_error": ...} or stats with another status;
// reading its keys as if it had succeeded would hide the child's own message
// (and a missing key of a const json is undefined behaviour).
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

namespace syncron::test {

/// The child's own words on why it failed, or "" when it did not say.
inline std::string child_failure(const nlohmann::json& j) {
    if (!j.is_object()) return "the child returned " + j.dump().substr(0, 200);
    for (const char* key : {"child_error", "error"})
        if (j.contains(key) && j.at(key).is_string() && !j.at(key).get<std::string>().empty())
            return key + std::string(": ") + j.at(key).get<std::string>();
    return "";
}

inline bool child_ok(const nlohmann::json& j) { return j.is_object() && !j.contains("child_error"); }

inline bool run_ok(const nlohmann::json& j) { return child_ok(j) && j.value("status", std::string()) == "ok"; }

} // namespace syncron::test

/// The child ran its body to the end (its result can be read).
#define REQUIRE_CHILD_OK(j)                                                                                            \
    do {                                                                                                               \
        INFO(syncron::test::child_failure(j));                                                                         \
        REQUIRE(syncron::test::child_ok(j));                                                                           \
    } while (false)

/// The child's simulation finished with status ok.
#define REQUIRE_RUN_OK(j)                                                                                              \
    do {                                                                                                               \
        INFO(syncron::test::child_failure(j));                                                                         \
        REQUIRE(syncron::test::run_ok(j));                                                                             \
    } while (false)

#define CHECK_RUN_OK(j)                                                                                                \
    do {                                                                                                               \
        INFO(syncron::test::child_failure(j));                                                                         \
        CHECK(syncron::test::run_ok(j));                                                                               \
    } while (false)
