#!/usr/bin/env python3
"""Memory technologies and energy (docs/results.md, "Memory technologies and
energy"): (1) the Figure 10 lock and condition-variable points at 200
instructions on hmc4, hbm4 and ddr4 under every scheme: throughput, energy and
SynCron's speedup and energy saving over Central and over Hier (the paper's
Figure 18 setting, with energy); (2) energy by component and data movement
(data and synchronization bytes, within units and across links) per scheme for
the microbenchmarks, the data structures and the applications on one preset
(the paper's Figures 14 and 15 setting), with SynCron's energy and
data-movement reduction over Central and Hier on each application.

Usage: scripts/memory_energy.py [--sim build/sc_main/syncron-sim] [--jobs 2]
                                [--timing lt] [--preset hbm4]
                                [--part all|tech|energy|apps]
                                [--scale 10] [--edge-factor 8] [--out FILE.md]
                                [-- extra syncron-sim arguments]

The applications run on the inputs of docs/results.md "Results: the
applications": an R-MAT graph (--scale, --edge-factor; seed 1) for the graph
kernels, pr its default 10 iterations, ts the default random walk.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402

PRESETS = ["hmc4", "hbm4", "ddr4"]
SCHEMES = ["central", "hier", "syncron", "ideal"]
PRIMITIVES = ["lock", "condvar"]
WORKLOADS = ["lock", "barrier", "semaphore", "condvar", "stack", "queue", "priority_queue", "hash_table",
             "linked_list", "bst_fg"]
APPS = ["bfs", "cc", "sssp", "pr", "tf", "tc", "ts"]
COMPONENTS = ["cores", "caches", "network", "links", "memory", "se"]


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def energy_rows(name, runs):
    """The per-scheme rows (energy by component in uJ, data movement in KB) of one --compare."""
    out = []
    for s in SCHEMES:
        st = runs[s]
        if st.get("status") != "ok":
            out.append(f"| {name} | {s} | failed: {st.get('error', '')} |")
            continue
        e, d = st["energy"], st["data_movement"]
        out.append(f"| {name} | {s} | {e['total'] * 1e-6:.2f} | " +
                   " | ".join(f"{e[c] * 1e-6:.2f}" for c in COMPONENTS) +
                   f" | {d['within_units']['data'] / 1024:.1f} | {d['within_units']['sync'] / 1024:.1f}"
                   f" | {d['across_links']['data'] / 1024:.1f} | {d['across_links']['sync'] / 1024:.1f} |")
    return out


def energy_header(text):
    return ["", text, "",
            "| workload | scheme | total | " + " | ".join(COMPONENTS) +
            " | data within | sync within | data across | sync across |",
            "|---|---|---|" + "---|" * (len(COMPONENTS) + 4)]


def reductions(runs):
    """SynCron's reductions over Central and Hier of one --compare: {(metric, scheme): other / syncron}."""
    def metrics(st):
        d = st["data_movement"]
        return {"time": st["simulated_ns"], "energy": st["energy"]["total"], "moved": d["total"],
                "sync": d["within_units"]["sync"] + d["across_links"]["sync"], "sync_across": d["across_links"]["sync"]}
    if any(runs[s].get("status") != "ok" for s in ("central", "hier", "syncron")):
        return None
    sy = metrics(runs["syncron"])
    return {(m, s): metrics(runs[s])[m] / sy[m] for s in ("central", "hier") for m in sy}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sc_main/syncron-sim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timing", default="lt", choices=["lt", "at"])
    ap.add_argument("--preset", default="hbm4", help="preset of the per-workload energy table")
    ap.add_argument("--part", default="all", choices=["all", "tech", "energy", "apps"],
                    help="tech: the presets table only; energy: the per-workload tables only (microbenchmarks, "
                         "data structures, applications); apps: the applications' tables only")
    ap.add_argument("--scale", type=int, default=10, help="R-MAT scale of the graph applications")
    ap.add_argument("--edge-factor", type=int, default=8, help="R-MAT edge factor of the graph applications")
    ap.add_argument("--out", default="-")
    ap.add_argument("extra", nargs="*", help="more syncron-sim arguments (after --)")
    a = ap.parse_args()
    outdir = (a.out if a.out != "-" else "memory_energy") + ".d"
    compare = ",".join(SCHEMES)
    tech = a.part in ("all", "tech")
    per_workload = a.part in ("all", "energy")
    apps = a.part in ("all", "energy", "apps")
    points = {} if not tech else {("tech", p, w): (f"tech_{p}_{w}.json", ["--config", p, "--workload", w, "--interval", "200",
                                                      "--timing", a.timing, "--compare", compare] + a.extra)
              for p in PRESETS for w in PRIMITIVES}
    if per_workload:
        points.update({("energy", w): (f"energy_{a.preset}_{w}.json", ["--config", a.preset, "--workload", w,
                                                                        "--timing", a.timing, "--compare", compare]
                                       + a.extra) for w in WORKLOADS})
    if apps:
        graph = ["--set", f"workload.rmat_scale={a.scale}", "--set", f"workload.rmat_edge_factor={a.edge_factor}"]
        points.update({("app", w): (f"energy_{a.preset}_{w}.json", ["--config", a.preset, "--workload", w,
                                                                     "--timing", a.timing, "--compare", compare]
                                    + (graph if w != "ts" else []) + a.extra) for w in APPS})
    res = sweep.run_all(a.sim, points, outdir, a.jobs)

    extra = f" {' '.join(a.extra)}" if a.extra else ""
    out = [f"Measured with `syncron-sim --config P --workload W --interval 200 --compare {compare}{extra}` "
           f"(60 cores, timing {a.timing}, seed 1; statistics in `{outdir}/`).", ""]
    if tech:
        out += ["| preset | primitive | scheme | ops/us | energy (uJ) | nJ/op | SynCron speedup / energy saving |",
                "|---|---|---|---|---|---|---|"]
    for p in PRESETS if tech else []:
        for w in PRIMITIVES:
            rows = sweep.rows_by_scheme(res[("tech", p, w)])
            sy = rows["syncron"]
            for s in SCHEMES:
                r = rows[s]
                note = ""
                if s in ("central", "hier") and r["status"] == "ok" and sy["status"] == "ok":
                    note = (f"{sy['throughput_ops_per_us'] / r['throughput_ops_per_us']:.2f}x faster, "
                            f"{(1 - sy['energy_pj'] / r['energy_pj']) * 100:.0f}% less energy")
                nj = r["energy_pj"] * 1e-3 / r["operations"] if r["operations"] else 0
                out.append(f"| {p} | {w} | {s} | {r['throughput_ops_per_us']:.2f} | {r['energy_pj'] * 1e-6:.2f} | "
                           f"{nj:.1f} | {note} |")
    if per_workload:
        out += energy_header(f"Energy by component (uJ) and data movement (KB) per scheme on `{a.preset}` "
                             f"(each workload at its default size and operations, 60 cores):")
    for w in WORKLOADS if per_workload else []:
        out += energy_rows(w, res[("energy", w)]["runs"])
    if apps:
        out += energy_header(f"The applications on `{a.preset}` (graph kernels on R-MAT scale {a.scale}, edge factor "
                             f"{a.edge_factor}, seed 1; `pr` 10 iterations; `ts` the default random walk; 60 cores):")
    for w in APPS if apps else []:
        out += energy_rows(w, res[("app", w)]["runs"])
    if apps:
        out += ["", "SynCron's reduction over Central and over Hier (the other scheme's figure / SynCron's): "
                    "simulated time, energy, all bytes moved, synchronization bytes, "
                    "synchronization bytes across links:", "",
                "| app | time /central | time /hier | energy /central | energy /hier | moved /central | moved /hier "
                "| sync /central | sync /hier | sync across /central | sync across /hier |",
                "|---|" + "---:|" * 10]
        red = {w: reductions(res[("app", w)]["runs"]) for w in APPS}
        cols = [(m, s) for m in ("time", "energy", "moved", "sync", "sync_across") for s in ("central", "hier")]
        for w in APPS:
            out.append(f"| {w} | " + (" | ".join(f"{red[w][c]:.2f}x" for c in cols) if red[w] else "failed") + " |")
        for label, group in (("geomean, 6 graph kernels", APPS[:-1]), ("geomean, all 7", APPS)):
            ok = [red[w] for w in group if red[w]]
            out.append(f"| {label} | " + " | ".join(f"{geomean([r[c] for r in ok]):.2f}x" for c in cols) + " |")
    sweep.write_output("\n".join(out), a.out)


if __name__ == "__main__":
    main()
