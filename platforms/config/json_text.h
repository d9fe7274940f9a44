#pragma once
// JSON text as the configuration reads it (docs/reliability.md): bounded in
// nesting, whole (no silent end at a NUL byte), and quoted back in errors as
// a short excerpt, never as the whole value.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace syncron {

/// Deepest nesting of arrays and objects accepted. A configuration needs 3;
/// the bound keeps every later recursive walk (dump, compare, destroy) shallow.
constexpr int kMaxJsonDepth = 64;

/// Parses text as JSON. `source` names the text in errors ("configuration
/// file 'x.json'", "--set 'se.st_entries=…'"). Throws ConfigError on a syntax
/// error (with its line and column), a NUL byte (the parser would stop there
/// and ignore the rest), or nesting deeper than kMaxJsonDepth. With
/// syntax_errors_throw false, text that is not JSON gives a discarded value
/// instead (the other two errors still throw).
nlohmann::json parse_json_text(const std::string& text, const std::string& source, bool syntax_errors_throw = true);

/// The value as compact JSON, cut to at most about max_chars characters with
/// "…" where it was cut; nested arrays and objects beyond the second level
/// show as [...] and {...}. Never recurses deeper than that.
std::string json_excerpt(const nlohmann::json& value, std::size_t max_chars = 80);

/// What kind of value it is, for messages: "null", "an array", "a string", …
std::string json_kind(const nlohmann::json& value);

} // namespace syncron
