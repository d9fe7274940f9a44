// Fuzz target over the configuration loader (platforms/config/config.h): any
// text as a configuration file either loads into parameters that pass
// validation, or is rejected with an exception whose message names the
// problem in at most a few lines. A crash, an exception that is not a
// std::exception, an empty or huge message, or loaded parameters that then
// fail validation are findings. docs/reliability.md.
#include <cstring>
#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "platforms/config/config.h"
#include "platforms/config/json_text.h"
#include "testbenches/fuzz/fuzz_target.h"

using namespace syncron;

// The platform library brings SystemC along, whose library expects a sc_main.
extern "C" int sc_main(int /*argc*/, char** /*argv*/) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    SimParams p;
    try {
        // What the loader does with a file's text: bounded nesting, no NUL,
        // then the keys; what it leaves out keeps its default.
        p = from_json(parse_json_text(text, "fuzz input"));
        validate(p);
    } catch (const std::exception& e) {
        const size_t n = std::strlen(e.what());
        if (n == 0) fuzz::finding("a configuration rejected without a message");
        if (n > 4096) fuzz::finding("an error message of " + std::to_string(n) + " bytes");
        return 0;
    }
    // Accepted: it must survive a round trip through JSON unchanged.
    if (to_json(from_json(to_json(p))) != to_json(p)) fuzz::finding("accepted parameters do not round-trip");
    return 0;
}
