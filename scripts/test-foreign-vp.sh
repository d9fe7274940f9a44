#!/usr/bin/env bash
# Installs the package from a build tree into a temporary prefix, builds
# testbenches/foreign_vp against that prefix alone and runs it once per
# third-party behaviour and once with all of them (ctest "foreign_vp";
# docs/integration.md, "If your VP ..."). Each case passes with its option
# set; without it (`bare`) it must fail; `amo` and `all` must end with the
# stuck hart reported and a non-zero exit.
#   scripts/test-foreign-vp.sh <build dir> [<source dir>]
set -euo pipefail
. "$(dirname "$0")/lib/installed-package.sh"
cp -r "$src/testbenches/foreign_vp" "$tmp/vp"
cmake -S "$tmp/vp" -B "$tmp/vp-build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  "${sanitize[@]}" > "$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/vp-build" > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
vp="$tmp/vp-build/foreign_vp"
status=0
fail() {
  echo "foreign_vp $1: $2" >&2
  sed 's/^/  | /' "$tmp/out" >&2
  status=1
}
for c in streaming offsets quantum memory trap; do
  if "$vp" "$c" > "$tmp/out" 2>&1 && grep -q '^PASS$' "$tmp/out"; then
    head -1 "$tmp/out"
  else
    fail "$c" "failed with its option set"
  fi
done
# Without the option the behaviour breaks the run (streaming needs none).
for c in offsets quantum memory trap; do
  if "$vp" "$c" bare > "$tmp/out" 2>&1; then
    fail "$c bare" "passed without its option: the case does not exercise it"
  else
    echo "$c bare: fails as expected"
  fi
done
# An AMO on a command slot under the bus lock: the workload passes, then the
# stuck hart is reported and the run exits non-zero.
for c in amo all; do
  if "$vp" "$c" > "$tmp/out" 2>&1; then
    fail "$c" "exited 0 with a hart stuck"
  elif ! grep -q '^PASS$' "$tmp/out" || ! grep -q '1 hart(s) still wait for a grant' "$tmp/out" ||
    ! grep -q 'hart 1: lock_acquire_local on variable 0x40000040 since' "$tmp/out"; then
    fail "$c" "no report of the stuck hart after a passing workload"
  else
    head -1 "$tmp/out"
    echo "$c: stuck hart reported, exit non-zero"
  fi
done
exit $status
