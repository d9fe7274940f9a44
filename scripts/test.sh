#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (ctest, one process per test case).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build -j"$(nproc)" --output-on-failure "$@"
