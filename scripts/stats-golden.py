#!/usr/bin/env python3
"""Statistics regression: runs syncron-sim for every case of
testbenches/tests/stats_golden/cases.txt and compares the --stats file, byte
for byte, with the recorded <case>.json beside it, minus the volatile sections: "host"
(host time differs run to run) and "build" (version and git commit change
with every commit). Part of ctest (stats_golden).

usage: stats-golden.py check  [path/to/syncron-sim]   exit 0 when every case matches
       stats-golden.py record [path/to/syncron-sim]   (re)write the expected files
Record only from a tree whose statistics are known right; a change to the
statistics format updates docs/stats.md and the expected files in one commit."""
import difflib, os, re, shlex, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "testbenches", "tests", "stats_golden")
# Sections that differ between identical runs, ignored by the comparison (and
# left out of the expected files): "host": {...} and "build": {...} of the run
# (top level) or of every run of a --compare, with their line endings.
VOLATILE_KEYS = ("host", "build")
VOLATILE = re.compile(r'^(\s*)"(?:' + "|".join(VOLATILE_KEYS) + r')": \{\n.*?^\1\},?\n', re.M | re.S)


def cases():
    for line in open(os.path.join(CASES, "cases.txt")):
        line = line.strip()
        if line and not line.startswith("#"):
            name, args = line.split(":", 1)
            yield name.strip(), shlex.split(args)


def run(sim, args):
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        p = subprocess.run([sim] + args + ["--stats", path], capture_output=True, text=True, timeout=600)
        text = open(path).read()
    finally:
        os.unlink(path)
    return p.returncode, VOLATILE.sub("", text)


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("check", "record"):
        print(__doc__)
        return 2
    sim = sys.argv[2] if len(sys.argv) > 2 else os.path.join("build", "sc_main", "syncron-sim")
    if not os.access(sim, os.X_OK):
        print(f"stats-golden: no simulator at {sim}")
        return 2
    failed, total = [], 0
    for name, args in cases():
        total += 1
        rc, got = run(sim, args)
        expected = os.path.join(CASES, name + ".json")
        if sys.argv[1] == "record":
            open(expected, "w").write(got)
            continue
        want = open(expected).read() if os.path.exists(expected) else ""
        if got != want:
            failed.append(name)
            print(f"{name}: statistics differ (exit {rc})")
            diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "expected", "got", lineterm="", n=1)
            for line in list(diff)[:40]:
                print("  " + line)
    if sys.argv[1] == "record":
        print(f"recorded {total} cases in {os.path.relpath(CASES, ROOT)}")
        return 0
    print(f"{total - len(failed)}/{total} statistics cases unchanged")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
