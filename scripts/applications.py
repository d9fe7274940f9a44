#!/usr/bin/env python3
"""The applications sweep (paper Figures 12, 13, 17, 20, 22 and Table 7, at
the model's scale): the six graph kernels on an R-MAT graph and the time
series, each under Central, Hier, SynCron, Ideal and flat; ST occupancy per
application; the effect of the ST size on ts and one graph kernel; and
optionally one large LT run's host time and peak memory. Markdown for
docs/results.md.

Usage: scripts/applications.py [--sim build/sc_main/syncron-sim] [--jobs 2]
                               [--timing lt] [--scale 8] [--edge-factor 8]
                               [--apps bfs,cc,sssp,pr,tf,tc,ts]
                               [--st-apps ts,cc] [--st-sizes 64,48,32,16,8]
                               [--large SCALE] [--large-app bfs] [--large-edge-factor 24]
                               [--out FILE.md]
                               [-- extra syncron-sim arguments]

Each application is one `syncron-sim --compare` (every scheme in its own
process, same configuration and seed); each ST size one run under syncron.
Speedups are ratios of simulated time (the same work in less time), as the
paper reports them. Every run's JSON is kept in FILE.d/. Needs only python3.

The experiments that change one assumption at a time (formerly `--vary`) are
sweeps of the evaluation workflow: workflow/experiments/apps_*.yaml,
docs/sweeps.md and docs/results.md.
"""
import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402

APPS = ["bfs", "cc", "sssp", "pr", "tf", "tc", "ts"]
SCHEMES = ["central", "hier", "syncron", "ideal", "flat"]


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def app_args(app, a):
    args = ["--workload", app, "--timing", a.timing]
    if app != "ts":
        args += ["--set", f"workload.rmat_scale={a.scale}", "--set", f"workload.rmat_edge_factor={a.edge_factor}"]
    return args + a.extra


def st_table(st_apps, sizes, res):
    """The ST-size table (empty without st_apps)."""
    if not st_apps:
        return []
    out = ["", "ST size under syncron: slowdown over a 64-entry ST (simulated time / time at 64) and the "
           "fraction of SE messages served through overflow.", "",
           "| app | " + " | ".join(f"{n} entries" for n in sizes) + " |", "|---|" + "---:|" * len(sizes)]
    for app in st_apps:
        base = res[("st", app, sizes[0])]
        cells = []
        for n in sizes:
            r = res[("st", app, n)]
            if r.get("status") != "ok" or base.get("status") != "ok":
                cells.append("error")
                continue
            cells.append(f"{r['simulated_ns'] / base['simulated_ns']:.2f}× ({r['overflow_fraction']:.3f})")
        out.append(f"| {app} | " + " | ".join(cells) + " |")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sc_main/syncron-sim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timing", default="lt", choices=["lt", "at"])
    ap.add_argument("--scale", type=int, default=8)
    ap.add_argument("--edge-factor", type=int, default=8)
    ap.add_argument("--apps", default=",".join(APPS))
    ap.add_argument("--st-apps", default="ts,cc")
    ap.add_argument("--st-sizes", default="64,48,32,16,8")
    ap.add_argument("--large", type=int, default=0, help="also one LT run at this R-MAT scale")
    ap.add_argument("--large-app", default="bfs")
    ap.add_argument("--large-edge-factor", type=int, default=24,
                    help="edge factor of the large run (24 at scale 16: over a million distinct edges)")
    ap.add_argument("--out", default="-")
    ap.add_argument("extra", nargs="*", help="more syncron-sim arguments (after --)")
    a = ap.parse_args()
    apps = [x for x in a.apps.split(",") if x]
    st_apps = [x for x in a.st_apps.split(",") if x]
    sizes = [int(s) for s in a.st_sizes.split(",") if s]
    outdir = (a.out if a.out != "-" else "applications") + ".d"

    points = {("cmp", app): (f"{app}.json", app_args(app, a) + ["--compare", ",".join(SCHEMES)]) for app in apps}
    for app in st_apps:
        for n in sizes:
            points[("st", app, n)] = (f"{app}_st{n}.json",
                                      app_args(app, a) + ["--scheme", "syncron", "--set", f"se.st_entries={n}"])
    res = sweep.run_all(a.sim, points, outdir, a.jobs)

    out = [f"Measured with `scripts/applications.py --scale {a.scale} --edge-factor {a.edge_factor} "
           f"--timing {a.timing}`: graph kernels on R-MAT scale {a.scale}, edge factor {a.edge_factor} "
           "(seed 1), ts on the default random walk (256 values, window 16), 60 client cores in 4 units. "
           "Simulated time in µs; in parentheses the speedup over central (central time / scheme time).\n",
           "| app | " + " | ".join(SCHEMES) + " | syncron / hier | syncron / ideal | syncron / flat |",
           "|---|" + "---:|" * (len(SCHEMES) + 3)]
    ratios = {k: [] for k in ("central", "hier", "ideal", "flat")}
    for app in apps:
        by = sweep.rows_by_scheme(res[("cmp", app)])
        ns = {s: by[s]["simulated_ns"] for s in SCHEMES if by[s]["status"] == "ok"}
        cells = []
        for s in SCHEMES:
            if s not in ns:
                cells.append("error")
                continue
            sp = ns["central"] / ns[s] if "central" in ns and ns[s] else None
            cells.append(f"{ns[s] / 1000:.1f}" + (f" ({sp:.2f}×)" if sp else ""))
        sy = ns.get("syncron")
        rel = {k: (ns[k] / sy if sy and k in ns else None) for k in ratios}
        if app != "ts":
            for k in ratios:
                if rel[k]:
                    ratios[k].append(rel[k])
        out.append(f"| {app} | " + " | ".join(cells) + " | " +
                   " | ".join(f"{rel[k]:.2f}×" if rel[k] else "" for k in ("hier", "ideal", "flat")) + " |")
    if ratios["central"]:
        out += ["", "Geometric means over the graph kernels (SynCron's speedup = other scheme's time / "
                "SynCron's): " + ", ".join(f"over {k} {geomean(v):.2f}×" for k, v in ratios.items() if v) + "."]

    out += ["", "ST occupancy under syncron (from the same runs; 64-entry STs): the time-average of occupied "
            "entries as % of the ST (the paper's Table 7 metric), averaged over the 4 SEs, and the largest "
            "per-SE maximum; with the application's lock acquisitions, remote access fraction and overflow.", "",
            "| app | ST occupancy avg % | ST occupancy max % | lock acquisitions | remote accesses | "
            "overflow fraction |", "|---|---:|---:|---:|---:|---:|"]
    for app in apps:
        run = res[("cmp", app)]["runs"].get("syncron", {})
        se = run.get("se", [])
        if run.get("status") != "ok" or not se:
            out.append(f"| {app} | error | | | | |")
            continue
        avg = sum(s["st_occupancy_avg_pct"] for s in se) / len(se)
        mx = max(s.get("st_occupancy_max_pct", 0) for s in se)
        w = run["workload_stats"]
        out.append(f"| {app} | {avg:.2f} | {mx:.1f} | {w['lock_acquisitions']} | "
                   f"{100 * w['remote_access_fraction']:.1f}% | {run['overflow_fraction']:.4f} |")

    out += st_table(st_apps, sizes, res)

    if a.large:
        path = os.path.join(outdir, f"large_{a.large_app}_{a.large}.json")
        shown = ["--workload", a.large_app, "--timing", "lt", "--set", f"workload.rmat_scale={a.large}",
                 "--set", f"workload.rmat_edge_factor={a.large_edge_factor}"] + a.extra
        cmd = [a.sim] + shown + ["--stats", path]
        start = time.time()
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wall = time.time() - start
        rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # kB on Linux
        s = json.load(open(path)) if os.path.exists(path) else {}
        w = s.get("workload_stats", {})
        out += ["", f"Large run: `{' '.join(['syncron-sim'] + shown)}`", "",
                f"- status {s.get('status', 'no statistics')} (exit {done.returncode}), check "
                f"{s.get('check', {}).get('ok')}, {w.get('vertices')} vertices, {w.get('edges')} undirected edges "
                f"({2 * (w.get('edges') or 0)} stored), {w.get('lock_acquisitions')} lock acquisitions",
                f"- simulated {s.get('simulated_ns', 0) / 1e6:.3f} ms; host time {wall:.1f} s wall "
                f"(host.seconds {s.get('host', {}).get('seconds', float('nan')):.1f}); peak RSS of the largest "
                f"child process {rss_mb:.0f} MB"]
    sweep.write_output("\n".join(out), a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
