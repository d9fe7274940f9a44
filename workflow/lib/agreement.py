"""LT against AT: how far the loosely-timed mode's results are from the
approximately-timed reference (docs/timing.md, "LT against AT: the agreement").

Every reference case below and every quick-mode point of every figure runs
twice, `--timing lt` and `--timing at` (a point's own timing is replaced; a
point several figures ask for runs once). For each point the rows hold the
throughput in both and their relative difference LT/AT - 1; for each figure
claim, the claim's model value (workflow/lib/figures.py) on the LT rows and
on the AT rows.

The tolerance compares with a baseline (workflow/agreement/baseline.json),
the differences recorded once from a known simulator:

    a point passes when |LT/AT - 1| <= 15%, or, where its baseline difference
    already exceeded 15%, when |LT/AT - 1| <= |baseline| + 0.5 points; a run
    that fails in either timing fails;
    a claim with a number passes the same way with 5%;
    an order claim passes when it holds in the same groups in LT and AT (or
    differs in no group its baseline did not already differ in).

`--lt-set KEY=VALUE` adds settings to the LT runs only (`--lt-set
core.quantum_ns=500`: LT at that quantum against the unchanged AT), and
`--at-cache DIR` keeps the AT results, keyed by the run's arguments and the
simulator binary's SHA-256, so that a series of LT settings (the quantum
curve, workflow/lib/quantum_curve.py) runs AT once.
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

import figures
import sweeps
import tidy

TIMINGS = ("lt", "at")
Y = "throughput_ops_per_us"  # the per-point metric (stats.md); every figure's points report it
POINT_TOLERANCE = 0.15
CLAIM_TOLERANCE = 0.05
EPSILON = 0.005  # slack over a baseline difference: 0.5 percentage points
REFERENCE = "reference"
BEGIN = "<!-- agreement:begin -->"
END = "<!-- agreement:end -->"
WORST = 10  # points in the short report (the one spliced into the docs)

WORKLOADS = ("lock", "barrier", "semaphore", "condvar")
SCHEMES = ("syncron", "central", "hier", "ideal", "flat", "remote_atomics", "syncron_distrib_ovrfl")


class AgreementError(ValueError):
    """Bad input (simulator, baseline, definition, output path); the message names the file."""


def reference_cases():
    """[(label, point)]: the 36 microbenchmark cases, every scheme and the ST's two edge cases per primitive."""
    out = []
    for w in WORKLOADS:
        out += [(f"{w}-{s}", {"workload": w, "scheme": s, "ops": 20}) for s in SCHEMES]
        out.append((f"{w}-no-st", {"workload": w, "ops": 20, "se.st_entries": 0}))
        out.append((f"{w}-overflow", {"workload": w, "ops": 20, "workload.variables": 16, "se.st_entries": 4,
                                      "workload.memory_check": True}))
    return out


def untimed(point):
    """The point without its timing: the two runs of a point differ in nothing else."""
    return {k: v for k, v in point.items() if k != "timing"}


def key_of(point):
    """A point's name in the tables and the baseline: its arguments without timing."""
    return " ".join(sweeps.arguments(untimed(point)))


def selected(name, patterns):
    return not patterns or any(fnmatch.fnmatch(name, p) for p in patterns)


def plan(figure_dir, only=()):
    """[(group, spec, [(label, point)])]: the reference cases, then each figure in name order, its quick-mode
    points in definition order; `only` (shell patterns) keeps the figures and the cases (`reference/LABEL`)
    it names. A malformed definition raises AgreementError naming the file, before anything runs."""
    groups = []
    cases = [(label, p) for label, p in reference_cases()
             if selected(REFERENCE, only) or selected(f"{REFERENCE}/{label}", only)]
    if cases:
        groups.append((REFERENCE, {}, cases))
    for name, path in sweeps.definitions(figure_dir).items():
        if not selected(name, only):
            continue
        try:
            spec = sweeps.load(path)
            pts = sweeps.points(spec, "quick")
        except sweeps.SweepError as e:
            raise AgreementError(str(e)) from None
        groups.append((name, spec, [(key_of(p), p) for p in pts]))
    if not groups:
        raise AgreementError(f"--only {' '.join(only)}: no figure or reference case matches")
    return groups


def parse_settings(items):
    """`--lt-set KEY=VALUE` arguments -> {KEY: VALUE}, in the order given (a later KEY wins)."""
    out = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key or key == "timing" or any(c.isspace() for c in key):
            raise AgreementError(f"--lt-set {item}: expected KEY=VALUE, a setting other than timing "
                                 "(--lt-set core.quantum_ns=500)")
        out.pop(key, None)
        out[key] = value
    return out


def settings_text(settings):
    """The LT settings as the command line gives them: `--set core.quantum_ns=500`."""
    return " ".join(f"--set {k}={sweeps.text(v)}" for k, v in (settings or {}).items())


def runs_of(groups, lt_set=None):
    """{(key, timing): arguments}: each distinct point once per timing, in plan order. `lt_set` ({name: value})
    is added to the LT runs only, replacing the point's own value of a setting it names; the key stays the
    point's (its baseline is the same)."""
    extra = {"lt": dict(lt_set or {}), "at": {}}
    out = {}
    for _, _, pts in groups:
        for _, p in pts:
            for t in TIMINGS:
                out.setdefault((key_of(p), t), sweeps.arguments({**untimed(p), "timing": t, **extra[t]}))
    return out


def version(sim):
    """`syncron-sim VERSION (commit C)`: names the simulator in the report, and shows that it starts."""
    if not (os.path.isfile(sim) and os.access(sim, os.X_OK)):
        raise AgreementError(f"{sim}: no simulator there (build it, or give --sim PATH)")
    try:
        done = subprocess.run([sim, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise AgreementError(f"{sim}: cannot run it: {e}") from None
    if done.returncode != 0 or not done.stdout.strip():
        raise AgreementError(f"{sim}: not a working syncron-sim (--version: {done.stderr.strip()[-200:]})")
    return done.stdout.strip().splitlines()[0]


def run(sim, args, path, timeout):
    """One simulation: {"error": None or why it failed, "stats": the --stats JSON or None}."""
    cmd = [sim, *args, "--stats", path]
    try:
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"no result after {timeout} s", "stats": None}
    stats = None
    if os.path.exists(path):
        try:
            stats = tidy.read_stats(path)
        except ValueError:
            pass
        os.unlink(path)
    error = None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [""])[-1]
        error = f"exit status {done.returncode}: {last}".rstrip(": ")
    elif stats is None:
        error = "no statistics written"
    elif stats.get("status") != "ok":
        error = f"status {stats.get('status')}: {stats.get('error', '')}"
    elif not (stats.get("check") or {}).get("ok", True):
        error = "the workload's checks failed"
    return {"error": error, "stats": stats}


def simulator_id(sim):
    """The SHA-256 of the simulator binary: a rebuilt simulator is another one, a copied one the same."""
    h = hashlib.sha256()
    try:
        with open(sim, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError as e:
        raise AgreementError(f"{sim}: cannot read the simulator: {e.strerror}") from None
    return h.hexdigest()


class AtCache:
    """AT results kept in a directory, one JSON file per run, keyed by the simulator binary's hash and the
    run's arguments. AT does not depend on the LT settings, so a series of LT settings runs AT once. Only
    successful runs are kept (a timeout or a crash is run again)."""

    def __init__(self, directory, sim):
        self.directory = directory
        self.simulator = simulator_id(sim)

    def path(self, args):
        digest = hashlib.sha256(json.dumps([self.simulator, list(args)]).encode()).hexdigest()[:32]
        return os.path.join(self.directory, f"at-{digest}.json")

    def get(self, args):
        """The cached run result, or None."""
        try:
            with open(self.path(args)) as f:
                data = json.load(f)
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("simulator") != self.simulator \
                or data.get("args") != list(args) or not isinstance(data.get("stats"), dict):
            return None
        return {"error": None, "stats": data["stats"]}

    def put(self, args, result):
        if result["error"] is None and result["stats"] is not None:
            write_atomic(self.path(args), json.dumps({"simulator": self.simulator, "args": list(args),
                                                      "stats": result["stats"]}) + "\n")


def run_all(sim, runs, jobs, timeout, cache=None):
    """{(key, timing): run result}, `jobs` simulations at a time; the outputs live in a temporary directory.
    With `cache` (an AtCache), an AT run found there is not run, and an AT run made is kept there."""
    results = {}
    todo = {}
    for rk, args in runs.items():
        hit = cache.get(args) if cache is not None and rk[1] == "at" else None
        if hit is not None:
            results[rk] = hit
        else:
            todo[rk] = args
    if cache is not None:
        print(f"{len(results)} AT runs from the cache {cache.directory}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="lt-at-agreement-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(run, sim, args, os.path.join(tmp, f"{i}.json"), timeout): rk
                   for i, (rk, args) in enumerate(todo.items())}
        for n, f in enumerate(concurrent.futures.as_completed(futures), 1):
            rk = futures[f]
            results[rk] = f.result()
            if results[rk]["error"]:
                print(f"failed: {rk[0]} --timing {rk[1]}: {results[rk]['error']}", file=sys.stderr)
            elif cache is not None and rk[1] == "at":
                cache.put(todo[rk], results[rk])
            if n % 50 == 0 or n == len(futures):
                print(f"{n}/{len(futures)} runs", file=sys.stderr)
    return results


def cpu_seconds(result):
    """The run's host CPU seconds (`host.run_cpu_seconds` of its statistics), or None."""
    v = ((result.get("stats") or {}).get("host") or {}).get("run_cpu_seconds")
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def relative(lt, at):
    """LT/AT - 1, or None where it means nothing (a missing value, AT 0 with LT not)."""
    if not isinstance(lt, (int, float)) or not isinstance(at, (int, float)):
        return None
    if at == 0:
        return 0.0 if lt == 0 else None
    return lt / at - 1


def within(diff, baseline, tolerance):
    """The tolerance rule: |diff| <= tolerance, or no further than an already larger baseline difference."""
    if diff is None:
        return False
    limit = tolerance
    if baseline is not None and abs(baseline) > tolerance:
        limit = abs(baseline) + EPSILON
    return abs(diff) <= limit + 1e-12


def verdict(ok, diff, baseline, tolerance, error=None):
    """A row's verdict as the tables show it."""
    if error:
        return f"fail: {error}"
    if not ok:
        return "fail"
    if diff is not None and abs(diff) > tolerance:
        return "pass (baseline)"
    return "pass"


def point_rows(groups, results, baseline):
    """A row per point of every group (a shared point appears under each of its groups)."""
    rows = []
    base = (baseline or {}).get("points", {})
    for group, _, pts in groups:
        for label, p in pts:
            key = key_of(p)
            lt, at = results[(key, "lt")], results[(key, "at")]
            errors = [f"{t}: {r['error']}" for t, r in (("LT", lt), ("AT", at)) if r["error"]]
            vlt = None if lt["error"] else lt["stats"].get(Y)
            vat = None if at["error"] else at["stats"].get(Y)
            diff = relative(vlt, vat)
            if not errors and diff is None:
                errors = [f"no {Y} to compare"]
            b = (base.get(key) or {}).get("diff")
            ok = not errors and within(diff, b, POINT_TOLERANCE)
            error = "; ".join(errors) or None
            rows.append({"group": group, "label": label, "key": key, "lt": vlt, "at": vat, "diff": diff,
                         "baseline": b, "pass": ok, "error": error,
                         "verdict": verdict(ok, diff, b, POINT_TOLERANCE, error),
                         "lt_cpu_seconds": cpu_seconds(lt), "at_cpu_seconds": cpu_seconds(at)})
    return rows


def figure_rows(pts, results, timing):
    """The tidy rows of one figure's points as run in `timing` (failed runs left out)."""
    rows = []
    for _, p in pts:
        r = results[(key_of(p), timing)]
        if not r["error"]:
            rows.append(tidy.row(dict(p, timing=timing) if "timing" in p else p, r["stats"]))
    return rows


def group_name(key):
    return ", ".join(f"{k}={v}" for k, v in key) or "all"


def order_groups(rows, points, claim):
    """{group: whether the order holds there}, each group judged alone by figures.claim_value; the groups are
    named without the timing, so that LT's and AT's are the same."""
    params = figures.params_of(points)
    (name, _), = claim["order"].items()
    groups = {}
    for r in rows:
        if figures.matches(r, claim.get("where")):
            groups.setdefault(group_name(figures.group_key(r, params, [name, "timing"])), []).append(r)
    return {g: figures.claim_value(rs, points, claim)[1] == "holds in 1 of 1" for g, rs in groups.items()}


def compare_order(lt, at, baseline_differing=None):
    """An order claim's LT and AT verdicts per group -> (groups where they differ, pass)."""
    differing = sorted(g for g in set(lt) | set(at) if lt.get(g) != at.get(g))
    allowed = set(baseline_differing or [])
    return differing, all(g in allowed for g in differing)


def claim_key(group, claim):
    return f"{group}: {claim.get('paper', '')}"


def claim_rows(groups, results, baseline):
    """A row per claim of every figure: the model's value (or the order's groups) in LT and in AT."""
    rows = []
    base = (baseline or {}).get("claims", {})
    for group, spec, pts in groups:
        points = [p for _, p in pts]
        data = {t: figure_rows(pts, results, t) for t in TIMINGS}
        # A claim over a figure with a missing point would compare two partial sets: it fails, saying why.
        failed = sum(1 for _, p in pts if any(results[(key_of(p), t)]["error"] for t in TIMINGS))
        for claim in spec.get("claims") or []:
            key = claim_key(group, claim)
            order = "order" in claim
            b = base.get(key) or {}
            acc = (baseline or {}).get("accepted", {}).get(key)
            if acc:
                b = accept(b, acc)
            row = {"group": group, "claim": claim.get("paper", ""), "key": key, "kind": "order" if order else "value",
                   "lt": None, "at": None, "diff": None, "differing": None,
                   "baseline": b.get("differing" if order else "diff"), "pass": False, "error": None,
                   "accepted": (acc or {}).get("reason")}
            try:
                if failed:
                    raise figures.FigureError(f"{failed} of {group}'s points failed")
                if order:
                    lt, at = (order_groups(data[t], points, claim) for t in TIMINGS)
                    row["differing"], row["pass"] = compare_order(lt, at, b.get("differing"))
                    row["lt"], row["at"] = (f"holds in {sum(v.values())} of {len(v)}" for v in (lt, at))
                else:
                    row["lt"], row["at"] = (figures.claim_value(data[t], points, claim)[0] for t in TIMINGS)
                    row["diff"] = relative(row["lt"], row["at"])
                    row["pass"] = within(row["diff"], b.get("diff"), CLAIM_TOLERANCE)
                    if row["diff"] is None:
                        row["error"] = "AT is 0, LT is not"
            except figures.FigureError as e:
                row["error"] = str(e)
            rows.append(row)
    return rows


def accept(base, acc):
    """A claim's baseline widened by an accepted departure: the larger difference, the union of the groups."""
    out = dict(base)
    if "diff" in acc and (out.get("diff") is None or abs(acc["diff"]) > abs(out["diff"])):
        out["diff"] = acc["diff"]
    if "differing" in acc:
        out["differing"] = sorted(set(out.get("differing") or []) | set(acc["differing"]))
    return out


def order_verdict(row):
    if row.get("error"):
        return f"fail: {row['error']}"
    if not row["differing"]:
        return "pass: same groups"
    what = f"differs in {', '.join(row['differing'])}"
    return f"pass (baseline): {what}" if row["pass"] else f"fail: {what}"


def claim_verdict(row):
    text = order_verdict(row) if row["kind"] == "order" else \
        verdict(row["pass"], row.get("diff"), row.get("baseline"), CLAIM_TOLERANCE, row.get("error"))
    # An accepted departure says so where it is used (the reason is in accepted.json and docs/timing.md).
    if row.get("accepted") and row["pass"] and text.startswith("pass (baseline)"):
        text = "pass (accepted)" + text[len("pass (baseline)"):]
    return text


# --- the baseline ---------------------------------------------------------------------------------------------

def baseline_of(prows, crows):
    """The differences measured now, as a baseline: per point its LT/AT - 1, per claim the same or the groups
    where the order's verdict differs."""
    points = {}
    for r in prows:
        points[r["key"]] = {"diff": r["diff"], "lt": r["lt"], "at": r["at"]}
    claims = {}
    for r in crows:
        claims[r["key"]] = {"differing": r["differing"]} if r["kind"] == "order" else \
            {"diff": r["diff"], "lt": r["lt"], "at": r["at"]}
    return {"about": "LT/AT - 1 per point and per claim, recorded by scripts/lt-at-agreement --record-baseline "
                     "(docs/timing.md)",
            "points": dict(sorted(points.items())), "claims": dict(sorted(claims.items()))}


def load_accepted(path):
    """Accepted departures (workflow/agreement/accepted.json): per claim key, the difference or the differing
    groups LT may keep beyond the tolerance, with the reason; {} when the file does not exist."""
    if not os.path.exists(path):
        return {}
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise AgreementError(f"{path}: cannot read the accepted departures: {e.strerror}") from None
    except ValueError as e:
        raise AgreementError(f"{path}: the accepted departures are not valid JSON: {e}") from None
    claims = data.get("claims") if isinstance(data, dict) else None
    if not isinstance(claims, dict):
        raise AgreementError(f"{path}: not a list of accepted departures (an object with 'claims')")
    for key, acc in claims.items():
        if not isinstance(acc, dict) or not acc.get("reason") or not ("diff" in acc or "differing" in acc):
            raise AgreementError(f"{path}: claim '{key}': an accepted departure needs 'reason' and "
                                 "'diff' or 'differing'")
    return claims


def load_baseline(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise AgreementError(f"{path}: cannot read the baseline: {e.strerror} "
                             "(record one with --record-baseline FILE)") from None
    except ValueError as e:
        raise AgreementError(f"{path}: the baseline is not valid JSON: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("points"), dict) \
            or not isinstance(data.get("claims"), dict):
        raise AgreementError(f"{path}: not a baseline (an object with 'points' and 'claims')")
    return data


# --- files ----------------------------------------------------------------------------------------------------

def same_file(a, b):
    return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(outputs, inputs):
    """Refuses an output that is an input (the baseline read, a definition, the simulator) or another output."""
    for i, out in enumerate(outputs):
        for src in inputs:
            if same_file(out, src):
                raise AgreementError(f"{out}: refusing to write over an input of this run ({src})")
        for other in outputs[:i]:
            if same_file(out, other):
                raise AgreementError(f"{out}: written twice by this run")


def write_atomic(path, text):
    """Writes `path` whole or not at all: a temporary file beside it, renamed (keeping the file's mode)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o644
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def splice_text(text, body, path="the file"):
    """`text` with everything between the agreement markers replaced by `body`."""
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    if len(pattern.findall(text)) != 1:
        raise AgreementError(f"{path}: needs exactly one '{BEGIN}' ... '{END}' pair")
    return pattern.sub(lambda _: f"{BEGIN}\n{body.strip()}\n{END}", text, count=1)


def read_splice_target(path):
    """The text of the file to splice into, checked for its markers before anything runs."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise AgreementError(f"{path}: cannot read: {e.strerror}") from None
    splice_text(text, "", path)
    return text


# --- the report -----------------------------------------------------------------------------------------------

def pct(v):
    return "" if v is None else f"{v * 100:+.1f} %".replace("-0.0 ", "+0.0 ")  # no negative zero


def num(v):
    return "" if v is None else figures.fmt(float(v)) if isinstance(v, (int, float)) else str(v)


def distinct(prows):
    """The point rows with each point once (its first group)."""
    seen, out = set(), []
    for r in prows:
        if r["key"] not in seen:
            seen.add(r["key"])
            out.append(r)
    return out


def worst(prows, n=WORST):
    """The `n` distinct points furthest from AT, failed runs first."""
    return sorted(distinct(prows), key=lambda r: (r["diff"] is not None, -abs(r["diff"] or 0), r["key"]))[:n]


def beyond(rows, tolerance):
    """The rows whose |LT/AT - 1| is beyond the bare tolerance (no baseline allowance), or that have none."""
    return [r for r in rows if r.get("diff") is None or abs(r["diff"]) > tolerance + 1e-12]


def percent_of(n, total):
    return 100.0 * n / total if total else 0.0


def summary(prows, crows, simulator="", lt_set=None):
    """The counts and the worst differences, as data (agreement.json) and as a sentence. Beside the verdicts
    (the baseline rule): the LT settings, the host CPU seconds of the runs (each point once), the points and
    claims beyond the bare tolerance and |LT/AT - 1| over the points."""
    pts = distinct(prows)
    failed_pts = [r for r in pts if not r["pass"]]
    values = [r for r in crows if r["kind"] == "value"]
    orders = [r for r in crows if r["kind"] == "order"]
    top = worst(prows, 1)
    top_claim = sorted(values, key=lambda r: (r.get("diff") is not None, -abs(r.get("diff") or 0)))[:1]
    diffs = [abs(r["diff"]) for r in pts if r["diff"] is not None]
    cpu = {t: [r.get(f"{t}_cpu_seconds") for r in pts] for t in TIMINGS}
    claims_failed = sum(1 for r in crows if not r["pass"])
    extra = {"lt_set": dict(lt_set or {}),
             "lt_cpu_seconds": sum(v for v in cpu["lt"] if v is not None),
             "at_cpu_seconds": sum(v for v in cpu["at"] if v is not None),
             "cpu_seconds_missing": sum(1 for t in TIMINGS for v in cpu[t] if v is None),
             "points_failed_percent": percent_of(len(failed_pts), len(pts)),
             "claims_failed_percent": percent_of(claims_failed, len(crows)),
             "points_beyond_tolerance": len(beyond(pts, POINT_TOLERANCE)),
             "points_beyond_tolerance_percent": percent_of(len(beyond(pts, POINT_TOLERANCE)), len(pts)),
             "claims_beyond_tolerance": len(beyond(values, CLAIM_TOLERANCE)),
             "claims_beyond_tolerance_percent": percent_of(len(beyond(values, CLAIM_TOLERANCE)), len(values)),
             "max_abs_diff": max(diffs) if diffs else None,
             "mean_abs_diff": sum(diffs) / len(diffs) if diffs else None}
    return {"simulator": simulator, "points": len(pts), "runs": 2 * len(pts), "point_rows": len(prows),
            "points_failed": len(failed_pts), "claims": len(values), "order_claims": len(orders),
            "claims_failed": claims_failed,
            "order_claims_differing": sum(1 for r in orders if r.get("differing")),
            "worst_point": top[0]["key"] if top else None, "worst_point_diff": top[0]["diff"] if top else None,
            "worst_claim": top_claim[0]["key"] if top_claim else None,
            "worst_claim_diff": top_claim[0].get("diff") if top_claim else None,
            "pass": not failed_pts and all(r["pass"] for r in crows), **extra}


def summary_line(s):
    verdict_text = "**pass**" if s["pass"] else "**fail**"
    out = f"`{s['simulator']}`, quick mode: " if s["simulator"] else ""
    out += (f"{s['points']} points ({s['runs']} runs), {s['claims']} claims with a number and "
           f"{s['order_claims']} order claims: {verdict_text} ({s['points_failed']} points and "
           f"{s['claims_failed']} claims outside the tolerance).")
    if s["worst_point"] is not None:
        out += f" Worst point: {pct(s['worst_point_diff']) or 'failed'} (`{s['worst_point']}`)."
    if s["worst_claim"] is not None:
        out += f" Worst claim: {pct(s['worst_claim_diff']) or 'failed'} ({s['worst_claim']})."
    if s["order_claims"]:
        out += f" Order claims whose verdict differs between LT and AT in some group: {s['order_claims_differing']}."
    return out


def cell(text):
    return str(text).replace("|", "\\|")


def points_table(rows, with_group=False):
    head = ["figure"] if with_group else []
    lines = ["| " + " | ".join(head + ["point", "LT", "AT", "LT/AT − 1", "baseline", "verdict"]) + " |",
             "|" + "---|" * len(head) + "---|---:|---:|---:|---:|---|"]
    for r in rows:
        first = [r["group"]] if with_group else []
        lines.append("| " + " | ".join(cell(c) for c in first + [
            f"`{r['key']}`", num(r["lt"]), num(r["at"]), pct(r["diff"]), pct(r["baseline"]), r["verdict"]]) + " |")
    return "\n".join(lines)


def claims_table(crows):
    lines = ["| figure | claim | LT | AT | LT/AT − 1 | baseline | verdict |", "|---|---|---:|---:|---:|---:|---|"]
    for r in crows:
        if r["kind"] == "order":
            base = "" if r.get("baseline") is None else (", ".join(r["baseline"]) or "same groups")
            cells = [num(r.get("lt")), num(r.get("at")), "", base]
        else:
            cells = [num(r.get("lt")), num(r.get("at")), pct(r.get("diff")), pct(r.get("baseline"))]
        lines.append("| " + " | ".join(cell(c) for c in [r["group"], r["claim"]] + cells + [r["verdict"]]) + " |")
    return "\n".join(lines)


RULE = ("AT is the reference. A point passes when its throughput (`throughput_ops_per_us`) in LT is within "
        "±15 % of AT, or, where the baseline difference already exceeded 15 %, no further than it (+0.5 points); "
        "a run that fails in either timing fails. A claim's number passes the same way within ±5 %; an order "
        "claim passes when it holds in the same groups in LT and AT (or differs only where the baseline did).")


def settings_lines(s):
    """With LT settings: what LT ran with, the host CPU seconds and the bare-tolerance counts (nothing
    without, so that the default report is as it was)."""
    if not s["lt_set"]:
        return []
    line = (f"LT ran with `{settings_text(s['lt_set'])}` (AT as it is). Host CPU seconds of the simulations "
            f"(`host.run_cpu_seconds`, each point once): LT {s['lt_cpu_seconds']:.2f} s, "
            f"AT {s['at_cpu_seconds']:.2f} s")
    line += f" ({s['cpu_seconds_missing']} runs without)." if s["cpu_seconds_missing"] else "."
    line += (f" Beyond the bare tolerance (no baseline allowance): {s['points_beyond_tolerance']} of "
             f"{s['points']} points ({s['points_beyond_tolerance_percent']:.1f} %) beyond ±15 %, "
             f"{s['claims_beyond_tolerance']} of {s['claims']} claims "
             f"({s['claims_beyond_tolerance_percent']:.1f} %) beyond ±5 %.")
    if s["max_abs_diff"] is not None:
        line += (f" |LT/AT − 1| over the points: max {s['max_abs_diff'] * 100:.1f} %, "
                 f"mean {s['mean_abs_diff'] * 100:.1f} %.")
    return [line, ""]


def short_markdown(prows, crows, simulator="", lt_set=None):
    """The summary, the worst points and the claims (what docs/timing.md shows)."""
    s = summary(prows, crows, simulator, lt_set)
    out = [summary_line(s), ""] + settings_lines(s)
    out += [f"The {min(WORST, s['points'])} points furthest from AT:", "", points_table(worst(prows), True), ""]
    if crows:
        out += ["The figures' claims, evaluated on the LT and on the AT points:", "", claims_table(crows), ""]
    return "\n".join(out)


def markdown(prows, crows, groups, simulator="", lt_set=None):
    """The whole report: the short one, then the reference cases and every figure's points."""
    out = ["# LT against AT: the agreement", "",
           "Generated by `scripts/lt-at-agreement` (docs/timing.md, \"LT against AT: the agreement\").", "",
           RULE, "", short_markdown(prows, crows, simulator, lt_set)]
    for group, spec, _ in groups:
        mine = [r for r in prows if r["group"] == group]
        if group == REFERENCE:
            out += ["## Reference cases", "", "The four primitives under every scheme, without an ST and with "
                    "an overflowing one.", ""]
        else:
            out += [f"## {group}", "", spec.get("title", group), ""]
        out += [points_table(mine), ""]
    return "\n".join(out)


def report(prows, crows, simulator="", lt_set=None):
    """agreement.json's content."""
    tolerance = {"point": POINT_TOLERANCE, "claim": CLAIM_TOLERANCE, "baseline_slack": EPSILON}
    return {"summary": summary(prows, crows, simulator, lt_set), "tolerance": tolerance,
            "points": prows, "claims": crows}


def failures(prows, crows):
    """Lines naming every row outside the tolerance (--check prints them)."""
    out = [f"point {r['group']}: {r['key']}: LT/AT - 1 = {pct(r['diff']) or '-'} "
           f"(baseline {pct(r['baseline']) or '-'}): {r['verdict']}" for r in prows if not r["pass"]]
    out += [f"claim {r['key']}: {claim_verdict(r)}"
            + ("" if r["kind"] == "order" else f" (LT/AT - 1 = {pct(r.get('diff')) or '-'}, "
                                               f"baseline {pct(r.get('baseline')) or '-'})")
            for r in crows if not r["pass"]]
    return out


def evaluate(groups, results, baseline):
    """(point rows, claim rows) with their verdicts."""
    prows = point_rows(groups, results, baseline)
    crows = claim_rows(groups, results, baseline)
    for r in crows:
        r["verdict"] = claim_verdict(r)
    return prows, crows


# --- the command ----------------------------------------------------------------------------------------------

def main(argv, root):
    """scripts/lt-at-agreement; `root` is the repository (the figures and the default baseline)."""
    ap = argparse.ArgumentParser(prog="lt-at-agreement", description="Runs every reference case and every "
                                 "quick-mode figure point in LT and in AT and compares them (docs/timing.md).")
    ap.add_argument("--sim", default="build/sc_main/syncron-sim", help="the simulator (default: %(default)s)")
    ap.add_argument("--out", default="results/agreement", help="agreement.json and agreement.md go here "
                    "(default: %(default)s)")
    ap.add_argument("--baseline", help="the recorded differences the tolerance compares with "
                    "(default: workflow/agreement/baseline.json; not read with --record-baseline unless given)")
    ap.add_argument("--record-baseline", metavar="FILE", help="write the differences measured now as a baseline")
    ap.add_argument("--check", action="store_true", help="exit 1 when a point or a claim is outside the tolerance")
    ap.add_argument("--splice", metavar="FILE", help="replace the text between the agreement markers of FILE "
                    "with the summary, the worst points and the claims")
    ap.add_argument("--only", action="append", default=[], metavar="PATTERN",
                    help="only the figures (fig10, 'fig1*') and reference cases ('reference', 'reference/lock-*') "
                    "this shell pattern names; repeatable")
    ap.add_argument("--lt-set", action="append", default=[], metavar="KEY=VALUE",
                    help="a setting (--set KEY=VALUE) for the LT runs only, replacing a point's own value of it: "
                    "--lt-set core.quantum_ns=500 compares LT at that quantum with the unchanged AT; repeatable; "
                    "not with --record-baseline or --splice")
    ap.add_argument("--at-cache", metavar="DIR", help="keep the AT results in DIR and take them from there when "
                    "the simulator binary (its SHA-256) and the run's arguments are the same")
    add_run_options(ap)
    a = ap.parse_args(argv)
    try:
        return command(a, root)
    except AgreementError as e:
        print(f"lt-at-agreement: {e}", file=sys.stderr)
        return 2


def add_run_options(ap):
    """The options of how the runs are made (scripts/quantum-curve has them too)."""
    ap.add_argument("-j", "--jobs", type=int, default=2, help="simulations at a time (default: %(default)s)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds one run may take (default: %(default)s)")


def command(a, root):
    figure_dir = os.path.join(root, "workflow", "figures")
    if a.record_baseline and a.only:
        raise AgreementError("--record-baseline records every point: not with --only")
    lt_set = parse_settings(a.lt_set)
    if lt_set and (a.record_baseline or a.splice):
        raise AgreementError("--lt-set measures LT with other settings than its own: not with "
                             "--record-baseline or --splice")
    # Everything that can be wrong with the inputs is found before the first run.
    simulator = version(a.sim)
    groups = plan(figure_dir, a.only)
    # Recording: the run is its own baseline, unless an older one is named to compare with.
    baseline_path = a.baseline or (None if a.record_baseline else
                                   os.path.join(root, "workflow", "agreement", "baseline.json"))
    baseline = load_baseline(baseline_path) if baseline_path else None
    accepted_path = os.path.join(root, "workflow", "agreement", "accepted.json")
    if baseline is not None and not a.record_baseline:
        baseline["accepted"] = load_accepted(accepted_path)
    outputs = [os.path.join(a.out, "agreement.json"), os.path.join(a.out, "agreement.md")]
    outputs += [p for p in (a.record_baseline, a.splice) if p]
    inputs = [a.sim, accepted_path] + ([baseline_path] if baseline_path else []) + \
        list(sweeps.definitions(figure_dir).values())
    check_outputs(outputs, inputs)
    if a.splice:
        read_splice_target(a.splice)

    cache = AtCache(a.at_cache, a.sim) if a.at_cache else None

    runs = runs_of(groups, lt_set)
    print(f"lt-at-agreement: {len(runs) // 2} points, {len(runs)} runs, {a.jobs} at a time", file=sys.stderr)
    if lt_set:
        print(f"lt-at-agreement: LT with {settings_text(lt_set)}", file=sys.stderr)
    results = run_all(a.sim, runs, a.jobs, a.timeout, cache)
    prows, crows = evaluate(groups, results, baseline)
    recorded = None
    if a.record_baseline:
        recorded = baseline_of(prows, crows)
        if baseline is None:  # the table of a recording run compares each difference with itself
            prows, crows = evaluate(groups, results, recorded)
    write_atomic(outputs[0], json.dumps(report(prows, crows, simulator, lt_set), indent=1) + "\n")
    write_atomic(outputs[1], markdown(prows, crows, groups, simulator, lt_set))
    s = summary(prows, crows, simulator, lt_set)
    print(summary_line(s), file=sys.stderr)
    for line in settings_lines(s)[:1]:
        print(line, file=sys.stderr)
    print(f"lt-at-agreement: wrote {outputs[0]} and {outputs[1]}", file=sys.stderr)
    if recorded is not None:
        broken = [r["key"] for r in prows if r["error"]] + [r["key"] for r in crows if r.get("error")]
        if broken:
            raise AgreementError(f"{a.record_baseline}: not recorded: {len(broken)} points or claims have no "
                                 f"result (first: {broken[0]})")
        write_atomic(a.record_baseline, json.dumps(recorded, indent=1) + "\n")
        print(f"lt-at-agreement: recorded the baseline {a.record_baseline}", file=sys.stderr)
    if a.splice:  # read again: the file may have been edited during the runs
        write_atomic(a.splice, splice_text(read_splice_target(a.splice), short_markdown(prows, crows, simulator),
                                           a.splice))
        print(f"lt-at-agreement: spliced into {a.splice}", file=sys.stderr)
    if a.check:
        failed = failures(prows, crows)
        for line in failed:
            print(line)
        return 1 if failed else 0
    return 0
