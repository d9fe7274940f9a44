// Deterministic driver for a fuzz target, for ctest and any compiler: runs
// every file of the given corpus directories, then N inputs from a seeded
// generator (lengths up to --max-len), through LLVMFuzzerTestOneInput. A
// finding aborts the process, so the test fails with the target's message.
//
//   fuzz_<target>_replay [--random N] [--seed S] [--max-len L] [DIR|FILE]...
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "testbenches/fuzz/fuzz_target.h"

namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void run(const std::vector<uint8_t>& input) { LLVMFuzzerTestOneInput(input.data(), input.size()); }

} // namespace

int main(int argc, char** argv) {
    unsigned long long random = 0, seed = 1, max_len = 256;
    std::vector<fs::path> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> unsigned long long {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return std::strtoull(argv[++i], nullptr, 10);
        };
        if (a == "--random")
            random = value();
        else if (a == "--seed")
            seed = value();
        else if (a == "--max-len")
            max_len = value();
        else
            paths.emplace_back(a);
    }
    unsigned long long files = 0;
    for (const auto& p : paths) {
        if (!fs::exists(p)) {
            std::fprintf(stderr, "no such corpus: %s\n", p.string().c_str());
            return 2;
        }
        std::vector<fs::path> inputs;
        if (fs::is_directory(p)) {
            for (const auto& e : fs::directory_iterator(p))
                if (e.is_regular_file()) inputs.push_back(e.path());
        } else {
            inputs.push_back(p);
        }
        std::sort(inputs.begin(), inputs.end()); // a fixed order: deterministic
        for (const auto& f : inputs) {
            run(read_file(f));
            ++files;
        }
    }
    std::mt19937_64 gen(seed);
    for (unsigned long long k = 0; k < random; ++k) {
        std::vector<uint8_t> input(std::uniform_int_distribution<unsigned long long>(0, max_len)(gen));
        for (auto& b : input) b = static_cast<uint8_t>(gen());
        run(input);
    }
    std::printf("%llu corpus inputs and %llu random inputs (seed %llu) ran clean\n", files, random, seed);
    return 0;
}
