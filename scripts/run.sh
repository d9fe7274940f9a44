#!/usr/bin/env bash
# Sets up, builds and runs the default job: the hmc4 platform (4 units x 15
# client cores), SynCron, the lock microbenchmark. Extra arguments go to
# syncron-sim (see build/sc_main/syncron-sim --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --target syncron-sim # the simulator alone: the tests are built by scripts/test.sh
exec build/sc_main/syncron-sim --stats build/stats.json "$@"
