#!/usr/bin/env bash
# Installs the package from a build tree into a temporary prefix and fails
# when any installed file names the source or build tree: text files by
# content, libraries by `strings` (the file names in SystemC reports and
# asserts, the debug information). ctest "no_build_paths"; docs/integration.md.
#   scripts/test-no-build-paths.sh <build dir> [<source dir>]
set -euo pipefail
. "$(dirname "$0")/lib/installed-package.sh"
status=0
while IFS= read -r -d '' f; do
  if grep -qI . "$f" 2> /dev/null; then
    hits=$(grep -F -e "$src" -e "$build" "$f" || true)
  else
    hits=$(strings -a "$f" | grep -F -e "$src" -e "$build" || true)
  fi
  if [ -n "$hits" ]; then
    echo "${f#"$tmp/prefix/"} names the build machine's $src:" >&2
    echo "$hits" | head -5 >&2
    status=1
  fi
done < <(find "$tmp/prefix" -type f -print0)
libs=$(find "$tmp/prefix" -name '*.a' | wc -l)
[ "$libs" -gt 0 ] || { echo "no library installed under $tmp/prefix" >&2; exit 1; }
[ $status -eq 0 ] && echo "no_build_paths: $libs installed libraries and every other installed file are clean"
exit $status
