#pragma once
// The entry point every fuzz target defines (libFuzzer's), and what a target
// does on a finding: print it and abort, so libFuzzer keeps the input and the
// deterministic replay in ctest fails.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace syncron::fuzz {

[[noreturn]] inline void finding(const std::string& what) {
    std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
    std::abort();
}

} // namespace syncron::fuzz
