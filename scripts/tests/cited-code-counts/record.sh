#!/usr/bin/env bash
# Regenerates the recorded callgrind outputs of test_cited_code_counts.py
# from toy.c (needs gcc, valgrind). The test reads the recorded files only.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -g -o "$tmp/toy" "$here/toy.c" -lpthread
(cd "$tmp" && LD_BIND_NOW=1 valgrind --tool=callgrind --cache-sim=yes --toggle-collect='do_work' \
  --callgrind-out-file=annotate.out ./toy >/dev/null 2>&1)
callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$tmp/annotate.out" |
  sed -e "s#$tmp#/tmp/toy#g" -e "s#$here/##g" >"$here/annotate.txt"
(cd "$tmp" && valgrind --tool=callgrind --instr-atstart=no --toggle-collect=run_phase \
  --callgrind-out-file=raw.out ./toy raw >/dev/null 2>&1)
sed -e "s#$tmp#/tmp/toy#g" -e "s#$here/##g" "$tmp/raw.out" >"$here/callgrind.out"
# the critical-section split: one part per lock and unlock call, recorded as
# one file (parts in order, each starting with its "# callgrind format" line)
(cd "$tmp" && valgrind --tool=callgrind --instr-atstart=no --toggle-collect=run_split --cache-sim=yes \
  --dump-after='tas_lock*' --dump-before='tas_unlock*' \
  --callgrind-out-file=split.out ./toy split >/dev/null 2>&1)
parts=$(cd "$tmp" && ls | grep -E '^split[.]out[.][0-9]+$' | sort -t. -k3 -n)
(cd "$tmp" && cat $parts split.out) >"$tmp/parts"
sed -e "s#$tmp#/tmp/toy#g" -e "s#$here/##g" "$tmp/parts" >"$here/split.out"
