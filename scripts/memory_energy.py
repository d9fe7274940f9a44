#!/usr/bin/env python3
"""Memory technologies and energy (docs/results.md, "Memory technologies and
energy"): (1) the Figure 10 lock and condition-variable points at 200
instructions on hmc4, hbm4 and ddr4 under every scheme: throughput, energy and
SynCron's speedup and energy saving over Central and over Hier (the paper's
Figure 18 setting, with energy); (2) energy by component and data movement
(data and synchronization bytes, within units and across links) per scheme for
the microbenchmarks and the data structures on one preset (the paper's Figures
14 and 15 setting).

Usage: scripts/memory_energy.py [--sim build/sc_main/syncron-sim] [--jobs 2]
                                [--timing lt] [--preset hbm4] [--out FILE.md]
                                [-- extra syncron-sim arguments]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402

PRESETS = ["hmc4", "hbm4", "ddr4"]
SCHEMES = ["central", "hier", "syncron", "ideal"]
PRIMITIVES = ["lock", "condvar"]
WORKLOADS = ["lock", "barrier", "semaphore", "condvar", "stack", "queue", "priority_queue", "hash_table",
             "linked_list", "bst_fg"]
COMPONENTS = ["cores", "caches", "network", "links", "memory", "se"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sc_main/syncron-sim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timing", default="lt", choices=["lt", "at"])
    ap.add_argument("--preset", default="hbm4", help="preset of the per-workload energy table")
    ap.add_argument("--part", default="all", choices=["all", "tech", "energy"],
                    help="tech: the presets table only; energy: the per-workload table only")
    ap.add_argument("--out", default="-")
    ap.add_argument("extra", nargs="*", help="more syncron-sim arguments (after --)")
    a = ap.parse_args()
    outdir = (a.out if a.out != "-" else "memory_energy") + ".d"
    compare = ",".join(SCHEMES)
    tech = a.part in ("all", "tech")
    per_workload = a.part in ("all", "energy")
    points = {} if not tech else {("tech", p, w): (f"tech_{p}_{w}.json", ["--config", p, "--workload", w, "--interval", "200",
                                                      "--timing", a.timing, "--compare", compare] + a.extra)
              for p in PRESETS for w in PRIMITIVES}
    if per_workload:
        points.update({("energy", w): (f"energy_{a.preset}_{w}.json", ["--config", a.preset, "--workload", w,
                                                                        "--timing", a.timing, "--compare", compare]
                                       + a.extra) for w in WORKLOADS})
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
        out += ["", f"Energy by component (uJ) and data movement (KB) per scheme on `{a.preset}` "
                    f"(each workload at its default size and operations, 60 cores):", "",
                "| workload | scheme | total | " + " | ".join(COMPONENTS) +
                " | data within | sync within | data across | sync across |",
                "|---|---|---|" + "---|" * (len(COMPONENTS) + 4)]
    for w in WORKLOADS if per_workload else []:
        runs = res[("energy", w)]["runs"]
        for s in SCHEMES:
            st = runs[s]
            if st.get("status") != "ok":
                out.append(f"| {w} | {s} | failed: {st.get('error', '')} |")
                continue
            e, d = st["energy"], st["data_movement"]
            out.append(f"| {w} | {s} | {e['total'] * 1e-6:.2f} | " +
                       " | ".join(f"{e[c] * 1e-6:.2f}" for c in COMPONENTS) +
                       f" | {d['within_units']['data'] / 1024:.1f} | {d['within_units']['sync'] / 1024:.1f}"
                       f" | {d['across_links']['data'] / 1024:.1f} | {d['across_links']['sync'] / 1024:.1f} |")
    sweep.write_output("\n".join(out), a.out)


if __name__ == "__main__":
    main()
