#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (ctest, one process per test case).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --tests # the build's packages, valgrind (ctest cited_code_server) and the test services (ctest workflow_slurm)
scripts/build.sh
ctest --test-dir build -j"$(nproc)" --output-on-failure "$@"
