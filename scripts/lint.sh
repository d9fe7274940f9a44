#!/usr/bin/env bash
# Checks the C++ sources against .clang-format and .clang-tidy (docs/contributing.md).
#   scripts/lint.sh            format check + clang-tidy over the project's sources
#   scripts/lint.sh --format   format check only (seconds)
#   scripts/lint.sh --tidy     clang-tidy only
#   scripts/lint.sh --fix      reformat the tracked sources in place (no tidy)
#   scripts/lint.sh --tests    clang-tidy over testbenches/tests as well (slow, see the doc)
#   scripts/lint.sh --analyzer clang-tidy with the Clang static analyzer too (doubles its time)
# Exits non-zero on a format difference or a clang-tidy error.
set -euo pipefail
cd "$(dirname "$0")/.."

do_format=1 do_tidy=1 fix=0 tests=0 analyzer=0
for arg in "$@"; do
  case "$arg" in
    --format) do_tidy=0 ;;
    --tidy) do_format=0 ;;
    --fix) fix=1 do_tidy=0 ;;
    --tests) tests=1 ;;
    --analyzer) analyzer=1 ;;
    *) echo "usage: $0 [--format|--tidy|--fix] [--tests] [--analyzer]" >&2; exit 2 ;;
  esac
done

# Debian's clang-format/clang-tidy (the clang-tidy package brings run-clang-tidy).
"$(dirname "$0")/deps.sh" clang-format clang-tidy
# Other major versions format some constructs differently: the config is for 14.
version=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
[ "$version" = 14 ] || echo "note: clang-format $version; the style is checked with 14 (Debian 12)" >&2

# The tracked C++ files (or, outside a git checkout, the C++ files of the tree).
sources() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z -- '*.cpp' '*.h'
  else
    find models platforms sc_main traces testbenches cmake -name '*.cpp' -print0 -o -name '*.h' -print0
  fi
}

status=0
if [ $fix -eq 1 ]; then
  sources | xargs -0 -r -n 16 -P "$(nproc)" clang-format -i
  echo "lint: reformatted the tracked sources"
  exit 0
fi

if [ $do_format -eq 1 ]; then
  start=$SECONDS
  if sources | xargs -0 -r -n 16 -P "$(nproc)" clang-format --dry-run -Werror; then
    echo "lint: clang-format clean ($((SECONDS - start)) s)"
  else
    echo "lint: clang-format differences above; fix them with scripts/lint.sh --fix" >&2
    status=1
  fi
fi

if [ $do_tidy -eq 1 ]; then
  start=$SECONDS
  # A compile database of its own: no SystemC PCH (GCC's .gch means nothing to
  # clang), and nothing needs to be built. A unity build: each target's
  # sources are checked in groups of up to 8 per translation unit, so the
  # SystemC headers are parsed and matched once per group instead of once per
  # file (clang-tidy's cost per translation unit is nearly all headers: a
  # group of 8 costs what one file does; docs/contributing.md).
  "$(dirname "$0")/deps.sh"
  cmake -S . -B build-lint -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
        -DSYNCRON_PCH=OFF -DCMAKE_UNITY_BUILD=ON >/dev/null
  # One entry per file as well, for `clang-tidy -p build-lint-files FILE`.
  cmake -S . -B build-lint-files -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
        -DSYNCRON_PCH=OFF >/dev/null
  # The groups (build-lint/<dir>/CMakeFiles/<target>.dir/Unity/) and the
  # sources kept out of them.
  files="^$PWD/((models|platforms|sc_main|traces|testbenches/workloads)/|build-lint/(models|platforms|sc_main|traces)/|build-lint/testbenches/CMakeFiles/syncron_workloads\.dir/)"
  db=build-lint
  # With the tests: one file per translation unit (test files share helper
  # names in their anonymous namespaces).
  [ $tests -eq 1 ] && files="^$PWD/(models|platforms|sc_main|traces|testbenches)/" db=build-lint-files
  # The static analyzer (clang-analyzer-*, in .clang-tidy) doubles the run
  # (about 10 s more per SystemC translation unit): opt-in, see the doc.
  # A group's file includes its sources' .cpp files, which
  # bugprone-suspicious-include would report on every line of it.
  checks=('-checks=-bugprone-suspicious-include')
  [ $analyzer -eq 1 ] || checks=('-checks=-clang-analyzer-*,-bugprone-suspicious-include')
  # run-clang-tidy prints each command line before its findings, in colour:
  # show the findings only. .clang-tidy decides what fails (WarningsAsErrors).
  log=build-lint/clang-tidy.log
  rc=0
  run-clang-tidy -j "$(nproc)" -quiet "${checks[@]}" -p "$db" "$files" >"$log" 2>&1 || rc=$?
  sed 's/\x1b\[[0-9;]*m//g' "$log" |
    grep -v -E '^(clang-tidy(-[0-9]+)? |[0-9]+ warnings? (and [0-9]+ errors? )?generated|Suppressed [0-9]+ warnings|Use -header-filter|Use -system-headers)' || true
  if [ $rc -ne 0 ]; then
    echo "lint: clang-tidy errors above ($((SECONDS - start)) s; full log in $log)" >&2
    status=1
  else
    echo "lint: clang-tidy passed ($((SECONDS - start)) s)"
  fi
fi
exit $status
