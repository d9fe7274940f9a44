#!/bin/sh
# Runs a test binary with a selection of several cases (test_main.cpp runs each
# in its own process) and checks its exit status and its closing line.
#   run_selection.sh BINARY EXPECTED_STATUS EXPECTED_LINE SPEC...
bin=$1 want_status=$2 want_line=$3
shift 3
out=$("$bin" "$@" 2>&1)
status=$?
printf '%s\n' "$out"
if [ "$status" -ne "$want_status" ]; then
    echo "run_selection: exit status $status, expected $want_status"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -qF "$want_line"; then
    echo "run_selection: no line '$want_line'"
    exit 1
fi
