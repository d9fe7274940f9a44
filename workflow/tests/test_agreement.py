"""Unit tests of scripts/lt-at-agreement (workflow/lib/agreement.py): the tolerance and its baseline rule,
the claims in LT against AT, the output files and the splice, the LT-only settings (--lt-set) and the AT
cache; and of scripts/quantum-curve (workflow/lib/quantum_curve.py). A stand-in simulator replaces syncron-sim.

    python3 -m unittest discover -s workflow/tests -p test_agreement.py
"""
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import agreement  # noqa: E402
import quantum_curve  # noqa: E402

SCRIPT = os.path.join(ROOT, "scripts", "lt-at-agreement")
CURVE_SCRIPT = os.path.join(ROOT, "scripts", "quantum-curve")

# A stand-in for syncron-sim (a shell script: fast to start): throughput 1, 2 or 3 by scheme, LT off AT by
# $FAKE_LT percent; the scheme 'broken' exits 1. Every run appends its arguments to $FAKE_LOG. With
# --set core.quantum_ns=Q, LT is off by another (Q - 100) / 10 percent; the host CPU seconds are 0.040 in AT
# and 2 / Q (0.020 at the default 100 ns) in LT. While $FAKE_LOG has at most $FAKE_EARLY lines, a run takes
# 0.100 s more, and its LT throughput is scaled by $FAKE_EARLY_Y percent.
FAKE_SIM = """#!/bin/sh
[ "$1" = --version ] && echo "fake-sim 1.0" && exit 0
echo "$*" >> "$FAKE_LOG"
quantum=100
while [ $# -gt 0 ]; do
  case "$1" in
    --scheme) scheme=$2 ;; --timing) timing=$2 ;; --stats) stats=$2 ;;
    --set) case "$2" in core.quantum_ns=*) quantum=${2#core.quantum_ns=} ;; esac ;;
  esac
  shift
done
case "$scheme" in
  broken) echo "error: broken scheme" >&2; exit 1 ;;
  central) y=100 ;;
  hier) y=200 ;;
  *) y=300 ;;
esac
ms=40
if [ "$timing" = lt ]; then
  y=$((y * ${FAKE_LT:-100} / 100 * (900 + quantum) / 1000))
  ms=$((2000 / quantum))
fi
if [ "$(wc -l < "$FAKE_LOG")" -le "${FAKE_EARLY:-0}" ]; then
  ms=$((ms + 100))
  [ "$timing" = lt ] && y=$((y * ${FAKE_EARLY_Y:-100} / 100))
fi
format='{"status": "ok", "check": {"ok": true}, "throughput_ops_per_us": %d.%02d,'
printf "$format"' "host": {"run_cpu_seconds": %d.%03d}}\\n' \\
  $((y / 100)) $((y % 100)) $((ms / 1000)) $((ms % 1000)) > "$stats"
"""


def read(path):
    with open(path) as f:
        return f.read()


def result(y, error=None):
    return {"error": error, "stats": None if error else {"status": "ok", "throughput_ops_per_us": y}}


def results_of(groups, lt, at):
    """Run results as run_all gives them, each timing's throughput from a function of the point."""
    out = {}
    for _, _, pts in groups:
        for _, p in pts:
            out[(agreement.key_of(p), "lt")] = result(lt(p))
            out[(agreement.key_of(p), "at")] = result(at(p))
    return out


SPEED = {"central": 1.0, "hier": 2.0, "syncron": 3.0, "ideal": 4.0}
POINTS = [{"workload": w, "scheme": s, "interval": 200, "timing": "lt"} for w in ("lock", "barrier") for s in SPEED]
CLAIMS = [{"paper": "SynCron over Central", "value": 3.0, "y": "throughput_ops_per_us",
           "ratio": [{"scheme": "syncron"}, {"scheme": "central"}]},
          {"paper": "Central < Hier < SynCron <= Ideal", "order": {"scheme": ["central", "hier", "syncron", "ideal"]},
           "y": "throughput_ops_per_us"}]
GROUPS = [("figX", {"claims": CLAIMS}, [(agreement.key_of(p), p) for p in POINTS])]


class Tolerance(unittest.TestCase):
    def test_within_fifteen_percent_passes(self):
        self.assertTrue(agreement.within(0.10, None, 0.15))
        self.assertTrue(agreement.within(-0.15, None, 0.15))
        self.assertFalse(agreement.within(0.16, None, 0.15))
        self.assertFalse(agreement.within(None, None, 0.15))

    def test_a_baseline_beyond_the_tolerance_is_the_limit_plus_half_a_point(self):
        self.assertTrue(agreement.within(0.20, 0.22, 0.15))
        self.assertTrue(agreement.within(-0.20, 0.197, 0.15))  # the sign may change, the size may not grow
        self.assertFalse(agreement.within(0.21, 0.197, 0.15))
        # A baseline within the tolerance does not narrow it.
        self.assertTrue(agreement.within(0.14, 0.01, 0.15))
        self.assertFalse(agreement.within(0.16, 0.14, 0.15))

    def test_relative_difference(self):
        self.assertAlmostEqual(agreement.relative(1.1, 1.0), 0.1)
        self.assertEqual(agreement.relative(0, 0), 0.0)
        self.assertIsNone(agreement.relative(1.0, 0))
        self.assertIsNone(agreement.relative(None, 1.0))

    def test_a_point_that_fails_in_either_timing_fails(self):
        results = results_of(GROUPS, lambda p: 1.0, lambda p: 1.0)
        key = agreement.key_of(POINTS[0])
        results[(key, "at")] = result(None, "exit status 1: invariant violated")
        rows = agreement.point_rows(GROUPS, results, None)
        bad = [r for r in rows if not r["pass"]]
        self.assertEqual([r["key"] for r in bad], [key])
        self.assertIn("AT: exit status 1", bad[0]["verdict"])

    def test_point_rows_use_the_baseline_of_their_point(self):
        results = results_of(GROUPS, lambda p: 1.25 if p["scheme"] == "ideal" else 1.0, lambda p: 1.0)
        rows = agreement.point_rows(GROUPS, results, None)
        self.assertEqual(sum(not r["pass"] for r in rows), 2)  # ideal in both workloads: +25 %
        base = agreement.baseline_of(rows, [])
        rows = agreement.point_rows(GROUPS, results, base)
        self.assertTrue(all(r["pass"] for r in rows))
        self.assertEqual({r["verdict"] for r in rows}, {"pass", "pass (baseline)"})


class LtSettings(unittest.TestCase):
    def test_parse_settings(self):
        self.assertEqual(agreement.parse_settings(["core.quantum_ns=500", "a=1", "core.quantum_ns=50"]),
                         {"a": "1", "core.quantum_ns": "50"})  # a later KEY wins
        self.assertEqual(agreement.parse_settings(["x="]), {"x": ""})
        self.assertEqual(agreement.parse_settings([]), {})
        for bad in ("core.quantum_ns", "=5", "timing=at", "a b=1"):
            with self.assertRaises(agreement.AgreementError, msg=bad):
                agreement.parse_settings([bad])
        self.assertEqual(agreement.settings_text({"core.quantum_ns": "500", "b": True}),
                         "--set core.quantum_ns=500 --set b=true")

    def test_lt_settings_go_to_the_lt_runs_only(self):
        own = dict(POINTS[0], **{"core.quantum_ns": 10})  # a point with its own value: replaced in LT
        groups = GROUPS + [("figY", {}, [(agreement.key_of(own), own)])]
        plain = agreement.runs_of(groups)
        self.assertEqual(agreement.runs_of(groups, {}), plain)
        runs = agreement.runs_of(groups, {"core.quantum_ns": "500"})
        self.assertEqual(set(runs), set(plain))  # the same keys: the same baseline
        for (key, timing), args in runs.items():
            if timing == "at":
                self.assertEqual(args, plain[(key, timing)])
            else:
                added = 0 if key == agreement.key_of(own) else 1  # the point's own value is replaced
                self.assertEqual(args.count("--set"), plain[(key, timing)].count("--set") + added)
                self.assertIn("core.quantum_ns=500", args)
                self.assertNotIn("core.quantum_ns=10", args)
        self.assertIn("core.quantum_ns=10", plain[(agreement.key_of(own), "at")])

    def test_summary_counts_cpu_seconds_and_the_bare_tolerance(self):
        def cpu(r, seconds):
            r["stats"]["host"] = {"run_cpu_seconds": seconds}
            return r
        results = {}
        for _, _, pts in GROUPS:
            for _, p in pts:
                lt = 1.2 if p["scheme"] == "ideal" else 1.0  # ideal +20 %: beyond 15 %
                results[(agreement.key_of(p), "lt")] = cpu(result(SPEED[p["scheme"]] * lt), 0.5)
                results[(agreement.key_of(p), "at")] = cpu(result(SPEED[p["scheme"]]), 2.0)
        results[(agreement.key_of(POINTS[0]), "lt")]["stats"].pop("host")
        prows, crows = agreement.evaluate(GROUPS, results, None)
        self.assertEqual((prows[1]["lt_cpu_seconds"], prows[1]["at_cpu_seconds"]), (0.5, 2.0))
        s = agreement.summary(prows, crows, "sim", {"core.quantum_ns": "500"})
        self.assertEqual(s["lt_set"], {"core.quantum_ns": "500"})
        self.assertAlmostEqual(s["lt_cpu_seconds"], 0.5 * 7)
        self.assertAlmostEqual(s["at_cpu_seconds"], 2.0 * 8)
        self.assertEqual(s["cpu_seconds_missing"], 1)
        self.assertEqual((s["points_beyond_tolerance"], s["points_beyond_tolerance_percent"]), (2, 25.0))
        self.assertEqual(s["points_failed"], 2)
        self.assertEqual((s["claims_beyond_tolerance"], s["claims_beyond_tolerance_percent"]), (0, 0.0))
        self.assertAlmostEqual(s["max_abs_diff"], 0.2)
        self.assertAlmostEqual(s["mean_abs_diff"], 0.2 * 2 / 8)
        self.assertIn("LT ran with `--set core.quantum_ns=500` (AT as it is)", agreement.short_markdown(
            prows, crows, "sim", {"core.quantum_ns": "500"}))
        self.assertNotIn("LT ran with", agreement.short_markdown(prows, crows, "sim"))


class Claims(unittest.TestCase):
    def rows(self, lt, at=lambda p: SPEED[p["scheme"]], baseline=None):
        return {r["claim"]: r for r in agreement.evaluate(GROUPS, results_of(GROUPS, lt, at), baseline)[1]}

    def test_numeric_claims_compare_the_value_in_lt_with_at(self):
        rows = self.rows(lambda p: SPEED[p["scheme"]] * (1.04 if p["scheme"] == "syncron" else 1))
        r = rows["SynCron over Central"]
        self.assertAlmostEqual(r["lt"], 3.12)
        self.assertAlmostEqual(r["at"], 3.0)
        self.assertAlmostEqual(r["diff"], 0.04)
        self.assertTrue(r["pass"])
        r = self.rows(lambda p: SPEED[p["scheme"]] * (1.06 if p["scheme"] == "syncron" else 1))["SynCron over Central"]
        self.assertFalse(r["pass"])

    def test_a_claim_beyond_five_percent_in_the_baseline_may_stay_there(self):
        lt = lambda p: SPEED[p["scheme"]] * (1.08 if p["scheme"] == "syncron" else 1)  # noqa: E731
        base = {"points": {}, "claims": {"figX: SynCron over Central": {"diff": 0.09}}}
        self.assertTrue(self.rows(lt, baseline=base)["SynCron over Central"]["pass"])
        base["claims"]["figX: SynCron over Central"]["diff"] = 0.06
        self.assertFalse(self.rows(lt, baseline=base)["SynCron over Central"]["pass"])

    def test_order_claims_pass_when_they_hold_in_the_same_groups(self):
        r = self.rows(lambda p: SPEED[p["scheme"]] * 1.1)["Central < Hier < SynCron <= Ideal"]
        self.assertEqual((r["lt"], r["at"], r["differing"], r["pass"]),
                         ("holds in 2 of 2", "holds in 2 of 2", [], True))
        # LT swaps Hier and SynCron for the lock only.
        swap = {"central": 1.0, "hier": 3.0, "syncron": 2.0, "ideal": 4.0}
        lt = lambda p: (swap if p["workload"] == "lock" else SPEED)[p["scheme"]]  # noqa: E731
        r = self.rows(lt)["Central < Hier < SynCron <= Ideal"]
        self.assertEqual(r["lt"], "holds in 1 of 2")
        self.assertEqual(len(r["differing"]), 1)
        self.assertIn("workload=lock", r["differing"][0])
        self.assertFalse(r["pass"])
        self.assertTrue(r["verdict"].startswith("fail: differs in"))
        # Recorded as differing in the baseline, it passes; a new group differing would not.
        base = {"points": {}, "claims": {"figX: Central < Hier < SynCron <= Ideal": {"differing": r["differing"]}}}
        self.assertTrue(self.rows(lt, baseline=base)["Central < Hier < SynCron <= Ideal"]["pass"])
        self.assertEqual(agreement.compare_order({"a": True, "b": True}, {"a": False, "b": False}, ["a"]),
                         (["a", "b"], False))

    def test_an_accepted_departure_may_stay_and_says_so(self):
        lt = lambda p: SPEED[p["scheme"]] * (1.08 if p["scheme"] == "syncron" else 1)  # noqa: E731
        acc = {"figX: SynCron over Central": {"diff": 0.08, "reason": "measured"}}
        base = {"points": {}, "claims": {"figX: SynCron over Central": {"diff": 0.0}}, "accepted": acc}
        r = self.rows(lt, baseline=base)["SynCron over Central"]
        self.assertTrue(r["pass"])
        self.assertTrue(r["verdict"].startswith("pass (accepted)"))
        # It may not grow.
        acc["figX: SynCron over Central"]["diff"] = 0.07
        self.assertFalse(self.rows(lt, baseline=base)["SynCron over Central"]["pass"])
        # An order claim's accepted groups join the baseline's.
        self.assertEqual(agreement.accept({"differing": ["a"]}, {"differing": ["b"]}), {"differing": ["a", "b"]})
        self.assertEqual(agreement.accept({"diff": 0.1}, {"diff": -0.05}), {"diff": 0.1})

    def test_accepted_departures_need_a_reason(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "accepted.json")
            self.assertEqual(agreement.load_accepted(path), {})  # no file: nothing accepted
            with open(path, "w") as f:
                json.dump({"claims": {"figX: c": {"diff": 0.1}}}, f)
            with self.assertRaisesRegex(agreement.AgreementError, "accepted.json: claim 'figX: c'.*reason"):
                agreement.load_accepted(path)
            with open(path, "w") as f:
                f.write("{")
            with self.assertRaisesRegex(agreement.AgreementError, "accepted.json: .*not valid JSON"):
                agreement.load_accepted(path)
        # The shipped file loads, and every entry says why.
        shipped = agreement.load_accepted(os.path.join(ROOT, "workflow", "agreement", "accepted.json"))
        self.assertTrue(all(v["reason"] for v in shipped.values()))

    def test_a_figure_with_a_failed_run_fails_its_claims(self):
        results = results_of(GROUPS, lambda p: SPEED[p["scheme"]], lambda p: SPEED[p["scheme"]])
        for p in POINTS:
            if p["scheme"] == "central":
                results[(agreement.key_of(p), "lt")] = result(None, "exit status 1")
        rows = {r["claim"]: r for r in agreement.evaluate(GROUPS, results, None)[1]}
        self.assertFalse(rows["SynCron over Central"]["pass"])


class Plan(unittest.TestCase):
    def test_the_36_reference_cases_and_each_point_once_per_timing(self):
        cases = agreement.reference_cases()
        self.assertEqual(len(cases), 36)
        self.assertEqual(len({agreement.key_of(p) for _, p in cases}), 36)
        groups = [("reference", {}, cases)] + GROUPS + [("figY", {}, GROUPS[0][2][:2])]
        runs = agreement.runs_of(groups)
        self.assertEqual(len(runs), 2 * (36 + len(POINTS)))  # figY's points are figX's: run once
        for (key, timing), args in runs.items():
            self.assertEqual(args.count("--timing"), 1)
            self.assertEqual(args[args.index("--timing") + 1], timing)
            self.assertNotIn("timing", key)

    def test_only_selects_figures_and_cases(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("figA", "figB"):
                with open(os.path.join(d, f"{name}.yaml"), "w") as f:
                    f.write("common: {scheme: [syncron], timing: [lt]}\nmodes: {quick: {common: {ops: [5]}}}\n")
            names = [g for g, _, _ in agreement.plan(d, ["figB", "reference/lock-*"])]
            self.assertEqual(names, ["reference", "figB"])
            self.assertEqual(len(agreement.plan(d, ["reference/lock-*"])[0][2]), 9)
            with self.assertRaises(agreement.AgreementError):
                agreement.plan(d, ["nothing"])
            bad = os.path.join(d, "figC.yaml")
            with open(bad, "w") as f:
                f.write("common: {schema: [syncron]}\n")
            with self.assertRaises(agreement.AgreementError) as e:
                agreement.plan(d)
            self.assertIn(bad, str(e.exception))


class Files(unittest.TestCase):
    def test_an_output_may_not_be_an_input(self):
        with tempfile.TemporaryDirectory() as d:
            base = os.path.join(d, "baseline.json")
            with self.assertRaises(agreement.AgreementError) as e:
                agreement.check_outputs([os.path.join(d, "out.md"), os.path.join(d, ".", "baseline.json")], [base])
            self.assertIn("refusing", str(e.exception))
            with self.assertRaises(agreement.AgreementError):
                agreement.check_outputs([base, base], [])
            agreement.check_outputs([os.path.join(d, "out.md")], [base])

    def test_splice_replaces_between_the_markers_only(self):
        text = f"# Timing\nhand text\n{agreement.BEGIN}\nold table\n{agreement.END}\nmore hand text\n"
        new = agreement.splice_text(text, "new table\n")
        self.assertEqual(new, f"# Timing\nhand text\n{agreement.BEGIN}\nnew table\n{agreement.END}\nmore hand text\n")
        self.assertEqual(agreement.splice_text(new, "new table"), new)
        for bad in ("no markers", text + text):
            with self.assertRaises(agreement.AgreementError):
                agreement.splice_text(bad, "x", "docs/timing.md")

    def test_write_atomic_keeps_the_mode_and_leaves_no_temporary_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "doc.md")
            with open(path, "w") as f:
                f.write("old")
            os.chmod(path, 0o664)
            agreement.write_atomic(path, "new")
            self.assertEqual(read(path), "new")
            self.assertEqual(os.stat(path).st_mode & 0o777, 0o664)
            self.assertEqual(os.listdir(d), ["doc.md"])


FIGURE = """title: a figure of the stand-in
common: {scheme: [central, hier, syncron, ideal], workload: [lock, barrier], timing: [lt]}
modes: {quick: {common: {ops: [5]}}}
claims:
  - {paper: "SynCron over Central", value: 3.0, y: throughput_ops_per_us,
     ratio: [{scheme: syncron}, {scheme: central}]}
  - {paper: "Central < Hier < SynCron", order: {scheme: [central, hier, syncron]}, y: throughput_ops_per_us}
"""


class Command(unittest.TestCase):
    """The command end to end with the stand-in simulator, on a repository of one figure (8 points) and the
    36 reference cases."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        os.makedirs(os.path.join(self.d, "workflow", "figures"))
        with open(os.path.join(self.d, "workflow", "figures", "figA.yaml"), "w") as f:
            f.write(FIGURE)
        self.sim = self.fake_sim("fake-sim", FAKE_SIM)
        self.log = os.path.join(self.d, "runs.log")
        self.base = os.path.join(self.d, "baseline.json")
        self.out = os.path.join(self.d, "out")
        self.env = dict(os.environ)
        os.environ["FAKE_LOG"] = self.log

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.env)
        self.tmp.cleanup()

    def fake_sim(self, name, text):
        path = os.path.join(self.d, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
        return path

    def cli(self, *args, lt=100, sim=None):
        """(exit status, stdout, stderr) of the command; LT off AT by `lt` percent."""
        os.environ["FAKE_LT"] = str(lt)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = agreement.main(["--sim", sim or self.sim, "--out", self.out, *args], self.d)
        return status, out.getvalue(), err.getvalue()

    def runs(self):
        return read(self.log).splitlines() if os.path.exists(self.log) else []

    def test_record_then_check(self):
        status, _, err = self.cli("--record-baseline", self.base, lt=125)
        self.assertEqual(status, 0, err)
        self.assertEqual(len(self.runs()), 2 * (36 + 8))
        base = json.loads(read(self.base))
        self.assertAlmostEqual(base["points"]["--scheme syncron --workload lock --ops 20"]["diff"], 0.25)
        self.assertEqual(base["claims"]["figA: Central < Hier < SynCron"], {"differing": []})
        md = read(os.path.join(self.out, "agreement.md"))
        self.assertIn("`fake-sim 1.0`, quick mode: 44 points (88 runs), 1 claims with a number and 1 order claims: "
                      "**pass**", md)
        self.assertIn("## figA\n\na figure of the stand-in\n", md)
        # LT as far off as recorded passes; further off fails, and --check names every point.
        self.assertEqual(self.cli("--baseline", self.base, "--check", lt=125)[0], 0)
        status, out, _ = self.cli("--baseline", self.base, "--check", lt=130)
        self.assertEqual(status, 1)
        self.assertEqual(len(out.splitlines()), 44)
        self.assertIn("point reference: --scheme syncron --workload lock --ops 20: LT/AT - 1 = +30.0 % "
                      "(baseline +25.0 %): fail", out)
        report = json.loads(read(os.path.join(self.out, "agreement.json")))
        self.assertFalse(report["summary"]["pass"])
        self.assertEqual(report["summary"]["points_failed"], 44)

    def test_a_run_that_fails_fails_the_check_and_is_never_recorded(self):
        broken = self.fake_sim("broken-sim", FAKE_SIM.replace("broken)", "hier)"))  # hier fails
        status, _, err = self.cli("--record-baseline", self.base, sim=broken)
        self.assertEqual(status, 2)
        self.assertIn("not recorded", err)
        self.assertFalse(os.path.exists(self.base))
        with open(self.base, "w") as f:
            json.dump({"points": {}, "claims": {}}, f)
        status, out, _ = self.cli("--baseline", self.base, "--check", "--only", "figA", sim=broken)
        self.assertEqual(status, 1)
        self.assertIn("point figA: --scheme hier --workload lock --ops 5: LT/AT - 1 = - (baseline -): "
                      "fail: LT: exit status 1: error: broken scheme; AT: exit status 1", out)
        self.assertIn("claim figA: Central < Hier < SynCron: fail: 2 of figA's points failed", out)

    def test_bad_inputs_stop_before_any_run(self):
        status, _, err = self.cli("--baseline", self.base)
        self.assertEqual(status, 2)
        self.assertIn(f"{self.base}: cannot read the baseline", err)
        with open(self.base, "w") as f:
            f.write("{not json")
        self.assertIn(f"{self.base}: the baseline is not valid JSON", self.cli("--baseline", self.base)[2])
        none = os.path.join(self.d, "none")
        self.assertIn(f"{none}: no simulator there", self.cli("--baseline", self.base, sim=none)[2])
        with open(self.base, "w") as f:
            json.dump({"points": {}, "claims": {}}, f)
        # The baseline read is never written: not as the new baseline, not as an output, not spliced.
        with open(os.path.join(self.d, "agreement.json"), "w") as f:
            json.dump({"points": {}, "claims": {}}, f)
        for args in (["--record-baseline", self.base], ["--splice", self.base],
                     ["--out", self.d, "--baseline", os.path.join(self.d, "agreement.json")]):
            status, _, err = self.cli("--baseline", self.base, *args)
            self.assertEqual(status, 2, args)
            self.assertIn("refusing to write over an input", err)
        self.assertIn("not with --only", self.cli("--record-baseline", self.base + "2", "--only", "figA")[2])
        doc = os.path.join(self.d, "doc.md")
        with open(doc, "w") as f:
            f.write("no markers\n")
        self.assertIn(f"{doc}: needs exactly one", self.cli("--baseline", self.base, "--splice", doc)[2])
        bad = os.path.join(self.d, "workflow", "figures", "figB.yaml")
        with open(bad, "w") as f:
            f.write("common: {schema: [syncron]}\n")
        self.assertIn(f"{bad}: common: unknown parameter 'schema'", self.cli("--baseline", self.base)[2])
        self.assertEqual(self.runs(), [])

    def test_splice_writes_the_short_report(self):
        doc = os.path.join(self.d, "doc.md")
        with open(doc, "w") as f:
            f.write(f"before\n{agreement.BEGIN}\nold\n{agreement.END}\nafter\n")
        status, _, err = self.cli("--record-baseline", self.base, "--splice", doc)
        self.assertEqual(status, 0, err)
        text = read(doc)
        self.assertTrue(text.startswith(f"before\n{agreement.BEGIN}\n`fake-sim 1.0`, quick mode: 44 points (88 runs)"))
        self.assertTrue(text.endswith(f"{agreement.END}\nafter\n"))
        self.assertIn("| figA | SynCron over Central | 3.00 | 3.00 | +0.0 % | +0.0 % | pass |", text)
        self.assertNotIn("## Reference cases", text)

    def lt_runs(self, lines=None):
        return [r for r in (self.runs() if lines is None else lines) if "--timing lt" in r]

    def at_runs(self, lines=None):
        return [r for r in (self.runs() if lines is None else lines) if "--timing at" in r]

    def empty_baseline(self):
        with open(self.base, "w") as f:
            json.dump({"points": {}, "claims": {}}, f)

    def test_lt_set_measures_lt_against_the_unchanged_at(self):
        self.empty_baseline()
        self.assertEqual(self.cli("--baseline", self.base, "--only", "figA")[0], 0)
        plain = self.runs()
        md = read(os.path.join(self.out, "agreement.md"))
        self.assertNotIn("LT ran with", md)
        self.assertNotIn("core.quantum_ns", "".join(plain))
        os.unlink(self.log)
        status, _, err = self.cli("--baseline", self.base, "--only", "figA", "--lt-set", "core.quantum_ns=500")
        self.assertEqual(status, 0, err)
        runs = self.runs()
        strip = lambda lines: sorted(r.split(" --stats")[0] for r in lines)  # noqa: E731
        self.assertEqual(strip(self.at_runs(runs)), strip(self.at_runs(plain)))
        self.assertEqual(strip(self.lt_runs(runs)), sorted(r + " --set core.quantum_ns=500"
                                                           for r in strip(self.lt_runs(plain))))
        report = json.loads(read(os.path.join(self.out, "agreement.json")))
        s = report["summary"]
        self.assertEqual(s["lt_set"], {"core.quantum_ns": "500"})
        self.assertAlmostEqual(s["lt_cpu_seconds"], 8 * 0.004)
        self.assertAlmostEqual(s["at_cpu_seconds"], 8 * 0.040)
        self.assertEqual((s["points_beyond_tolerance"], s["points_beyond_tolerance_percent"]), (8, 100.0))
        self.assertEqual(s["claims_beyond_tolerance"], 0)  # every scheme 40 % faster: the ratio is the same
        self.assertAlmostEqual(s["max_abs_diff"], 0.4)
        self.assertAlmostEqual(s["mean_abs_diff"], 0.4)
        self.assertEqual({(r["lt_cpu_seconds"], r["at_cpu_seconds"]) for r in report["points"]}, {(0.004, 0.04)})
        self.assertIn("LT ran with `--set core.quantum_ns=500` (AT as it is). Host CPU seconds of the simulations "
                      "(`host.run_cpu_seconds`, each point once): LT 0.03 s, AT 0.32 s. Beyond the bare tolerance "
                      "(no baseline allowance): 8 of 8 points (100.0 %) beyond ±15 %, 0 of 1 claims (0.0 %) beyond "
                      "±5 %. |LT/AT − 1| over the points: max 40.0 %, mean 40.0 %.",
                      read(os.path.join(self.out, "agreement.md")))

    def test_lt_set_refuses_bad_settings_recording_and_splicing(self):
        self.empty_baseline()
        doc = os.path.join(self.d, "doc.md")
        with open(doc, "w") as f:
            f.write(f"{agreement.BEGIN}\n{agreement.END}\n")
        for args, message in ((["--lt-set", "quantum"], "expected KEY=VALUE"),
                              (["--lt-set", "timing=at"], "other than timing"),
                              (["--lt-set", "a=1", "--record-baseline", self.base + "2"], "not with --record"),
                              (["--lt-set", "a=1", "--splice", doc], "not with --record-baseline or --splice")):
            status, _, err = self.cli("--baseline", self.base, *args)
            self.assertEqual(status, 2, args)
            self.assertIn(message, err)
        self.assertEqual(self.runs(), [])

    def test_the_at_cache_runs_at_once_per_simulator(self):
        self.empty_baseline()
        cache = os.path.join(self.d, "cache")
        args = ("--baseline", self.base, "--only", "figA", "--at-cache", cache)
        self.assertEqual(self.cli(*args, "--lt-set", "core.quantum_ns=50")[0], 0)
        first = json.loads(read(os.path.join(self.out, "agreement.json")))
        self.assertEqual((len(self.at_runs()), len(self.lt_runs())), (8, 8))
        self.assertEqual(len(os.listdir(cache)), 8)
        status, _, err = self.cli(*args, "--lt-set", "core.quantum_ns=200")
        self.assertEqual(status, 0, err)
        self.assertIn("8 AT runs from the cache", err)
        self.assertEqual((len(self.at_runs()), len(self.lt_runs())), (8, 16))  # LT alone ran
        second = json.loads(read(os.path.join(self.out, "agreement.json")))
        self.assertEqual([(r["at"], r["at_cpu_seconds"]) for r in second["points"]],
                         [(r["at"], r["at_cpu_seconds"]) for r in first["points"]])
        self.assertAlmostEqual(second["points"][0]["diff"], 0.1)
        # Without the cache, and with another simulator (a rebuild: other bytes), AT runs again.
        self.assertEqual(self.cli("--baseline", self.base, "--only", "figA")[0], 0)
        self.assertEqual(len(self.at_runs()), 16)
        other = self.fake_sim("other-sim", FAKE_SIM + "# rebuilt\n")
        self.assertEqual(self.cli(*args, sim=other)[0], 0)
        self.assertEqual(len(self.at_runs()), 24)
        self.assertEqual(len(os.listdir(cache)), 16)
        # A damaged entry is run again and replaced.
        for name in os.listdir(cache):
            with open(os.path.join(cache, name), "w") as f:
                f.write("{damaged")
        self.assertEqual(self.cli(*args, sim=other)[0], 0)
        self.assertEqual(len(self.at_runs()), 32)
        self.assertEqual(self.cli(*args, sim=other)[0], 0)
        self.assertEqual(len(self.at_runs()), 32)

    def test_failed_at_runs_are_not_cached(self):
        self.empty_baseline()
        broken = self.fake_sim("broken-sim", FAKE_SIM.replace("broken)", "hier)"))  # hier fails
        cache = os.path.join(self.d, "cache")
        for _ in range(2):
            self.assertEqual(self.cli("--baseline", self.base, "--only", "figA", "--at-cache", cache,
                                      sim=broken)[0], 0)
        self.assertEqual(len(os.listdir(cache)), 6)
        self.assertEqual(len(self.at_runs()), 8 + 2)  # the two hier points ran again

    def curve(self, *args):
        """(exit status, stderr) of scripts/quantum-curve's command on the stand-in's repository."""
        os.environ["FAKE_LT"] = "100"
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            status = quantum_curve.main(["--sim", self.sim, "--out", self.out, "--baseline", self.base, *args],
                                        self.d)
        return status, err.getvalue()

    def test_the_quantum_curve_runs_at_once_and_lt_at_each_quantum(self):
        self.empty_baseline()
        status, err = self.curve("--quanta", "50,100,500", "--only", "figA", "-j", "1")
        self.assertEqual(status, 0, err)
        runs = self.runs()
        self.assertEqual(len(self.at_runs(runs)), 8)
        self.assertTrue(all("core.quantum_ns" not in r for r in self.at_runs(runs)))
        for q in (50, 100, 500):
            self.assertEqual(sum(f"--set core.quantum_ns={q} " in r for r in self.lt_runs(runs)), 8)
            self.assertTrue(os.path.exists(os.path.join(self.out, f"q{q}", "agreement.md")))
        self.assertEqual(runs[:8], self.at_runs(runs))  # AT first, then LT: a point at every quantum, the next
        point = lambda r: re.sub(r"core.quantum_ns=[0-9]+", "Q", r.split(" --stats")[0])  # noqa: E731
        self.assertEqual([len({point(r) for r in runs[i:i + 3]}) for i in range(8, 32, 3)], [1] * 8)
        data = json.loads(read(os.path.join(self.out, "curve.json")))
        rows = {r["quantum_ns"]: r for r in data["rows"]}
        self.assertEqual(list(rows), [50, 100, 500])
        self.assertAlmostEqual(rows[50]["lt_cpu_seconds"], 8 * 0.040)
        self.assertAlmostEqual(rows[100]["lt_cpu_seconds"], 8 * 0.020)
        self.assertAlmostEqual(rows[500]["at_cpu_seconds"], 8 * 0.040)
        self.assertEqual([round(rows[q]["speed"], 6) for q in rows], [0.5, 1.0, 5.0])
        self.assertAlmostEqual(rows[500]["max_abs_diff"], 0.4)
        self.assertEqual([rows[q]["points_beyond_tolerance"] for q in rows], [0, 0, 8])
        self.assertEqual([rows[q]["pass"] for q in rows], [True, True, False])
        self.assertEqual(len(data["changing"]), 5)
        self.assertAlmostEqual(data["changing"][0]["spread"], 0.036)
        self.assertEqual(len(data["points"]), 8)
        md = read(os.path.join(self.out, "curve.md"))
        self.assertIn("| 100 | 0.16 | 1.00× | 0.0 % | 0.0 % |  |  | 0 of 8 (0.0 %) | 0 of 1 (0.0 %) | 0 of 1 | pass |",
                      md)
        self.assertIn("| 500 | 0.03 | 5.00× | 40.0 % | 40.0 % |", md)
        self.assertIn("fail: 8 points, 0 claims |", md)
        self.assertIn("LT CPU s at 500 ns", md)
        # A second curve from the same simulator runs LT alone; without 100 ns, the first quantum is the reference.
        status, err = self.curve("--quanta", "200,1000", "--only", "figA")
        self.assertEqual(status, 0, err)
        self.assertEqual((len(self.at_runs()), len(self.lt_runs())), (8, 40))
        self.assertIn("speed vs 200 ns", read(os.path.join(self.out, "curve.md")))

    def test_repeats_take_the_smallest_cpu_seconds(self):
        self.empty_baseline()
        os.environ["FAKE_EARLY"] = str(8 + 24)  # AT, then the first round of LT: slower
        args = ("--quanta", "50,100,500", "--only", "figA", "-j", "1", "--at-cache", os.path.join(self.d, "c"))
        self.assertEqual(self.curve(*args)[0], 0)
        rows = {r["quantum_ns"]: r for r in json.loads(read(os.path.join(self.out, "curve.json")))["rows"]}
        self.assertAlmostEqual(rows[100]["lt_cpu_seconds"], 8 * 0.120)
        os.unlink(self.log)  # AT is cached: the first round of LT is the slow one
        os.environ["FAKE_EARLY"] = "24"
        status, err = self.curve(*args, "--repeat", "2")
        self.assertEqual(status, 0, err)
        self.assertEqual(len(self.lt_runs()), 48)
        data = json.loads(read(os.path.join(self.out, "curve.json")))
        rows = {r["quantum_ns"]: r for r in data["rows"]}
        self.assertAlmostEqual(rows[100]["lt_cpu_seconds"], 8 * 0.020)
        self.assertAlmostEqual(rows[50]["lt_cpu_seconds"], 8 * 0.040)
        self.assertEqual((data["repeat"], data["repeats_differing"]), (2, []))
        self.assertIn("every LT point 2 times (its smallest CPU seconds).", read(os.path.join(self.out, "curve.md")))
        # Simulated results that differ between repeats are named; the first repeat's are used.
        os.unlink(self.log)
        os.environ["FAKE_EARLY_Y"] = "110"
        status, err = self.curve(*args, "--repeat", "2")
        self.assertEqual(status, 0, err)
        data = json.loads(read(os.path.join(self.out, "curve.json")))
        self.assertEqual(len(data["repeats_differing"]), 24)
        self.assertIn("the repeats' results differ", err)
        self.assertAlmostEqual(data["points"]["--scheme syncron --workload lock --ops 5"]["diff"]["100"], 0.1)
        self.assertIn("The simulated results of 24 LT points differ between repeats",
                      read(os.path.join(self.out, "curve.md")))

    def test_bad_quanta_stop_before_any_run(self):
        self.empty_baseline()
        for quanta in ("0,100", "100,100", "a", ""):
            status, err = self.curve("--quanta", quanta)
            self.assertEqual(status, 2, quanta)
            self.assertIn("--quanta", err)
        self.assertEqual(self.runs(), [])
        self.assertEqual(quantum_curve.parse_quanta("25, 50,100"), [25, 50, 100])

    def test_the_script_runs_the_library(self):
        done = subprocess.run([sys.executable, SCRIPT, "--sim", os.path.join(self.d, "none")],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn("no simulator there", done.stderr)
        done = subprocess.run([CURVE_SCRIPT, "--sim", os.path.join(self.d, "none")], capture_output=True, text=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn("quantum-curve: ", done.stderr)
        self.assertIn("no simulator there", done.stderr)


if __name__ == "__main__":
    unittest.main()
