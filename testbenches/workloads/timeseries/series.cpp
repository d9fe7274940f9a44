#include "testbenches/workloads/timeseries/series.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "models/common/input_file.h"
#include "models/common/stop_request.h"

namespace syncron {
namespace {

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    const auto b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

bool parse_real(const std::string& text, double& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

} // namespace

Series load_series(const std::string& path, unsigned column) {
    if (column == 0) throw std::invalid_argument("workload.series_column must be at least 1 (the first column is 1)");
    const std::string problem = input_file_problem(path);
    if (!problem.empty()) throw std::invalid_argument("series file '" + excerpt(path, kQuotedMax) + "' " + problem);
    std::ifstream in(path);
    if (!in)
        throw std::invalid_argument("series file '" + excerpt(path, kQuotedMax) +
                                    "' cannot be opened (missing or unreadable)");
    Series s;
    s.source = path;
    uint64_t number = 0;
    bool first = true;
    for (std::string line; std::getline(in, line);) {
        check_stop(++number, "reading the series file");
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#') continue;
        std::vector<std::string> fields;
        std::stringstream split(t);
        for (std::string f; std::getline(split, f, ',');) fields.push_back(trim(f));
        if (t.back() == ',') fields.emplace_back();
        const auto where = excerpt(path, kQuotedMax) + ":" + std::to_string(number) + ": ";
        if (fields.size() < column)
            throw std::invalid_argument(where + "the line has " + std::to_string(fields.size()) +
                                        " column(s), workload.series_column is " + std::to_string(column));
        double v = 0;
        if (!parse_real(fields[column - 1], v)) {
            if (first) { // a header
                first = false;
                continue;
            }
            throw std::invalid_argument(where + "'" + excerpt(fields[column - 1]) + "' is not a number");
        }
        if (!std::isfinite(v))
            throw std::invalid_argument(where + "'" + excerpt(fields[column - 1]) + "' is not finite");
        first = false;
        s.values.push_back(v);
    }
    if (s.values.empty()) throw std::invalid_argument("series file '" + path + "' has no values (an empty series)");
    return s;
}

Series random_walk(unsigned length, uint64_t seed) {
    Series s;
    s.source = "random walk of " + std::to_string(length) + ", seed " + std::to_string(seed);
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 0x7153);
    double x = 0;
    s.values.reserve(length);
    for (unsigned i = 0; i < length; ++i) {
        s.values.push_back(x);
        x += double(rng() >> 11) * 0x1.0p-52 - 1.0; // [-1, 1) from 53 bits, the same on every library
    }
    return s;
}

} // namespace syncron
