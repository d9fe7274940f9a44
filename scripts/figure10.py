#!/usr/bin/env python3
"""The Figure 10 sweep: every microbenchmark at the paper's intervals under
every scheme (syncron-sim --compare), as Markdown tables for docs/results.md.

Usage: scripts/figure10.py [--sim build/sc_main/syncron-sim] [--jobs 2]
                           [--ops 100] [--timing lt] [--out results-data.md]
                           [extra syncron-sim arguments after --]

Each (workload, interval) point is one `syncron-sim --compare` (every scheme
in its own process, same configuration and seed); the JSON of every point is
kept next to the output (FILE.d/*.json). Needs only python3.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

# Paper Figure 10's ranges (instructions between synchronization points).
INTERVALS = {
    "lock": [50, 100, 200, 500, 1000, 2000, 5000],
    "barrier": [20, 50, 100, 200, 500, 1000, 2000],
    "semaphore": [100, 200, 500, 1000, 2000, 5000, 10000],
    "condvar": [200, 500, 1000, 2000, 5000, 10000, 20000, 50000],
}
SCHEMES = ["central", "hier", "syncron", "ideal", "flat", "remote_atomics",
           "syncron_central_ovrfl", "syncron_distrib_ovrfl"]
ORDER = ["central", "hier", "syncron", "ideal"]  # Central < Hier < SynCron <= Ideal


def run_point(sim, workload, interval, ops, timing, extra, outdir):
    path = os.path.join(outdir, f"{workload}_{interval}.json")
    cmd = [sim, "--workload", workload, "--interval", str(interval), "--ops", str(ops),
           "--timing", timing, "--compare", ",".join(SCHEMES), "--stats", path] + extra
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not os.path.exists(path):
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr}")
    with open(path) as f:
        return workload, interval, json.load(f)


def table(workload, points):
    rows = [f"| interval | " + " | ".join(SCHEMES) + " |",
            "|---:|" + "---:|" * len(SCHEMES)]
    for interval, c in sorted(points.items()):
        by = {r["scheme"]: r for r in c["rows"]}
        cells = []
        for s in SCHEMES:
            r = by[s]
            if r["status"] != "ok":
                cells.append("error")
                continue
            sp = r.get("speedup_over_baseline")
            cells.append(f"{r['throughput_ops_per_us']:.2f}" + (f" ({sp:.2f}×)" if sp is not None else ""))
        rows.append(f"| {interval} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def ordering(results):
    """The 200-instruction check: throughput Central < Hier < SynCron <= Ideal."""
    lines = ["| primitive | central | hier | syncron | ideal | syncron / central | syncron / hier | ordering holds |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    all_ok = True
    ratios_c, ratios_h = [], []
    for w in INTERVALS:
        c = results[w].get(200)
        if c is None:
            continue
        by = {r["scheme"]: r["throughput_ops_per_us"] for r in c["rows"] if r["status"] == "ok"}
        t = [by.get(s, 0.0) for s in ORDER]
        ok = t[0] < t[1] < t[2] <= t[3] * (1 + 1e-9)
        all_ok &= ok
        rc, rh = t[2] / t[0], t[2] / t[1]
        ratios_c.append(rc)
        ratios_h.append(rh)
        lines.append(f"| {w} | {t[0]:.2f} | {t[1]:.2f} | {t[2]:.2f} | {t[3]:.2f} | {rc:.2f}× | {rh:.2f}× | "
                     + ("yes" if ok else "**no**") + " |")
    if ratios_c:
        lines.append(f"| average | | | | | {sum(ratios_c) / len(ratios_c):.2f}× | "
                     f"{sum(ratios_h) / len(ratios_h):.2f}× | {'yes' if all_ok else '**no**'} |")
    return "\n".join(lines), all_ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sc_main/syncron-sim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--ops", type=int, default=100)
    ap.add_argument("--timing", default="lt", choices=["lt", "at"])
    ap.add_argument("--out", default="-")
    ap.add_argument("extra", nargs="*", help="more syncron-sim arguments (after --)")
    a = ap.parse_args()
    outdir = (a.out if a.out != "-" else "figure10") + ".d"
    os.makedirs(outdir, exist_ok=True)
    results = {w: {} for w in INTERVALS}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(run_point, a.sim, w, n, a.ops, a.timing, a.extra, outdir)
                for w, ns in INTERVALS.items() for n in ns]
        for f in concurrent.futures.as_completed(futs):
            w, n, c = f.result()
            results[w][n] = c
    out = []
    first = next(iter(results["lock"].values()))
    out.append(f"Measured with `{os.path.basename(a.sim)} --compare`, {first['cores']} cores on "
               f"{first['units']} units, {a.ops} operations per core, timing {a.timing}, seed {first['seed']}. "
               "Throughput in operations per µs; in parentheses the speedup over central.\n")
    for w in INTERVALS:
        out.append(f"#### {w}\n\n" + table(w, results[w]) + "\n")
    order_table, ok = ordering(results)
    out.append("#### At 200 instructions: Central < Hier < SynCron ≤ Ideal\n\n" + order_table + "\n")
    text = "\n".join(out)
    if a.out == "-":
        print(text)
    else:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
