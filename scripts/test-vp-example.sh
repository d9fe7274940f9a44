#!/usr/bin/env bash
# Installs the package from a build tree into a temporary prefix, then builds
# examples/vp against that prefix alone, as a third party would, and runs it
# in LT and AT, also under the base-protocol checker (ctest "vp_example";
# docs/integration.md).
#   scripts/test-vp-example.sh <build dir> [<source dir>]
set -euo pipefail
. "$(dirname "$0")/lib/installed-package.sh"
# The installed package (its text files: headers, CMake and pkg-config files)
# must not point back into the source or build tree.
if grep -rlIF -e "$src" -e "$build" "$tmp/prefix"; then
  echo "installed files above reference $src or $build" >&2
  exit 1
fi
# Only the prefix: a copy of the example outside the project, no project paths.
cp -r "$src/examples/vp" "$tmp/vp"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# A sanitizer build tree (SYNCRON_VP_SANITIZE, set by ctest) installs
# instrumented libraries: the example is then built with the same runtime.
cmake -S "$tmp/vp" -B "$tmp/vp-build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  "${launcher[@]}" "${sanitize[@]}" > "$tmp/configure.log" || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/vp-build" > "$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
for timing in lt at; do
  "$tmp/vp-build/vp_example" "$timing"
  # The same under the base-protocol checker: not one violation.
  "$tmp/vp-build/vp_example" "$timing" check
done
# The C API for software on a hart: freestanding C99, no libc.
cc=${CC:-cc}
"$cc" -std=c99 -ffreestanding -nostdlib -Wall -Wextra -Werror -pedantic -I"$tmp/prefix/include" \
  -c "$tmp/vp/software.c" -o "$tmp/software.o"
# The same package through pkg-config.
PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs syncron > /dev/null
