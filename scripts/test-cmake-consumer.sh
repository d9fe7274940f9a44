#!/usr/bin/env bash
# Installs the package from a build tree into a temporary prefix and builds
# testbenches/tests/cmake_consumer against it: a platform whose
# SystemC::systemc is an ALIAS target and which found Boost itself before
# find_package(syncron) (ctest "cmake_consumer"; docs/integration.md).
#   scripts/test-cmake-consumer.sh <build dir> [<source dir>]
set -euo pipefail
. "$(dirname "$0")/lib/installed-package.sh"
cp -r "$src/testbenches/tests/cmake_consumer" "$tmp/consumer"
cmake -S "$tmp/consumer" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  "${sanitize[@]}" > "$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/build" > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$tmp/build/consumer" --units 2
# Its own Boost.Program_options errors still work (the exception's vtable
# comes from the consumer's Boost_LIBRARIES).
if SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$tmp/build/consumer" --bogus 2> "$tmp/err"; then
  echo "consumer accepted an unknown option" >&2
  exit 1
fi
grep -q "unrecognised option" "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
