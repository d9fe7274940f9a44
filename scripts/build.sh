#!/usr/bin/env bash
# Configures and builds into ./build (Release with debug info).
#   scripts/build.sh                        every target (the simulator, the tests, the benches)
#   scripts/build.sh --target syncron-sim   one target and what it needs
# Extra arguments go to `cmake --build`.
set -euo pipefail
cd "$(dirname "$0")/.."
"$(dirname "$0")/deps.sh"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" "$@"
