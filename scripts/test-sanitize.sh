#!/usr/bin/env bash
# Sets up, builds with AddressSanitizer and UndefinedBehaviorSanitizer into
# ./build-asan and runs the whole test suite under them (docs/reliability.md).
# Extra arguments go to ctest (e.g. -R se_random); the tests labelled
# `harness` are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# -O1 -g1, as the sanitizers' docs advise: line tables are all a report
# needs, and the build takes about half the time of -O2 -g (docs/reliability.md).
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNCRON_SANITIZE=address,undefined \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" >/dev/null
cmake --build build-asan -j"$(nproc)"
# SystemC runs every SC_THREAD on its own coroutine stack (QuickThreads in
# Debian's build): ASan cannot follow the stack switches, so its fake stacks
# for use-after-return would be unwound wrongly (detect_stack_use_after_return=0),
# and it would warn at every switch that it ignores a no-return call on a
# foreign stack. The kernel's own objects live until exit: the suppressions
# file names them so that leaks of ours still fail the run.
export ASAN_OPTIONS="detect_stack_use_after_return=0:detect_leaks=1:abort_on_error=0:halt_on_error=1:print_summary=1"
export LSAN_OPTIONS="suppressions=$PWD/testbenches/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The `harness` tests (doc commands, workflow, LT against AT) drive the same
# simulator from Python; the normal build runs them, here they would only add
# minutes (docs/reliability.md).
ctest --test-dir build-asan -j"$(nproc)" --output-on-failure -LE harness "$@"
