#include "platforms/config/json_text.h"

#include <algorithm>
#include <set>
#include <vector>

#include "platforms/config/config.h"

namespace syncron {

using nlohmann::json;

namespace {

// Line and column (1-based) of a byte offset, for messages about the text.
std::string position_of(const std::string& text, std::size_t offset) {
    const std::size_t line =
        1 +
        static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    const std::size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t column = offset - (line_start == std::string::npos || offset == 0 ? 0 : line_start + 1) + 1;
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// The parser's message without its "[json.exception.parse_error.101] " tag,
// and with its "last read" token cut: a huge malformed string would be quoted whole.
std::string parse_message(const std::string& what) {
    std::string msg = what;
    if (msg.rfind("[json.exception.", 0) == 0) {
        const std::size_t close = msg.find("] ");
        if (close != std::string::npos) msg.erase(0, close + 2);
    }
    constexpr std::size_t kMax = 240;
    if (msg.size() > kMax) msg = msg.substr(0, kMax) + "…";
    return msg;
}

struct TooDeep {};
struct DuplicateKey {
    std::string path;
};

/// One open object or array while parsing: its keys so far and the last one.
struct KeyFrame {
    bool object = false;
    std::set<std::string> keys;
    std::string last;
};

/// "se.st_entries": the keys of the open objects, each cut short.
std::string key_path(const std::vector<KeyFrame>& frames) {
    std::string path;
    for (const KeyFrame& f : frames) {
        if (!f.object || f.last.empty()) continue;
        path += (path.empty() ? "" : ".") + (f.last.size() > 60 ? f.last.substr(0, 60) + "…" : f.last);
    }
    return path;
}

void excerpt_into(const json& v, int level, std::size_t budget, std::string& out) {
    if (out.size() >= budget) return;
    if (v.is_array() || v.is_object()) {
        const bool array = v.is_array();
        if (v.empty()) {
            out += array ? "[]" : "{}";
            return;
        }
        if (level >= 2) {
            out += array ? "[...]" : "{...}";
            return;
        }
        out += array ? '[' : '{';
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (out.size() >= budget) return;
            if (!first) out += ',';
            first = false;
            if (!array) out += json(it.key()).dump() + ':';
            excerpt_into(*it, level + 1, budget, out);
        }
        out += array ? ']' : '}';
        return;
    }
    std::string s = v.dump();
    if (out.size() + s.size() > budget) s.resize(budget - std::min(budget, out.size()));
    out += s;
}

} // namespace

json parse_json_text(const std::string& text, const std::string& source, bool syntax_errors_throw) {
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        throw ConfigError(source + " contains a NUL byte at " + position_of(text, nul) +
                          " (JSON text must not; the rest would be ignored)");
    // The callback sees every value as it opens, so the depth is refused
    // before any deep structure exists. It also follows the keys: a key
    // given twice in one object is refused (the parser would keep the last
    // value silently), and a number too large names its key.
    std::vector<KeyFrame> frames;
    const json::parser_callback_t guard = [&frames](int depth, json::parse_event_t event, json& parsed) {
        switch (event) {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            if (depth >= kMaxJsonDepth) throw TooDeep{};
            frames.push_back({event == json::parse_event_t::object_start, {}, {}});
            break;
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            if (!frames.empty()) frames.pop_back();
            break;
        case json::parse_event_t::key:
            if (!frames.empty() && parsed.is_string()) {
                KeyFrame& f = frames.back();
                f.last = parsed.get<std::string>();
                if (!f.keys.insert(f.last).second) throw DuplicateKey{key_path(frames)};
            }
            break;
        default: break;
        }
        return true;
    };
    try {
        return json::parse(text, guard, syntax_errors_throw);
    } catch (const TooDeep&) {
        throw ConfigError(source + " nests arrays or objects deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    } catch (const DuplicateKey& d) {
        throw ConfigError(source + ": key '" + d.path + "' appears twice (which value is meant? give it once)");
    } catch (const json::parse_error& e) {
        throw ConfigError(source + " is not valid JSON: " + parse_message(e.what()));
    } catch (const json::out_of_range& e) {
        // Only a number the parser cannot hold (1e400) is out of range while parsing.
        const std::string key = key_path(frames);
        throw ConfigError(source + ": " + (key.empty() ? "a number" : "the value of '" + key + "'") +
                          " is too large for a number (" + parse_message(e.what()) + ")");
    }
}

std::string json_excerpt(const json& value, std::size_t max_chars) {
    std::string out;
    excerpt_into(value, 0, max_chars + 1, out); // one more: tells a cut from an exact fit
    if (out.size() > max_chars) {
        out.resize(max_chars);
        out += "…";
    }
    return out;
}

std::string json_kind(const json& value) {
    switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::binary: return "binary data";
    case json::value_t::discarded: return "nothing";
    default: return "a number";
    }
}

} // namespace syncron
