#!/usr/bin/env python3
"""The Figure 11 sweep: every data structure (paper Table 6 sizes and mixes)
at 15, 30, 45 and 60 cores (one NDP unit per 15 cores) under Central, Hier,
SynCron and Ideal, as Markdown tables for docs/results.md, plus the ST
overflow and per-operation figures at 60 cores under SynCron.

Usage: scripts/figure11.py [--sim build/sc_main/syncron-sim] [--jobs 2]
                           [--timing lt] [--cores 15,30,45,60]
                           [--structures stack,queue,...] [--out FILE.md]
                           [-- extra syncron-sim arguments]

Each (structure, cores) point is one `syncron-sim --compare` (every scheme in
its own process, same configuration and seed); every point's JSON is kept in
FILE.d/. Operations per core are each structure's default (docs/workloads.md)
unless the extra arguments give --ops. Needs only python3.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402

STRUCTURES = ["stack", "queue", "array_map", "priority_queue", "skip_list", "hash_table",
              "linked_list", "bst_fg", "bst_drachsler"]
SCHEMES = ["central", "hier", "syncron", "ideal"]


def fmt(x):
    """Throughput with three significant digits (the linked list runs at a few hundredths)."""
    return f"{x:.2f}" if x >= 1 else f"{x:.3g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sc_main/syncron-sim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timing", default="lt", choices=["lt", "at"])
    ap.add_argument("--cores", default="15,30,45,60")
    ap.add_argument("--structures", default=",".join(STRUCTURES))
    ap.add_argument("--out", default="-")
    ap.add_argument("extra", nargs="*", help="more syncron-sim arguments (after --)")
    a = ap.parse_args()
    cores = [int(c) for c in a.cores.split(",")]
    structures = a.structures.split(",")
    outdir = (a.out if a.out != "-" else "figure11") + ".d"
    points = {(s, n): (f"{s}_{n}.json", ["--workload", s, "--cores", str(n), "--timing", a.timing,
                                          "--compare", ",".join(SCHEMES)] + a.extra)
              for s in structures for n in cores}
    res = sweep.run_all(a.sim, points, outdir, a.jobs)

    out = [f"Measured with `syncron-sim --workload NAME --cores N --compare {','.join(SCHEMES)}` "
           f"(timing {a.timing}, Table 6 sizes and mixes, each structure's default operations per core, "
           "seed 1). Throughput in operations per µs; in parentheses the speedup over central.\n",
           "| structure | cores | " + " | ".join(SCHEMES) + " | syncron / hier | syncron / ideal |",
           "|---|---:|" + "---:|" * (len(SCHEMES) + 2)]
    failed = False
    for s in structures:
        for n in cores:
            by = sweep.rows_by_scheme(res[(s, n)])
            cells = []
            for sc in SCHEMES:
                r = by[sc]
                if r["status"] != "ok":
                    failed = True
                    cells.append("error")
                    continue
                sp = r.get("speedup_over_baseline")
                cells.append(fmt(r["throughput_ops_per_us"]) + (f" ({sp:.2f}×)" if sp is not None else ""))
            t = {sc: by[sc]["throughput_ops_per_us"] for sc in SCHEMES if by[sc]["status"] == "ok"}
            vs_h = f"{t['syncron'] / t['hier']:.2f}×" if "syncron" in t and t.get("hier") else ""
            vs_i = f"{t['syncron'] / t['ideal']:.2f}×" if "syncron" in t and t.get("ideal") else ""
            out.append(f"| {s} | {n} | " + " | ".join(cells) + f" | {vs_h} | {vs_i} |")

    n = max(cores)
    out += ["", f"At {n} cores under syncron (from the same runs):", "",
            "| structure | sync requests / op | memory accesses / op | bytes across links / op | "
            "ST occupancy max (of 64) | overflow fraction |",
            "|---|---:|---:|---:|---:|---:|"]
    for s in structures:
        run = res[(s, n)]["runs"]["syncron"]
        if run.get("status") != "ok":
            out.append(f"| {s} | error | | | | |")
            continue
        po = run["per_operation"]
        st_max = max((se["st_occupancy_max"] for se in run["se"]), default=0)
        out.append(f"| {s} | {po['sync_requests']:.2f} | {po['memory_accesses']:.2f} | "
                   f"{po['bytes_across_links']:.1f} | {st_max} | {run['overflow_fraction']:.4f} |")
    text = "\n".join(out)
    sweep.write_output(text, a.out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
