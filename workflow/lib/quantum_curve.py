"""The LT quantum's accuracy against its speed (scripts/quantum-curve).

For each quantum of `--quanta` the agreement of workflow/lib/agreement.py is
measured with `--set core.quantum_ns=Q` on the LT runs only: every reference
case and every quick-mode figure point in LT at that quantum against AT. AT
does not depend on the quantum, so it runs once, before the first quantum,
and its results are kept in an AtCache (`--at-cache`, default OUT/at-cache,
keyed by the simulator binary's SHA-256 and the run's arguments): a second
curve from the same simulator runs LT only.

A row per quantum: the host CPU seconds of the LT runs (`host.run_cpu_seconds`
summed over the points, each once), their speed against the row of the
reference quantum (100 ns, the default; the first quantum when 100 is not
asked for), max and mean |LT/AT - 1| over the points (all of them, and those
whose baseline difference is within ±15 %), the points beyond ±15 % and the
claims beyond ±5 % (bare tolerances, a failed run counts), the order claims
whose verdict differs between LT and AT in some group, and the verdict of the
agreement check (the baseline rule, workflow/agreement/baseline.json). Then
the points whose LT CPU seconds change most across the quanta.

Outputs in `--out` (default results/quantum-curve/), each written whole:
curve.md, curve.json, and q<Q>/agreement.{json,md} per quantum.

Host CPU seconds are measurements: the points' runs are short (tens of
milliseconds in quick mode), so a point's time moves from one run to the next,
by tens of per cent on a busy machine; the sums over all points move less.
So that a change of the machine's load during the curve does not favour one
quantum, the LT runs are interleaved: a point's runs at every quantum, then the
next point's. `--repeat N` runs every LT point N times (the whole interleaved
round N times) and takes the smallest CPU seconds of each; the simulated
results must be the same every time (the curve names the points where they
are not and uses the first). Measure on a quiet machine all the same.
"""
import argparse
import json
import os
import sys
import time

import agreement
import sweeps

KEY = "core.quantum_ns"
DEFAULT_QUANTA = "25,50,100,200,500,1000"
REFERENCE_QUANTUM = 100
CHANGING = 5  # points in the table of the largest LT CPU changes


def parse_quanta(text):
    """'25,50,100' -> [25, 50, 100]: positive integers (nanoseconds), each once."""
    out = []
    for item in (text or "").split(","):
        item = item.strip()
        try:
            q = int(item)
        except ValueError:
            q = 0
        if q <= 0:
            raise agreement.AgreementError(f"--quanta {text}: '{item}' is not a quantum in nanoseconds "
                                           "(a positive integer)")
        if q in out:
            raise agreement.AgreementError(f"--quanta {text}: {q} twice")
        out.append(q)
    return out


def reference_of(quanta):
    return REFERENCE_QUANTUM if REFERENCE_QUANTUM in quanta else quanta[0]


def in_baseline_tolerance(row):
    """A point whose baseline LT/AT - 1 is within the point tolerance (the points meant to agree)."""
    b = row.get("baseline")
    return b is not None and abs(b) <= agreement.POINT_TOLERANCE + 1e-12


def curve_row(q, s, prows):
    """One quantum's row of the curve, from its agreement summary and point rows."""
    near = [abs(r["diff"]) for r in agreement.distinct(prows) if in_baseline_tolerance(r) and r["diff"] is not None]
    return {"quantum_ns": q, "lt_cpu_seconds": s["lt_cpu_seconds"], "at_cpu_seconds": s["at_cpu_seconds"],
            "cpu_seconds_missing": s["cpu_seconds_missing"],
            "max_abs_diff": s["max_abs_diff"], "mean_abs_diff": s["mean_abs_diff"],
            "max_abs_diff_baseline_within": max(near) if near else None,
            "mean_abs_diff_baseline_within": sum(near) / len(near) if near else None,
            "points_baseline_within": len(near),
            "points": s["points"], "points_beyond_tolerance": s["points_beyond_tolerance"],
            "points_beyond_tolerance_percent": s["points_beyond_tolerance_percent"],
            "claims": s["claims"], "claims_beyond_tolerance": s["claims_beyond_tolerance"],
            "claims_beyond_tolerance_percent": s["claims_beyond_tolerance_percent"],
            "order_claims": s["order_claims"], "order_claims_differing": s["order_claims_differing"],
            "points_failed": s["points_failed"], "claims_failed": s["claims_failed"], "pass": s["pass"]}


def merge_repeats(runs):
    """One point's LT run results at one quantum, repeated -> (the result, whether the simulated results
    differ): the first, with the smallest CPU seconds of the repeats; a failed repeat is the result."""
    failed = [r for r in runs if r["error"]]
    if failed:
        return failed[0], False
    cpus = [agreement.cpu_seconds(r) for r in runs]
    first = runs[0]
    differ = any({k: v for k, v in r["stats"].items() if k != "host"}
                 != {k: v for k, v in first["stats"].items() if k != "host"} for r in runs[1:])
    if any(c is None for c in cpus):
        return first, differ
    stats = dict(first["stats"], host=dict(first["stats"].get("host") or {}, run_cpu_seconds=min(cpus)))
    return dict(first, stats=stats), differ


def with_speed(rows, reference):
    """The rows with `speed`: the reference quantum's LT CPU seconds over the row's (2.0: twice as fast)."""
    ref = next(r["lt_cpu_seconds"] for r in rows if r["quantum_ns"] == reference)
    return [dict(r, speed=(ref / r["lt_cpu_seconds"]) if r["lt_cpu_seconds"] else None) for r in rows]


def changing(per_point, quanta, n=CHANGING):
    """The `n` points whose LT CPU seconds spread most (max - min) across the quanta."""
    out = []
    for key, p in per_point.items():
        cpu = [p["lt_cpu_seconds"].get(q) for q in quanta]
        if any(v is None for v in cpu):
            continue
        out.append(dict(p, key=key, spread=max(cpu) - min(cpu),
                        ratio=max(cpu) / min(cpu) if min(cpu) > 0 else None))
    return sorted(out, key=lambda p: (-p["spread"], p["key"]))[:n]


def pct(v):
    return "" if v is None else f"{v * 100:.1f} %"


def of(n, total, percent):
    return f"{n} of {total} ({percent:.1f} %)"


def curve_table(rows, reference):
    lines = [f"| quantum (ns) | LT CPU s | speed vs {reference} ns | max \\|LT/AT−1\\| | mean \\|LT/AT−1\\| "
             "| max \\|LT/AT−1\\|, baseline within ±15 % | mean \\|LT/AT−1\\|, baseline within ±15 % "
             "| points beyond ±15 % | claims beyond ±5 % | order claims differing | check (baseline rule) |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        check = "pass" if r["pass"] else f"fail: {r['points_failed']} points, {r['claims_failed']} claims"
        speed = "" if r["speed"] is None else f"{r['speed']:.2f}×"
        lines.append("| " + " | ".join([
            str(r["quantum_ns"]), f"{r['lt_cpu_seconds']:.2f}", speed, pct(r["max_abs_diff"]),
            pct(r["mean_abs_diff"]), pct(r["max_abs_diff_baseline_within"]), pct(r["mean_abs_diff_baseline_within"]),
            of(r["points_beyond_tolerance"], r["points"], r["points_beyond_tolerance_percent"]),
            of(r["claims_beyond_tolerance"], r["claims"], r["claims_beyond_tolerance_percent"]),
            f"{r['order_claims_differing']} of {r['order_claims']}", check]) + " |")
    return "\n".join(lines)


def changing_table(points, quanta):
    head = ["figure", "point"] + [f"LT CPU s at {q} ns" for q in quanta] + ["max − min", "max/min", "AT CPU s"]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(quanta) + 3)]
    for p in points:
        cells = [p["group"], f"`{p['key']}`"] + [f"{p['lt_cpu_seconds'][q]:.3f}" for q in quanta]
        cells += [f"{p['spread']:.3f}", "" if p["ratio"] is None else f"{p['ratio']:.2f}",
                  "" if p["at_cpu_seconds"] is None else f"{p['at_cpu_seconds']:.3f}"]
        lines.append("| " + " | ".join(agreement.cell(c) for c in cells) + " |")
    return "\n".join(lines)


def markdown(data):
    rows, quanta, reference = data["rows"], data["quanta"], data["reference_quantum"]
    at = rows[0]["at_cpu_seconds"] if rows else 0.0
    out = ["# The LT quantum: accuracy against speed", "",
           "Generated by `scripts/quantum-curve` (workflow/lib/quantum_curve.py).", "",
           f"`{data['simulator']}`, quick mode: {rows[0]['points'] if rows else 0} points ("
           + (f"`--only {' '.join(data['only'])}`" if data["only"] else "every reference case and every figure point")
           + f"), LT with `--set {KEY}=Q` against AT; AT ran once "
           f"({at:.2f} host CPU seconds in all). Whole curve: {data['wall_seconds']:.0f} s wall, "
           f"{data['jobs']} runs at a time"
           + (f", every LT point {data['repeat']} times (its smallest CPU seconds)" if data["repeat"] > 1 else "")
           + "." + (f" The simulated results of {len(data['repeats_differing'])} LT points differ between "
                    "repeats (curve.json, `repeats_differing`); the first is used." if data["repeats_differing"]
                    else ""), "",
           f"LT CPU s: `host.run_cpu_seconds` of the LT runs summed over the points; speed: the {reference} ns "
           "row's LT CPU seconds over the row's. |LT/AT−1|: of `throughput_ops_per_us`, over the points with a "
           "result, then over those whose baseline difference is within ±15 % (the points meant to agree). "
           "Points beyond ±15 %, claims beyond ±5 %: bare tolerances, no baseline allowance, a failed run "
           "counts. Order claims differing: whose verdict differs between LT and AT in some group. Check: the "
           "agreement's verdict with the baseline (workflow/agreement/baseline.json).", "",
           curve_table(rows, reference), ""]
    if data["changing"]:
        out += [f"The {len(data['changing'])} points whose LT CPU seconds change most across the quanta "
                "(max − min):", "", changing_table(data["changing"], quanta), ""]
    return "\n".join(out)


def main(argv, root):
    """scripts/quantum-curve; `root` is the repository (the figures and the default baseline)."""
    ap = argparse.ArgumentParser(prog="quantum-curve", description="Measures the LT agreement with AT and the LT "
                                 "host CPU seconds at each quantum (workflow/lib/quantum_curve.py).")
    ap.add_argument("--quanta", default=DEFAULT_QUANTA, help="the quanta in ns, comma-separated "
                    "(default: %(default)s)")
    ap.add_argument("--sim", default="build/sc_main/syncron-sim", help="the simulator (default: %(default)s)")
    ap.add_argument("--out", default="results/quantum-curve", help="curve.md, curve.json and q<Q>/ go here "
                    "(default: %(default)s)")
    ap.add_argument("--at-cache", metavar="DIR", help="the AT results kept between quanta and curves "
                    "(default: OUT/at-cache)")
    ap.add_argument("--baseline", help="the agreement baseline (default: workflow/agreement/baseline.json)")
    ap.add_argument("--only", action="append", default=[], metavar="PATTERN",
                    help="only these figures and reference cases, as lt-at-agreement --only; repeatable")
    ap.add_argument("--repeat", type=int, default=1, metavar="N", help="run every LT point N times and take "
                    "its smallest CPU seconds (default: %(default)s)")
    ap.add_argument("--changing", type=int, default=CHANGING, metavar="N",
                    help="the N points whose LT CPU seconds change most (default: %(default)s)")
    agreement.add_run_options(ap)
    a = ap.parse_args(argv)
    try:
        return command(a, root)
    except agreement.AgreementError as e:
        print(f"quantum-curve: {e}", file=sys.stderr)
        return 2


def command(a, root):
    figure_dir = os.path.join(root, "workflow", "figures")
    quanta = parse_quanta(a.quanta)
    reference = reference_of(quanta)
    simulator = agreement.version(a.sim)
    groups = agreement.plan(figure_dir, a.only)
    baseline_path = a.baseline or os.path.join(root, "workflow", "agreement", "baseline.json")
    baseline = agreement.load_baseline(baseline_path)
    outputs = [os.path.join(a.out, "curve.md"), os.path.join(a.out, "curve.json")]
    outputs += [os.path.join(a.out, f"q{q}", f"agreement.{ext}") for q in quanta for ext in ("json", "md")]
    agreement.check_outputs(outputs, [a.sim, baseline_path] + list(sweeps.definitions(figure_dir).values()))
    cache = agreement.AtCache(a.at_cache or os.path.join(a.out, "at-cache"), a.sim)

    start = time.monotonic()
    at_runs = {rk: args for rk, args in agreement.runs_of(groups).items() if rk[1] == "at"}
    print(f"quantum-curve: {len(at_runs)} points, quanta {', '.join(map(str, quanta))} ns; AT first "
          f"({a.jobs} runs at a time)", file=sys.stderr)
    at = agreement.run_all(a.sim, at_runs, a.jobs, a.timeout, cache)  # fills the cache (failures run again)
    # The LT runs of every quantum, interleaved: each point at every quantum, then the next point.
    settings = {q: {KEY: str(q)} for q in quanta}
    lt_runs = {q: {rk: args for rk, args in agreement.runs_of(groups, settings[q]).items() if rk[1] == "lt"}
               for q in quanta}
    lt_name = {q: f"lt {agreement.settings_text(settings[q])}" for q in quanta}
    repeats = range(max(1, a.repeat))
    combined = {(key, lt_name[q], i): lt_runs[q][(key, "lt")]
                for i in repeats for key, _ in lt_runs[quanta[0]] for q in quanta}
    print(f"quantum-curve: LT, {len(combined)} runs", file=sys.stderr)
    lt = agreement.run_all(a.sim, combined, a.jobs, a.timeout)
    rows, per_point, differing = [], {}, []
    for q in quanta:
        lt_set = settings[q]
        results = dict(at)
        for key, _ in lt_runs[q]:
            results[(key, "lt")], differ = merge_repeats([lt[(key, lt_name[q], i)] for i in repeats])
            if differ:
                differing.append({"quantum_ns": q, "key": key})
                print(f"quantum-curve: {key} {lt_name[q]}: the repeats' results differ", file=sys.stderr)
        prows, crows = agreement.evaluate(groups, results, baseline)
        s = agreement.summary(prows, crows, simulator, lt_set)
        agreement.write_atomic(outputs[2 + 2 * quanta.index(q)],
                               json.dumps(agreement.report(prows, crows, simulator, lt_set), indent=1) + "\n")
        agreement.write_atomic(outputs[3 + 2 * quanta.index(q)],
                               agreement.markdown(prows, crows, groups, simulator, lt_set))
        rows.append(curve_row(q, s, prows))
        for r in agreement.distinct(prows):
            p = per_point.setdefault(r["key"], {"group": r["group"], "at": r["at"],
                                                "at_cpu_seconds": r["at_cpu_seconds"], "baseline": r["baseline"],
                                                "lt": {}, "lt_cpu_seconds": {}, "diff": {}})
            p["lt"][q], p["lt_cpu_seconds"][q], p["diff"][q] = r["lt"], r["lt_cpu_seconds"], r["diff"]
        print(f"quantum-curve: {q} ns: LT {s['lt_cpu_seconds']:.2f} CPU s, max |LT/AT-1| "
              f"{pct(s['max_abs_diff']) or '-'}, mean {pct(s['mean_abs_diff']) or '-'}, "
              f"{s['points_beyond_tolerance']} points beyond 15 %", file=sys.stderr)
    rows = with_speed(rows, reference)
    data = {"simulator": simulator, "quanta": quanta, "reference_quantum": reference, "setting": KEY,
            "only": a.only, "jobs": a.jobs, "repeat": len(repeats), "repeats_differing": differing,
            "wall_seconds": time.monotonic() - start, "rows": rows,
            "changing": changing(per_point, quanta, max(0, a.changing)),
            "points": per_point}
    # JSON object keys are strings: the per-quantum maps are keyed by the quantum's text.
    agreement.write_atomic(outputs[1], json.dumps(data, indent=1) + "\n")
    agreement.write_atomic(outputs[0], markdown(data))
    print(f"quantum-curve: wrote {outputs[0]} and {outputs[1]} ({data['wall_seconds']:.0f} s)", file=sys.stderr)
    return 0
