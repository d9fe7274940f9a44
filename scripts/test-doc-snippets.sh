#!/usr/bin/env bash
# Builds the C, C++ and CMake snippets of the documentation against the
# package installed from a build tree (scripts/doc-snippets.py writes the
# project), elaborates the fabric binding, and compiles the same program
# with integration.md's pkg-config command line (ctest "doc_snippets").
#   scripts/test-doc-snippets.sh <build dir> [<source dir>]
set -euo pipefail
. "$(dirname "$0")/lib/installed-package.sh"
python3 "$src/scripts/doc-snippets.py" --out "$tmp/snippets"
cmake -S "$tmp/snippets" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  "${sanitize[@]}" > "$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/build" > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
# Elaboration fails if the binding leaves a socket unbound or binds one twice.
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$tmp/build/my_vp"

# integration.md's command for builds without CMake, word for word.
line=$(grep -o 'g++ -std=c++17 my_vp.cpp $(pkg-config [^`]*)' "$src/docs/integration.md") ||
  { echo "docs/integration.md: the pkg-config command line is gone" >&2; exit 1; }
cp "$tmp/snippets/fabric_binding.cpp" "$tmp/my_vp.cpp"
extra="-o my_vp_pc"
[ -z "${SYNCRON_VP_SANITIZE:-}" ] || extra="$extra -fsanitize=$SYNCRON_VP_SANITIZE"
(cd "$tmp" && export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" && eval "$line $extra") ||
  { echo "docs/integration.md: '$line' failed" >&2; exit 1; }
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$tmp/my_vp_pc"
echo "doc snippets: built and elaborated"
