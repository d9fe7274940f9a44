#!/usr/bin/env python3
"""The paper's Figure 2 setting: a stack (Table 6: 100K elements, 100% push)
under one coarse-grained lock, with mesi_lock (test-and-test-and-set on the
MESI directory protocol, docs/coherence.md) against ideal (synchronization
at no cost): the slowdown of mesi_lock over ideal (simulated time for the
same operations), (a) with 15, 30, 45 and 60 cores in one unit, (b) with 60
cores over 1, 2, 3 and 4 units. The paper: 2.03x at 60 cores in one unit,
2.66x at 60 cores over 4 units.

Usage: scripts/figure2.py [--sim build/sc_main/syncron-sim] [--jobs 2]
                          [--timing lt] [--ops N] [--out FILE.md]
                          [-- extra syncron-sim arguments]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402

SCHEMES = ["mesi_lock", "ideal"]
ONE_UNIT = [15, 30, 45, 60]
UNITS = [1, 2, 3, 4]
PAPER = {("a", 60): 2.03, ("b", 4): 2.66}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sc_main/syncron-sim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timing", default="lt", choices=["lt", "at"])
    ap.add_argument("--ops", type=int, default=None, help="operations per core (default: the stack's)")
    ap.add_argument("--out", default="-")
    ap.add_argument("extra", nargs="*", help="more syncron-sim arguments (after --)")
    a = ap.parse_args()
    outdir = (a.out if a.out != "-" else "figure2") + ".d"
    base = ["--workload", "stack", "--timing", a.timing] + (["--ops", str(a.ops)] if a.ops else [])
    # Every unit has 64 hardware cores so that 60 fit in one.
    points = {}
    for sc in SCHEMES:
        for n in ONE_UNIT:
            points[("a", n, sc)] = (f"a_{n}_{sc}.json", base + ["--scheme", sc, "--units", "1", "--cores", str(n),
                                                               "--set", "platform.cores_per_unit=64"] + a.extra)
        for u in UNITS:
            points[("b", u, sc)] = (f"b_{u}_{sc}.json", base + ["--scheme", sc, "--units", str(u), "--cores", "60",
                                                               "--set", "platform.cores_per_unit=64"] + a.extra)
    res = sweep.run_all(a.sim, points, outdir, a.jobs)
    failed = False

    def rows(part, values, label):
        nonlocal failed
        lines = [f"| {label} | mesi_lock ns | ideal ns | slowdown | paper | coherence messages per push "
                 "| across links |", "|---:|---:|---:|---:|---:|---:|---:|"]
        for v in values:
            m, i = res[(part, v, "mesi_lock")], res[(part, v, "ideal")]
            if m["status"] != "ok" or i["status"] != "ok":
                failed = True
                lines.append(f"| {v} | error | error | | | | |")
                continue
            c = m.get("coherence", {})
            msgs = sum(c.get("messages", {}).values())
            across = c.get("bytes_across_links", 0)
            total = across + c.get("bytes_within_unit", 0)
            paper = PAPER.get((part, v))
            lines.append(f"| {v} | {m['simulated_ns']:.0f} | {i['simulated_ns']:.0f} | "
                         f"{m['simulated_ns'] / i['simulated_ns']:.2f}× | {f'{paper:.2f}×' if paper else ''} | "
                         f"{msgs / max(1, m['operations']):.1f} | "
                         f"{100 * across / total if total else 0:.0f}% of bytes |")
        return lines

    out = [f"Measured with `syncron-sim --workload stack --scheme mesi_lock|ideal --units U --cores N "
           f"--set platform.cores_per_unit=64` (timing {a.timing}, seed 1, the stack's size and mix; "
           "slowdown = simulated time of mesi_lock over ideal for the same pushes).\n",
           "(a) N cores in one unit\n"] + rows("a", ONE_UNIT, "cores") + \
          ["", "(b) 60 cores over U units\n"] + rows("b", UNITS, "units")
    sweep.write_output("\n".join(out), a.out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
