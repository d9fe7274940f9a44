#include "sc_main/check_args.h"

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sc_main/cli.h"

namespace syncron {

namespace {

nlohmann::json check_line(const std::string& line, unsigned number) {
    const std::string where = "standard input, line " + std::to_string(number) + ": ";
    const nlohmann::json args = nlohmann::json::parse(line, nullptr, false);
    if (!args.is_array()) return {{"error", where + "not a JSON array of arguments"}};
    std::vector<std::string> words{"syncron-sim"};
    for (const auto& a : args) {
        if (!a.is_string()) return {{"error", where + "argument " + a.dump() + " is not a string"}};
        words.push_back(a.get<std::string>());
    }
    std::vector<const char*> argv;
    argv.reserve(words.size());
    for (const auto& w : words) argv.push_back(w.c_str());
    try {
        const CliOptions opt = parse_cli(static_cast<int>(argv.size()), argv.data());
        if (opt.help || opt.list || opt.list_presets || opt.version || opt.check_args)
            return {{"error", where + "not the command line of a run (--help, --list, --list-presets, "
                                      "--version or --check-args)"}};
        return {{"config", to_json(opt.params)}};
    } catch (const std::exception& e) {
        return {{"error", e.what()}};
    }
}

} // namespace

int check_args(std::istream& in, std::ostream& out) {
    std::string line;
    unsigned number = 0;
    while (std::getline(in, line)) out << check_line(line, ++number).dump() << '\n';
    out.flush();
    return out ? 0 : 1;
}

} // namespace syncron
