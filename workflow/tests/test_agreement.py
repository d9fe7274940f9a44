"""Unit tests of scripts/lt-at-agreement (workflow/lib/agreement.py): the tolerance and its baseline rule,
the claims in LT against AT, the output files and the splice. A stand-in simulator replaces syncron-sim.

    python3 -m unittest discover -s workflow/tests -p test_agreement.py
"""
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import agreement  # noqa: E402

SCRIPT = os.path.join(ROOT, "scripts", "lt-at-agreement")

# A stand-in for syncron-sim (a shell script: fast to start): throughput 1, 2 or 3 by scheme, LT off AT by
# $FAKE_LT percent; the scheme 'broken' exits 1. Every run appends its arguments to $FAKE_LOG.
FAKE_SIM = """#!/bin/sh
[ "$1" = --version ] && echo "fake-sim 1.0" && exit 0
echo "$*" >> "$FAKE_LOG"
while [ $# -gt 0 ]; do
  case "$1" in --scheme) scheme=$2 ;; --timing) timing=$2 ;; --stats) stats=$2 ;; esac
  shift
done
case "$scheme" in
  broken) echo "error: broken scheme" >&2; exit 1 ;;
  central) y=100 ;;
  hier) y=200 ;;
  *) y=300 ;;
esac
[ "$timing" = lt ] && y=$((y * ${FAKE_LT:-100} / 100))
printf '{"status": "ok", "check": {"ok": true}, "throughput_ops_per_us": %d.%02d}\\n' \\
  $((y / 100)) $((y % 100)) > "$stats"
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

    def test_the_script_runs_the_library(self):
        done = subprocess.run([sys.executable, SCRIPT, "--sim", os.path.join(self.d, "none")],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn("no simulator there", done.stderr)


if __name__ == "__main__":
    unittest.main()
