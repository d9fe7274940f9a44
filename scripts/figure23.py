#!/usr/bin/env python3
"""The Figure 23 setting: BST_FG (Table 6: 20K elements, 100% lookup) at 60
cores with ST sizes 16, 32, 48, 64, 128 and 256 under syncron,
syncron_central_ovrfl and syncron_distrib_ovrfl: the fraction of SE messages
served through overflow, and the slowdown against a run without overflow
(the same scheme with an ST no run fills: --set se.st_entries=4096).

Usage: scripts/figure23.py [--sim build/sc_main/syncron-sim] [--jobs 2]
                           [--timing lt] [--workload bst_fg] [--out FILE.md]
                           [-- extra syncron-sim arguments]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402

SIZES = [16, 32, 48, 64, 128, 256]
NO_OVERFLOW = 4096
SCHEMES = ["syncron", "syncron_central_ovrfl", "syncron_distrib_ovrfl"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sc_main/syncron-sim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timing", default="lt", choices=["lt", "at"])
    ap.add_argument("--workload", default="bst_fg")
    ap.add_argument("--out", default="-")
    ap.add_argument("extra", nargs="*", help="more syncron-sim arguments (after --)")
    a = ap.parse_args()
    outdir = (a.out if a.out != "-" else "figure23") + ".d"
    points = {(sc, n): (f"{sc}_{n}.json", ["--workload", a.workload, "--scheme", sc, "--timing", a.timing,
                                           "--set", f"se.st_entries={n}"] + a.extra)
              for sc in SCHEMES for n in SIZES + [NO_OVERFLOW]}
    res = sweep.run_all(a.sim, points, outdir, a.jobs)
    out = [f"Measured with `syncron-sim --workload {a.workload} --scheme S --set se.st_entries=N` "
           f"(60 cores, timing {a.timing}, Table 6 size and mix, seed 1). Overflow: SE messages served through "
           f"the overflow path; slowdown: simulated time over the same scheme with {NO_OVERFLOW} entries "
           "(no overflow).\n",
           "| ST entries | " + " | ".join(f"{s} overflow | {s} slowdown" for s in SCHEMES) + " |",
           "|---:|" + "---:|---:|" * len(SCHEMES)]
    failed = False
    for n in SIZES:
        cells = []
        for sc in SCHEMES:
            r, base = res[(sc, n)], res[(sc, NO_OVERFLOW)]
            if r["status"] != "ok" or base["status"] != "ok":
                failed = True
                cells += ["error", "error"]
                continue
            cells += [f"{100 * r['overflow_fraction']:.2f}%", f"{r['simulated_ns'] / base['simulated_ns']:.3f}×"]
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    text = "\n".join(out)
    sweep.write_output(text, a.out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
