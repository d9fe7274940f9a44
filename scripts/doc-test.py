#!/usr/bin/env python3
"""Runs the commands of README.md and docs/*.md, so the documentation cannot drift.

Every line of every fenced ```sh block is a command (a trailing backslash or
an indented continuation joins lines). Each file's commands run in order, in
one fresh temporary directory per file (a command may use a file an earlier
one wrote), with `build`, `scripts`, `traces`, `platforms`, `docs` and `testbenches` linked
to the repository's and build/sc_main on PATH, so both `build/sc_main/syncron-sim`
and a bare `syncron-sim` work. Every syncron-sim invocation runs small: its
`--ops N` becomes `--ops OPS` (default 3), or `--ops OPS` is added (not to
`--check-args`, which takes no other flag and runs nothing).

Commands that cannot run here are skipped by the explicit list SKIP below,
each with its reason; an entry that matches no command is an error, so the
list stays honest. A failing command fails the test naming its file and line.

    scripts/doc-test.py [--build DIR] [--ops N] [--list]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (regex on the command, why it is not run here). Keep this short.
SKIP = [
    (r"^scripts/(run|test|test-sanitize)\.sh\b",
     "set-up + full build (+ the whole suite): CI runs scripts/test.sh and scripts/test-sanitize.sh itself"),
    (r"^build-fuzz/",
     "libFuzzer runs (minutes to hours, clang build); ctest fuzz_*_smoke replays each target's corpus"),
    (r"^(scripts/lint\.sh|clang-format|clang-tidy)\b",
     "the linters: CI runs scripts/lint.sh as its own step (clang-tidy needs build-lint/, minutes)"),
    (r"^gtkwave\b",
     "GUI program; test_traces 'gtkw' cases check every save file against the VCD of its run"),
    (r"^scripts/cited-code-counts\.py (crono|ascylib)\b",
     "needs a checkout of a cited repository (not shipped; no network in CI); ctest cited_code_counts checks the "
     "script's parsers on recorded outputs"),
    (r"^scripts/cited-code-counts\.py server\b",
     "needs valgrind; ctest cited_code_server runs the count and checks it against docs/schemes.md (skipped "
     "without gcc or valgrind)"),
    (r"^ctest\b",
     "the test suite itself (this test is one of its tests)"),
    (r"^snakemake\b",
     "the evaluation workflow: ctest workflow_end_to_end dry-runs every figure in both modes, runs fig10 quick "
     "and an interrupted sweep; ctest workflow_unit checks every figure point's configuration"),
    (r"syncron-bench \[--",
     "synopsis with optional [--flags], not a command"),
    (r"^cmake (-S|--build|--install)\b|^/tmp/vp/vp_example\b",
     "build, install and the installed-package example: CI builds the tree, and ctest vp_example "
     "(scripts/test-vp-example.sh) installs, builds and runs examples/vp in LT and AT"),
]

OPS = 3


def commands(path):
    """(line number, command) of every fenced sh/bash block of a Markdown file."""
    out = []
    block = False
    pending, start = None, 0
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not block:
            if re.match(r"^\s*```(sh|bash|shell)\s*$", line):
                block = True
            continue
        if re.match(r"^\s*```", line):
            block = False
            if pending is not None:
                out.append((start, pending))
                pending = None
            continue
        if not line.strip():
            continue
        if pending is not None and (pending.endswith("\\") or line[:1].isspace()):
            pending = pending.rstrip("\\").rstrip() + " " + line.strip()
            continue
        if pending is not None:
            out.append((start, pending))
        pending, start = line.strip(), n
    return out


def small(command, ops):
    """Every syncron-sim invocation with --ops `ops`."""
    parts = re.split(r"(&&|\|\||;|\|)", command)
    for i, part in enumerate(parts):
        m = re.search(r"(^|\s)((?:\S*/)?syncron-sim)(?=\s|$)", part)
        if not m or re.search(r"\s--check-args(?=\s|$)", part):
            continue
        if re.search(r"--ops[ =]\d+", part):
            parts[i] = re.sub(r"--ops([ =])\d+", r"--ops\g<1>%d" % ops, part)
        else:
            parts[i] = part[: m.end(2)] + " --ops %d" % ops + part[m.end(2):]
    return "".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(ROOT / "build"), help="build directory (default: build)")
    ap.add_argument("--ops", type=int, default=OPS, help="operations per core of every run (default %d)" % OPS)
    ap.add_argument("--list", action="store_true", help="print what would run or be skipped, run nothing")
    args = ap.parse_args()
    build = Path(args.build).resolve()
    if not args.list and not (build / "sc_main" / "syncron-sim").exists():
        sys.exit("doc-test: %s/sc_main/syncron-sim not found (build first, or --build DIR)" % build)

    files = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    used = set()
    failures, ran, skipped = [], 0, 0
    t0 = time.monotonic()
    env = dict(os.environ)
    env["PATH"] = str(build / "sc_main") + os.pathsep + env.get("PATH", "")
    env.pop("SYNCRON_PRESET_DIR", None)
    for f in files:
        cmds = commands(f)
        if not cmds:
            continue
        rel = f.relative_to(ROOT)
        with tempfile.TemporaryDirectory(prefix="syncron-doc-") as tmp:
            for name, target in (("build", build), ("scripts", ROOT / "scripts"), ("traces", ROOT / "traces"),
                                 ("platforms", ROOT / "platforms"), ("docs", ROOT / "docs"),
                                 ("testbenches", ROOT / "testbenches")):
                os.symlink(target, os.path.join(tmp, name))
            for line, cmd in cmds:
                reason = None
                for i, (rx, why) in enumerate(SKIP):
                    if re.search(rx, cmd):
                        used.add(i)
                        reason = why
                        break
                if reason:
                    skipped += 1
                    if args.list:
                        print("skip %s:%d: %s\n     (%s)" % (rel, line, cmd, reason))
                    continue
                run = small(cmd, args.ops)
                if args.list:
                    print("run  %s:%d: %s" % (rel, line, run))
                    continue
                ran += 1
                try:
                    p = subprocess.run(["bash", "-o", "pipefail", "-c", run], cwd=tmp, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
                    status, output = p.returncode, p.stdout
                except subprocess.TimeoutExpired as e:
                    status, output = "timeout (120 s)", (e.stdout or b"").decode(errors="replace")
                if status != 0:
                    tail = "\n".join(output.splitlines()[-15:])
                    failures.append("%s:%d: %s\n  ran: %s\n  exit status %s\n%s" % (rel, line, cmd, run, status,
                                                                                 tail))
    stale = [SKIP[i][0] for i in range(len(SKIP)) if i not in used]
    for rx in stale:
        failures.append("scripts/doc-test.py: SKIP entry %r matches no documented command: remove it" % rx)
    if args.list:
        return 0 if not stale else 1
    for msg in failures:
        print("FAIL " + msg + "\n", file=sys.stderr)
    print("doc-test: %d commands ran, %d skipped (SKIP list), %d failed, %.1f s" %
          (ran, skipped, len(failures), time.monotonic() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
