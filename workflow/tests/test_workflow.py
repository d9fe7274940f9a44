"""Unit tests of the workflow's library: sweep definitions, the tidy CSV,
the plots and tables, the claims, and the splicing into docs/results.md.

    python3 -m unittest discover -s workflow/tests     (Debian's python3: yaml, matplotlib)
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import unittest.mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import ablation  # noqa: E402
import assume  # noqa: E402
import figures  # noqa: E402
import splice  # noqa: E402
import sweeps  # noqa: E402
import tidy  # noqa: E402

FIGURE_DIR = os.path.join(HERE, "..", "figures")
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
# Every definition the project ships: the figures, the experiments, the example sweep.
DEFINITION_DIRS = [FIGURE_DIR] + [os.path.join(HERE, "..", d) for d in ("experiments", "sweeps")]


def every_definition():
    for d in DEFINITION_DIRS:
        yield from sweeps.definitions(d).items()
SIM = os.environ.get("SYNCRON_SIM")

# What `syncron-sim --list` listed when this was written: the names a definition's
# {from: KIND} stands for when no simulator is given (SYNCRON_SIM unset); with one, its own are used.
SAMPLE_NAMES = {
    "presets": ["ddr4", "hbm4", "hmc4"],
    "schemes": ["syncron", "flat", "central", "hier", "ideal", "remote_atomics", "syncron_central_ovrfl",
                "syncron_distrib_ovrfl", "mesi_lock"],
    "microbenchmarks": ["lock", "barrier", "semaphore", "condvar"],
    "data structures": ["stack", "queue", "array_map", "priority_queue", "skip_list", "hash_table", "linked_list",
                        "bst_fg", "bst_drachsler"],
    "applications": ["bfs", "cc", "sssp", "pr", "tf", "tc", "ts"],
    "graph applications": ["bfs", "cc", "sssp", "pr", "tf", "tc"],
}
SAMPLE_NAMES["workloads"] = SAMPLE_NAMES["microbenchmarks"] + SAMPLE_NAMES["data structures"] + \
    SAMPLE_NAMES["applications"]


def names():
    """The names for {from: KIND}: the simulator's (SYNCRON_SIM), else SAMPLE_NAMES."""
    return sweeps.simulator_names(SIM) if SIM else SAMPLE_NAMES


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


class Definitions(unittest.TestCase):
    SPEC = {
        "common": {"scheme": ["central", "syncron"], "ops": [100]},
        "grids": [{"workload": ["lock"], "interval": [50, 200]}, {"workload": ["barrier"], "interval": [20]}],
        "modes": {"quick": {"common": {"ops": [20]}, "grids": [{"workload": ["lock"], "interval": [200]}]}},
    }

    def test_points_are_the_union_of_the_grids_and_modes_override(self):
        full = sweeps.points(self.SPEC, "full")
        self.assertEqual(len(full), 2 * 2 + 2 * 1)
        self.assertEqual({p["ops"] for p in full}, {100})
        quick = sweeps.points(self.SPEC, "quick")
        self.assertEqual([(p["scheme"], p["interval"], p["ops"]) for p in quick],
                         [("central", 200, 20), ("syncron", 200, 20)])

    def test_repeated_points_appear_once(self):
        spec = {"grids": [{"workload": ["lock"], "scheme": ["syncron"]}] * 2}
        self.assertEqual(len(sweeps.points(spec, "full")), 1)

    def test_arguments_use_options_and_set_for_configuration_keys(self):
        args = sweeps.arguments({"link.latency_ns": 100, "scheme": "flat", "workload.condvar_apart": True,
                                 "workload": "condvar"})
        self.assertEqual(args, ["--scheme", "flat", "--workload", "condvar", "--set", "link.latency_ns=100",
                                "--set", "workload.condvar_apart=true"])

    def test_point_ids_are_stable_readable_and_distinct(self):
        a = {"workload": "lock", "scheme": "syncron", "interval": 200}
        self.assertEqual(sweeps.point_id(a), sweeps.point_id(dict(reversed(list(a.items())))))
        self.assertTrue(sweeps.point_id(a).startswith("lock-syncron-"))
        self.assertNotEqual(sweeps.point_id(a), sweeps.point_id(dict(a, interval=201)))

    def test_bad_definitions_name_the_file_and_the_problem(self):
        with tempfile.TemporaryDirectory() as d:
            cases = [
                ("title: x\ncommon: {schema: [syncron]}\n", "unknown parameter 'schema'"),
                ("common: {scheme: []}\n", "'scheme' needs a non-empty list"),
                ("common: {scheme: syncron}\n", "'scheme' needs a non-empty list"),
                ("plots: {}\ncommon: {scheme: [syncron]}\n", "unknown key 'plots'"),
                ("common: {scheme: [syncron]}\nmodes: {fast: {}}\n", "unknown mode 'fast'"),
                ("common: {scheme: [syncron]\n", "line 2"),
                ("- a\n- b\n", "is a mapping"),
                ("title: nothing\n", "no points"),
            ]
            for i, (text, message) in enumerate(cases):
                path = write(d, f"bad{i}.yaml", text)
                with self.assertRaises(sweeps.SweepError) as e:
                    sweeps.load(path)
                self.assertIn(path, str(e.exception))
                self.assertIn(message, str(e.exception))
            with self.assertRaises(sweeps.SweepError) as e:
                sweeps.load(os.path.join(d, "missing.yaml"))
            self.assertIn("cannot read", str(e.exception))

    def test_every_figure_definition_expands_in_both_modes(self):
        defs = sweeps.definitions(FIGURE_DIR)
        for name in ["fig2", "fig10", "fig11", "fig12", "fig13", "fig14", "fig15", "fig16", "fig17", "fig18",
                     "fig20", "fig21", "fig22", "fig23", "table7"]:
            self.assertIn(name, defs)
        for name, path in defs.items():
            self.assertIn("plot", sweeps.load(path, names), name)
        for name, path in every_definition():
            spec = sweeps.load(path, names)
            for mode in sweeps.MODES:
                self.assertTrue(sweeps.points(spec, mode), f"{name} {mode}")

    @unittest.skipUnless(SIM, "SYNCRON_SIM names the simulator (ctest sets it)")
    def test_every_point_of_every_definition_is_a_valid_configuration(self):
        todo = {}  # the arguments of each distinct point -> where it first came from
        for name, path in every_definition():
            spec = sweeps.load(path, names)
            for mode in sweeps.MODES:
                for p in sweeps.points(spec, mode):
                    todo.setdefault(tuple(sweeps.arguments(p)), f"{name} ({mode})")

        found = sweeps.check_arguments(SIM, list(todo))
        failures = [f"{todo[args]}: {' '.join(args)}: {m}" for args, m in zip(todo, found) if m]
        self.assertGreater(len(todo), 100)
        self.assertEqual(failures, [], f"{len(failures)} of {len(todo)} points rejected; first: "
                                       f"{failures[0] if failures else ''}")


SNAKEFILE = os.path.join(HERE, "..", "Snakefile")
SMALL_GRAPH = os.path.join(HERE, "..", "..", "testbenches", "inputs", "small.snap")


def snakemake(workdir, sweep, *config, sim=None, dry=True):
    """`snakemake sweep` on `workdir` (build=false unless asked): (exit status, everything it printed)."""
    cmd = (["snakemake", "-s", SNAKEFILE, "--directory", workdir, "--cores", "2"] + (["-n"] if dry else []) +
           ["sweep", "--config", f"sweep={sweep}", f"sim={sim or SIM}", "build=false", *config])
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.returncode, done.stdout


class PaperMode(unittest.TestCase):
    """mode=paper: the full mode's points with the graph applications on graphs of the paper's sizes."""

    def test_every_graph_point_runs_on_each_of_the_papers_graphs(self):
        spec = sweeps.load(os.path.join(HERE, "..", "figures", "fig12.yaml"), names)
        full, paper = sweeps.points(spec, "full"), sweeps.points(spec, "paper")
        sizes = {(g[1], g[2]) for g in sweeps.PAPER_GRAPHS}
        self.assertEqual(sizes, {(21, 9), (22, 16), (22, 15), (22, 28)})
        graph = [p for p in paper if p["workload"] in sweeps.GRAPH_READERS]
        self.assertEqual(len(graph), 4 * len([p for p in full if p["workload"] in sweeps.GRAPH_READERS]))
        self.assertEqual({(p["workload.rmat_scale"], p["workload.rmat_edge_factor"]) for p in graph}, sizes)
        # the time series keeps the full mode's point; a point on a graph file keeps its file
        self.assertEqual([p for p in paper if p["workload"] == "ts"], [p for p in full if p["workload"] == "ts"])
        own = {"workload": "bfs", "graph": "/data/soc-LiveJournal1.txt"}
        self.assertEqual(sweeps.paper_inputs(own), [own])
        # pr runs one iteration, as CRONO's pagerank; the other kernels and a pr that sets ops are as given
        self.assertEqual({p.get("ops") for p in graph if p["workload"] == "pr"}, {1})
        self.assertEqual({p.get("ops") for p in paper if p["workload"] != "pr"}, {None})
        self.assertEqual({p.get("ops") for p in full}, {None})
        mine = {"workload": "pr", "graph": "/data/soc-LiveJournal1.txt", "ops": 10}
        self.assertEqual(sweeps.paper_inputs(mine), [mine])
        sized = {"common": {"workload": ["pr", "bfs"], "workload.rmat_scale": [14, 16]}}
        self.assertEqual([(p["workload"], p["workload.rmat_scale"], p.get("ops")) for p in sweeps.points(sized, "paper")],
                         [("pr", 14, 1), ("pr", 16, 1), ("bfs", 14, None), ("bfs", 16, None)])
        # every R-MAT graph holds its paper graph's vertices and about its edges
        for name, scale, factor, vertices, edges in sweeps.PAPER_GRAPHS:
            self.assertGreaterEqual(2 ** scale, vertices / 1.2, name)
            self.assertLess(abs(factor * 2 ** scale / edges - 1), 0.1, name)

    @unittest.skipUnless(SIM and shutil.which("snakemake"), "SYNCRON_SIM names the simulator; snakemake installed")
    def test_a_paper_size_point_asks_the_cluster_for_hours_and_gigabytes(self):
        with tempfile.TemporaryDirectory() as d:
            cmd = ["snakemake", "-s", SNAKEFILE, "--directory", d, "-n", "--cores", "2", "fig12", "--config",
                   "mode=paper", f"sim={SIM}", "build=false"]
            done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertEqual(done.returncode, 0, done.stdout[-2000:])
            self.assertEqual(done.stdout.count("runtime=720, mem_mb=12000"), 96)
            self.assertEqual(done.stdout.count("runtime=10, mem_mb=1000"), 4)


class SweepChecks(unittest.TestCase):
    """A bad sweep is refused before any point job, with the simulator's own message."""

    def test_too_many_points_are_refused_before_they_are_expanded(self):
        spec = {"common": {"scheme": ["syncron"], "seed": list(range(1000))},
                "grids": [{"ops": list(range(1000))}, {"interval": [1, 2]}]}
        self.assertEqual(sweeps.count(spec, "full"), 1000 * 1000 + 1000 * 2)
        with self.assertRaises(sweeps.SweepError) as e:
            sweeps.points(spec, "full", where="big.yaml")  # at once: nothing is expanded
        self.assertIn("big.yaml: 1,002,000 points in mode full", str(e.exception))
        self.assertIn("more than the limit of 100,000", str(e.exception))
        self.assertIn("--config max_points=N", str(e.exception))
        self.assertEqual(len(sweeps.points(spec, "full", limit=None)[:3]), 3)
        small = {"common": {"scheme": ["syncron", "flat"], "seed": [1, 2]}}
        self.assertEqual(len(sweeps.points(small, "quick", limit=4)), 4)
        with self.assertRaises(sweeps.SweepError):
            sweeps.points(small, "quick", limit=3)

    @unittest.skipUnless(SIM, "SYNCRON_SIM names the simulator (ctest sets it)")
    def test_the_simulator_refuses_each_bad_point_with_its_message(self):
        good = {"workload": "hash_table", "scheme": "syncron", "ops": 1}
        cases = [
            (dict(good, workload="hash_tabel"), "invalid value 'hash_tabel' for option '--workload'"),
            ({**good, "se.cycles_per_mesage": 3}, "unknown configuration key 'se.cycles_per_mesage' "
                                                  "(did you mean 'se.cycles_per_message'?)"),
            ({**good, "se.cycles_per_message": "three"}, "'se.cycles_per_message' must be a non-negative integer"),
            (dict(good, scheme="syncrom"), "invalid value 'syncrom' for option '--scheme'"),
            ({"workload": "cc", "graph": "/no/such/graph.snap"},
             "graph file '/no/such/graph.snap' cannot be opened (missing or unreadable)"),
            ({"workload": "pr", "workload.graph": "/no/such/graph.snap"}, "graph file '/no/such/graph.snap'"),
            ({"workload": "ts", "series": "/no/such/series.txt"}, "series file '/no/such/series.txt'"),
        ]
        ok = [good, {"workload": "cc", "graph": SMALL_GRAPH}, {"workload": "lock", "workload.graph": "/no/such"}]
        refused = sweeps.check_points(SIM, [p for p, _ in cases] + ok)
        self.assertEqual([p for p, _ in refused], [p for p, _ in cases])
        for (point, message), (_, expected) in zip(refused, cases):
            self.assertIn(expected, message, point)
        text = sweeps.refusal("my.yaml", refused, len(cases) + len(ok), shown=2)
        self.assertTrue(text.startswith("my.yaml: 7 of 10 points refused by syncron-sim, before any was run:"))
        self.assertIn("  workload=hash_tabel scheme=syncron ops=1: invalid value 'hash_tabel'", text)
        self.assertIn("... and 5 more", text)

    @unittest.skipUnless(SIM and shutil.which("snakemake"), "SYNCRON_SIM names the simulator; snakemake installed")
    def test_a_bad_sweep_stops_the_workflow_before_any_job_with_the_message(self):
        with tempfile.TemporaryDirectory() as d:
            sweep = write(d, "bad-key.yaml", "common:\n  workload: [lock]\n  scheme: [syncron, flat]\n"
                                             "  se.cycles_per_mesage: [3, 6]\n  ops: [1]\n")
            code, out = snakemake(os.path.join(d, "work"), sweep, dry=False)  # a real run: no job starts
            self.assertNotEqual(code, 0)
            self.assertIn(f"{sweep}: 4 of 4 points refused by syncron-sim, before any was run:", out)
            self.assertIn("  workload=lock scheme=syncron se.cycles_per_mesage=3 ops=1: unknown configuration key "
                          "'se.cycles_per_mesage' (did you mean 'se.cycles_per_message'?)", out)
            self.assertNotIn("rule point", out)
            self.assertFalse(os.path.exists(os.path.join(d, "work", "results")))

    @unittest.skipUnless(SIM and shutil.which("snakemake"), "SYNCRON_SIM names the simulator; snakemake installed")
    def test_after_a_build_the_rule_check_sweep_stops_the_workflow_before_any_point(self):
        with tempfile.TemporaryDirectory() as d:
            # A simulator older than its sources is rebuilt first, so its points are checked by a rule; here the
            # build itself is left out (--allowed-rules), and an old-dated wrapper that runs the real simulator
            # stands for the freshly rebuilt one.
            stale = write(d, "syncron-sim", f"#!/bin/sh\nexec '{os.path.abspath(SIM)}' \"$@\"\n")
            os.chmod(stale, 0o755)
            os.utime(stale, (0, 0))
            sweep = write(d, "bad-workload.yaml", "common:\n  workload: [hash_tabel]\n  scheme: [syncron]\n")
            cmd = ["snakemake", "-s", SNAKEFILE, "--directory", os.path.join(d, "work"), "--cores", "2", "sweep",
                   "--allowed-rules", "check_sweep", "point", "table", "plot", "sweep",
                   "--config", f"sweep={sweep}", f"sim={stale}", "build=true"]
            done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertNotEqual(done.returncode, 0)
            self.assertIn("Error in rule check_sweep", done.stdout)
            self.assertIn(f"{sweep}: 1 of 1 points refused by syncron-sim, before any was run:\n"
                          "  workload=hash_tabel scheme=syncron: invalid value 'hash_tabel' for option '--workload'",
                          done.stdout)
            self.assertNotIn("rule point", done.stdout)

    @unittest.skipUnless(shutil.which("snakemake"), "snakemake installed")
    def test_too_many_points_stop_the_workflow_and_the_limit_is_a_config_key(self):
        with tempfile.TemporaryDirectory() as d:
            # The limit is checked before any point is: a stand-in that accepts every point is enough here.
            accept_all = write(d, "accept-all-sim", "#!/bin/sh\necho '{}'\n")
            os.chmod(accept_all, 0o755)
            sweep = write(d, "wide.yaml", "common:\n  workload: [lock]\n  seed: [1, 2, 3, 4]\n  ops: [1, 2, 3]\n")
            code, out = snakemake(os.path.join(d, "work"), sweep, "max_points=10", sim=accept_all)
            self.assertNotEqual(code, 0)
            self.assertIn(f"{sweep}: 12 points in mode quick (the product of the axis sizes), more than the limit "
                          "of 10", out)

    @unittest.skipUnless(shutil.which("snakemake"), "snakemake installed")
    def test_a_sweep_named_with_dashes_resolves_and_an_unbuilt_simulator_is_not_run_by_a_dry_run(self):
        with tempfile.TemporaryDirectory() as d:
            sweep = write(d, "my-own.sweep.yaml", "common:\n  workload: [lock]\n  scheme: [syncron, flat]\n"
                                                  "  ops: [1]\n")
            # The simulator is still to be built: the dry run plans its check (check_sweep) and runs nothing.
            code, out = snakemake(os.path.join(d, "work"), sweep, "build=true", sim=os.path.join(d, "none", "sim"))
            self.assertEqual(code, 0, out[-2000:])
            self.assertIn("results/sweep_my-own.sweep/sweep_my-own.sweep.md", out)
            for job in ("build", "check_sweep", "point"):
                self.assertRegex(out, rf"\n{job} +[0-9]+ ", job)
            if SIM:  # and it runs: checked, then its two points, CSV, plot and Markdown
                code, out = snakemake(os.path.join(d, "work"), sweep, dry=False)
                self.assertEqual(code, 0, out[-2000:])
                self.assertIn(f"Checking 2 points of {sweep}", out)
                with open(os.path.join(d, "work", "results", "sweep_my-own.sweep", "sweep_my-own.sweep.csv")) as f:
                    self.assertEqual(len(f.read().splitlines()), 1 + 2)
                # its Markdown gives the command that made it (the sweep's own target, the file as given)
                with open(os.path.join(d, "work", "results", "sweep_my-own.sweep", "sweep_my-own.sweep.md")) as f:
                    self.assertIn(f"`snakemake --cores 2 sweep --config sweep={sweep} mode=quick` (2 points",
                                  f.read())
            bad = write(d, "my sweep.yaml", "common:\n  workload: [lock]\n")
            code, out = snakemake(os.path.join(d, "work"), bad, sim=os.path.join(d, "none", "sim"))
            self.assertNotEqual(code, 0)
            self.assertIn("use letters, digits, '_', '-' and '.' only (not 'my sweep')", out)


class SimulatorNames(unittest.TestCase):
    """{from: KIND} in a definition stands for the names the simulator lists (--list)."""

    LIST = json.dumps({
        "presets": ["hbm4", "hmc4"], "assumption_sets": ["paper"],
        "schemes": ["syncron", "flat", "central", "hier"],
        "workloads": [{"name": "lock", "family": "microbenchmarks", "inputs": []},
                      {"name": "barrier", "family": "microbenchmarks", "inputs": []},
                      {"name": "stack", "family": "data structures", "inputs": []},
                      {"name": "queue", "family": "data structures", "inputs": []},
                      {"name": "bfs", "family": "applications", "inputs": ["graph"]},
                      {"name": "ts", "family": "applications", "inputs": ["series"]}]})

    def test_the_listing_gives_every_kind(self):
        n = sweeps.names_from_list(self.LIST)
        self.assertEqual(n, {"presets": ["hbm4", "hmc4"], "schemes": ["syncron", "flat", "central", "hier"],
                             "workloads": ["lock", "barrier", "stack", "queue", "bfs", "ts"],
                             "microbenchmarks": ["lock", "barrier"], "data structures": ["stack", "queue"],
                             "applications": ["bfs", "ts"], "graph applications": ["bfs"]})

    def test_from_is_replaced_and_an_unknown_kind_is_refused(self):
        n = sweeps.names_from_list(self.LIST)
        spec = {"common": {"config": {"from": "presets"}, "workload": [{"from": "microbenchmarks"}, "ts", "lock"]},
                "claims": [{"where": {"workload": {"from": "graph applications"}}}]}
        self.assertTrue(sweeps.uses_names(spec))
        self.assertFalse(sweeps.uses_names({"common": {"workload": ["lock"]}}))
        got = sweeps.resolve_names(spec, n)
        self.assertEqual(got["common"], {"config": ["hbm4", "hmc4"], "workload": ["lock", "barrier", "ts"]})
        self.assertEqual(got["claims"][0]["where"], {"workload": ["bfs"]})
        with tempfile.TemporaryDirectory() as d:
            path = write(d, "mine.yaml", "common:\n  workload: {from: kernels}\n")
            with self.assertRaises(sweeps.SweepError) as e:
                sweeps.load(path, n)
            self.assertIn("mine.yaml: {from: kernels}: the simulator lists no 'kernels' (it lists: applications, ",
                          str(e.exception))
            with self.assertRaises(sweeps.SweepError) as e:
                sweeps.load(path, lambda: sweeps.simulator_names(os.path.join(d, "no-such-sim")))
            self.assertIn("mine.yaml: cannot run the simulator", str(e.exception))
            # asked only when the definition has a {from: ...}
            plain = write(d, "plain.yaml", "common:\n  workload: [lock]\n")
            self.assertEqual(sweeps.load(plain, lambda: self.fail("asked"))["common"], {"workload": ["lock"]})

    @unittest.skipUnless(SIM, "SYNCRON_SIM names the simulator (ctest sets it)")
    def test_the_simulators_own_lists_are_names_it_accepts(self):
        n = sweeps.simulator_names(SIM)
        listed = subprocess.run([SIM, "--list-presets"], stdout=subprocess.PIPE, text=True, check=True).stdout
        every = [ln.split()[0] for ln in listed.splitlines() if ln.strip()]
        # the platforms; the sets of assumptions (paper: hbm4 plus assumptions; paper-fitted) are not among them
        sets = json.loads(subprocess.run([SIM, "--list"], stdout=subprocess.PIPE, text=True, check=True).stdout)
        self.assertEqual(sets["assumption_sets"], ["paper", "paper-fitted"])
        self.assertEqual(n["presets"], [p for p in every if p not in sets["assumption_sets"]])
        self.assertIn("hmc4", n["presets"])
        families = [k for k in n if k not in ("presets", "schemes", "workloads", "graph applications")]
        self.assertEqual(set(families), {"microbenchmarks", "data structures", "applications"})
        self.assertEqual(sorted(n["workloads"]), sorted(w for f in families for w in n[f]))
        self.assertTrue(set(n["graph applications"]) < set(n["applications"]))
        pts = ([{"workload": w, "ops": 1} for w in n["workloads"]] + [{"scheme": s} for s in n["schemes"]] +
               [{"config": c} for c in n["presets"]])
        self.assertEqual(sweeps.check_points(SIM, pts), [])


class Tables(unittest.TestCase):
    """A definition's `table` sections: rows and columns of its choosing, ratios and summary rows."""

    SPEC = {"rows": ["workload"], "columns": [
        {"y": "throughput_ops_per_us", "where": {"scheme": "hier", "interval": 200}, "over": {"scheme": "central"},
         "label": "hier / central"},
        {"y": "throughput_ops_per_us", "where": {"scheme": "ideal", "interval": 50}, "per": "interval",
         "label": "per instruction"},
        {"y": ["energy.cores", "energy.se"], "where": {"scheme": "central", "interval": 50}, "scale": 0.5}],
        "summary": [{"label": "geomean", "over": "geomean"}, {"over": "max", "where": {"workload": "lock"}}]}

    def test_a_table_picks_its_rows_divides_and_sums_up(self):
        lines = figures.table(ROWS, POINTS, {}, self.SPEC).splitlines()
        self.assertEqual(lines[0], "| workload | hier / central | per instruction | energy.cores + energy.se |")
        self.assertEqual(lines[1], "|---|---:|---:|---:|")
        self.assertEqual(lines[2:], ["| lock | 2.00× | 0.08 | 5.00 |", "| barrier | 2.00× | 0.08 | 5.00 |",
                                     "| *geomean* | 2.00× | 0.08 | 5.00 |", "| *max of 1* | 2.00× | 0.08 | 5.00 |"])

    def test_a_list_of_tables_follows_the_plots_table_each_after_its_title(self):
        plot = Figures.PLOT
        spec = {"title": "t", "plot": plot, "table": [dict(self.SPEC, title="First."),
                                                      {"rows": ["scheme"], "columns": ["energy.total"]}]}
        text = figures.markdown("t", spec, "quick", ROWS, POINTS, None)
        first, mine, second = (text.index(figures.table(ROWS, POINTS, plot)), text.index("First.\n\n| workload |"),
                               text.index("| scheme | energy.total |\n|---|---:|\n| central | 10.00 |"))
        self.assertLess(first, mine)
        self.assertLess(mine, second)

    @unittest.skipUnless(SIM and shutil.which("snakemake"), "SYNCRON_SIM names the simulator; snakemake installed")
    def test_the_table_sweeps_take_their_names_from_the_simulator(self):
        """The sweeps that replaced the table scripts, in quick mode, on a simulator that lists two presets
        and two applications: their tables have exactly those rows."""
        with tempfile.TemporaryDirectory() as d:
            listing = json.loads(SimulatorNames.LIST)
            listing["presets"] = ["hbm4", "ddr4"]
            list_file = write(d, "list.json", json.dumps(listing))
            sim = write(d, "syncron-sim", "#!/bin/sh\ncase \"$1\" in\n"
                                          f"  --list) cat '{list_file}' ;;\n"
                                          f"  *) exec '{os.path.abspath(SIM)}' \"$@\" ;;\nesac\n")
            os.chmod(sim, 0o755)
            work = os.path.join(d, "work")
            experiments = os.path.join(HERE, "..", "experiments")
            for name in ("apps_schemes", "energy_presets"):
                code, out = snakemake(work, os.path.join(experiments, f"{name}.yaml"), sim=sim, dry=False)
                self.assertEqual(code, 0, out[-3000:])
            rows = tidy.read_csv(os.path.join(work, "results", "sweep_apps_schemes", "sweep_apps_schemes.csv"))
            self.assertEqual({r["workload"] for r in rows}, {"bfs", "ts"})
            self.assertEqual({r["scheme"] for r in rows}, {"central", "hier", "syncron", "ideal", "flat"})
            with open(os.path.join(work, "results", "sweep_apps_schemes", "sweep_apps_schemes.md")) as f:
                md = f.read()
            ratio = {r["workload"]: r["simulated_ns"] for r in rows if r["scheme"] == "central"}
            sync = {r["workload"]: r["simulated_ns"] for r in rows if r["scheme"] == "syncron"}
            # the graph kernels' geomean is bfs's alone: the only graph application listed
            self.assertIn(f"| *geomean, graph kernels* | {figures.fmt(ratio['bfs'] / sync['bfs'])}× |", md)
            self.assertIn("| workload | ST occupancy avg % | ST occupancy max % | lock acquisitions |", md)
            self.assertRegex(md, r"\n\| ts \| [0-9.]+ \| [0-9.]+ \| [0-9]+ \| [0-9.]+ \| 0\.0 \|\n")
            self.assertEqual(len(re.findall(r"\n\| (bfs|ts) \|", md)), 3 * 2)  # the plot's table and two more
            rows = tidy.read_csv(os.path.join(work, "results", "sweep_energy_presets", "sweep_energy_presets.csv"))
            self.assertEqual([r["config"] for r in rows[::8]], ["hbm4", "ddr4"])
            with open(os.path.join(work, "results", "sweep_energy_presets", "sweep_energy_presets.md")) as f:
                md = f.read()
            self.assertIn("| config | workload | scheme | ops/µs | energy (µJ) | nJ/op | SynCron speedup |", md)
            self.assertRegex(md, r"\n\| ddr4 \| condvar \| syncron \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| 1\.00× "
                                 r"\| 1\.00× \|\n")
            self.assertNotIn("hmc4 |", md)


STATS = {
    "scheme": "syncron", "simulated_ns": 100.0, "throughput_ops_per_us": 2.5, "check": {"ok": True},
    "energy": {"total": 10.0, "cores": 6.0, "se": 4.0},
    "se": [{"st_occupancy_avg_pct": 10.0, "name": "se0"}, {"st_occupancy_avg_pct": 30.0, "name": "se1"}],
    "lock_fairness": {"acquisitions": [1, 2, 3]},
    "cores_list": [{"loads": i} for i in range(20)],
}


class Tidy(unittest.TestCase):
    def test_flatten_names_every_statistic_by_its_path(self):
        f = tidy.flatten(STATS)
        self.assertEqual(f["energy.total"], 10.0)
        self.assertEqual(f["check.ok"], True)
        self.assertEqual(f["se.1.st_occupancy_avg_pct"], 30.0)
        self.assertEqual(f["se.1.name"], "se1")
        self.assertEqual(f["se.mean.st_occupancy_avg_pct"], 20.0)
        self.assertEqual(f["se.max.st_occupancy_avg_pct"], 30.0)
        self.assertEqual(f["lock_fairness.acquisitions.sum"], 6)
        self.assertEqual(f["lock_fairness.acquisitions.min"], 1)
        # a long list: aggregates only
        self.assertNotIn("cores_list.0.loads", f)
        self.assertEqual(f["cores_list.sum.loads"], sum(range(20)))
        self.assertEqual(f["cores_list.count"], 20)

    def test_parameters_come_first_and_win(self):
        r = tidy.row({"scheme": "flat", "link.latency_ns": 100}, STATS)
        self.assertEqual(list(r)[:2], ["scheme", "link.latency_ns"])
        self.assertEqual(r["scheme"], "flat")

    def test_csv_round_trip(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.csv")
            rows = [tidy.row({"scheme": "syncron", "interval": 200}, STATS),
                    tidy.row({"scheme": "central", "interval": 200}, dict(STATS, extra=1))]
            tidy.write_csv(rows, path, first=["scheme", "interval"])
            back = tidy.read_csv(path)
            self.assertEqual(back[0]["interval"], 200)
            self.assertEqual(back[0]["energy.total"], 10.0)
            self.assertIsNone(back[0]["extra"])
            self.assertEqual(back[1]["extra"], 1)
            self.assertEqual(back[0]["check.ok"], "true")


def rows_of(points, y):
    return [dict(p, throughput_ops_per_us=y(p), simulated_ns=1000.0 / y(p),
                 **{"energy.total": 10.0, "energy.cores": 6.0, "energy.se": 4.0}) for p in points]


SPEED = {"central": 1.0, "hier": 2.0, "syncron": 3.0, "ideal": 4.0}
POINTS = [{"workload": w, "scheme": s, "interval": n}
          for w in ("lock", "barrier") for s in SPEED for n in (50, 200)]
ROWS = rows_of(POINTS, lambda p: SPEED[p["scheme"]] * (2 if p["interval"] == 200 else 1))


class Figures(unittest.TestCase):
    PLOT = {"kind": "lines", "x": "interval", "y": "throughput_ops_per_us", "series": "scheme",
            "panels": "workload", "normalise": {"scheme": "central"}, "logx": True}

    def test_normalise_divides_by_the_reference_row_of_the_same_point(self):
        vals = {(r["workload"], r["scheme"], r["interval"]): v
                for r, v in figures.normalised(ROWS, figures.params_of(POINTS), self.PLOT)}
        self.assertAlmostEqual(vals[("lock", "syncron", 200)], 3.0)
        self.assertAlmostEqual(vals[("barrier", "central", 50)], 1.0)
        inv = dict(self.PLOT, y="simulated_ns", invert=True)
        vals = {(r["scheme"], r["interval"]): v for r, v in figures.normalised(ROWS, figures.params_of(POINTS), inv)}
        self.assertAlmostEqual(vals[("ideal", 50)], 4.0)

    def test_yaml_booleans_match_the_csv_spelling(self):
        pts = [{"scheme": s, "server.central_cached": c} for s in ("central", "syncron") for c in (False, True)]
        rows = [dict(p, **{"server.central_cached": "true" if p["server.central_cached"] else "false",
                           "throughput_ops_per_us": 2.0 if p["scheme"] == "syncron" else 1.0}) for p in pts]
        spec = {"x": "scheme", "y": "throughput_ops_per_us",
                "normalise": {"scheme": "central", "server.central_cached": False}}
        vals = [v for _, v in figures.normalised(rows, figures.params_of(pts), spec)]
        self.assertEqual(vals, [1.0, 1.0, 2.0, 2.0])  # every row against central, uncached

    def test_a_missing_reference_is_an_error_naming_it(self):
        with self.assertRaises(figures.FigureError) as e:
            figures.normalised(ROWS, figures.params_of(POINTS), dict(self.PLOT, normalise={"scheme": "flat"}))
        self.assertIn("flat", str(e.exception))

    def test_plots_are_written_for_every_kind(self):
        specs = [self.PLOT,
                 dict(self.PLOT, kind="bars", x="workload", panels="interval", logy=True),
                 {"kind": "stacked", "x": "scheme", "y": "energy.total", "panels": "workload",
                  "normalise": {"scheme": "central"}, "stack": ["energy.cores", "energy.se"]},
                 dict(self.PLOT, panels=None, subplots=[{"title": "(a)", "where": {"workload": "lock"}},
                                                        {"title": "(b)", "where": {"workload": "barrier"},
                                                         "x": "interval"}])]
        with tempfile.TemporaryDirectory() as d:
            for i, spec in enumerate(specs):
                path = os.path.join(d, f"p{i}.png")
                figures.plot(ROWS, POINTS, spec, "test", path)
                with open(path, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", spec["kind"])
                self.assertGreater(os.path.getsize(path), 5000)

    def test_table_has_a_row_per_point_and_a_column_per_series(self):
        text = figures.table(ROWS, POINTS, self.PLOT)
        lines = text.splitlines()
        self.assertEqual(lines[0], "| workload | interval | central | hier | syncron | ideal |")
        self.assertEqual(len(lines), 2 + 4)
        self.assertIn("| lock | 200 | 2.00 (1.00×) | 4.00 (2.00×) | 6.00 (3.00×) | 8.00 (4.00×) |", lines)

    def test_a_stacked_table_gives_each_part_over_the_reference_total(self):
        spec = {"kind": "stacked", "x": "scheme", "y": "energy.total", "panels": "workload",
                "normalise": {"scheme": "central"}, "stack": ["energy.cores", "energy.se"]}
        lines = figures.table(ROWS, POINTS, spec).splitlines()
        self.assertEqual(lines[0], "| workload | scheme | interval | cores | se | total | energy.total |")
        self.assertEqual(lines[2], "| lock | central | 50 | 0.6 | 0.4 | 1.00 | 10.00 |")
        self.assertEqual(len(lines), 2 + len(ROWS))

    def test_claims_compare_the_model_with_the_paper(self):
        claims = [{"paper": "syncron over central at 200", "value": 3.0, "y": "throughput_ops_per_us",
                   "where": {"interval": 200}, "ratio": [{"scheme": "syncron"}, {"scheme": "central"}]},
                  {"paper": "hier over central, off", "value": 1.0, "y": "throughput_ops_per_us",
                   "ratio": [{"scheme": "hier"}, {"scheme": "central"}], "over": "geomean"},
                  {"paper": "margin", "value": 1.5, "excess": True, "y": "throughput_ops_per_us",
                   "ratio": [{"scheme": "ideal"}, {"scheme": "syncron"}]},
                  {"paper": "near zero", "value": 0.01, "abs": 0.05, "y": "throughput_ops_per_us",
                   "where": {"scheme": "central", "interval": 50}, "scale": 0.01},
                  {"paper": "order", "order": {"scheme": ["central", "hier", "syncron", "ideal"]},
                   "y": "throughput_ops_per_us"},
                  {"paper": "wrong order", "order": {"scheme": ["ideal", "central"]}, "y": "throughput_ops_per_us"}]
        text = figures.claims_table(ROWS, POINTS, claims).splitlines()
        self.assertIn("| syncron over central at 200 | 3.00 | 3.00 | 1.00 | yes |", text)
        self.assertIn("| hier over central, off | 1.00 | 2.00 | 2.00 | **no** |", text)
        self.assertIn("| margin | 1.50 | 1.33 | 0.67 (of the margin) | **no** |", text)
        self.assertIn("| near zero | 0.01 | 0.01 | ±0.05 | yes |", text)
        self.assertIn("| order | | holds in 4 of 4 | | |", text)
        self.assertIn("| wrong order | | holds in 0 of 4 | | |", text)
        with self.assertRaises(figures.FigureError):
            figures.claim_value(ROWS, POINTS, {"paper": "none", "y": "throughput_ops_per_us",
                                               "where": {"interval": 7}})
        # A claim about values no point of this run has (a full-mode size in quick mode) is said in the
        # table instead of failing the figure.
        outside = [{"paper": "at 1000", "value": 2.0, "y": "throughput_ops_per_us", "where": {"interval": 1000},
                    "ratio": [{"scheme": "syncron"}, {"scheme": "central"}]}]
        self.assertIn("| at 1000 | 2.00 | (not among this run's points) | | |",
                      figures.claims_table(ROWS, POINTS, outside).splitlines())

    def test_every_claim_under_each_assumption_set_side_by_side(self):
        claims = [{"paper": "syncron over central at 200", "value": 3.0, "y": "throughput_ops_per_us",
                   "where": {"interval": 200}, "ratio": [{"scheme": "syncron"}, {"scheme": "central"}]},
                  {"paper": "order", "order": {"scheme": ["central", "hier", "syncron", "ideal"]},
                   "y": "throughput_ops_per_us"},
                  {"paper": "no number", "y": "throughput_ops_per_us", "where": {"scheme": "hier"}}]
        # Under the other set SynCron is twice as fast and the order breaks where it is.
        slower = [dict(r, throughput_ops_per_us=r["throughput_ops_per_us"] * (2 if r["scheme"] == "syncron"
                                                                                else 1)) for r in ROWS]
        both = [("as written", None), ("paper", None)]
        text = figures.claims_under_sets([("fig10", claims, [(ROWS, POINTS), (slower, POINTS)])], both)
        lines = text.splitlines()
        self.assertEqual(lines[0], "Claims with a number within ±15 % of the paper's: **1 of 1 as written**, "
                                   "**0 of 1 under `paper`**.")
        self.assertIn("| fig10 | syncron over central at 200 | 3.00 | 3.00 | yes | 6.00 | **no** |", lines)
        self.assertIn("| fig10 | order | | holds in 4 of 4 | | holds in 0 of 4 | |", lines)
        self.assertIn("| fig10 | no number | | 3.00 | | 3.00 | |", lines)
        # A claim a set declares it fits a value on is shown as fitted and not counted under that set, and
        # only under that set: a third set without the declaration counts it.
        fit = {"server.instructions_per_request": "fig10: syncron over central"}
        three = [("as written", None), ("paper", None), ("paper-fitted", fit)]
        text = figures.claims_under_sets([("fig10", claims, [(ROWS, POINTS), (slower, POINTS), (ROWS, POINTS)])],
                                         three)
        self.assertTrue(text.startswith("Claims with a number within ±15 % of the paper's: **1 of 1 as written**, "
                                        "**0 of 1 under `paper`**, **0 of 0 under `paper-fitted`** (the claim it "
                                        "fits on not counted)."))
        self.assertIn("| figure | the paper | paper | as written | within ±15% | under `paper` | within ±15% "
                      "| under `paper-fitted` | within ±15% |", text.splitlines())
        self.assertIn("| fig10 | syncron over central at 200 | 3.00 | 3.00 | yes | 6.00 | **no** | 3.00 | fitted "
                      "(`server.instructions_per_request`) |", text.splitlines())
        # ... and a declaration that names no claim of any figure is an error, not a silent count.
        with self.assertRaises(figures.FigureError) as e:
            figures.claims_under_sets([("fig10", claims, [(ROWS, POINTS), (slower, POINTS)])],
                                      [("as written", None),
                                       ("paper", {"server.instructions_per_request": "fig11: syncron over central"})])
        self.assertIn("the paper set fits server.instructions_per_request on a claim no figure has", str(e.exception))


def stand_in_rows(spec, points):
    """Rows for `points` without the simulator: every column the definition plots, tabulates or claims, a
    positive number that depends on the point (Ideal far above the others, as in the paper's Figure 10)."""
    plot = spec.get("plot") or figures.default_plot(points)
    columns = set()
    for s in [plot] + list(plot.get("subplots") or []):
        columns.update([s["y"]] if s.get("y") else [])
        columns.update(s.get("stack") or [])
    columns.update(c["y"] for c in spec.get("claims") or [] if c.get("y"))
    tables = spec.get("table") or []
    for t in tables if isinstance(tables, list) else [tables]:
        for c in t.get("columns") or []:
            y = c["y"] if isinstance(c, dict) else c
            columns.update(y if isinstance(y, list) else [y])
            columns.update([c["per"]] if isinstance(c, dict) and c.get("per") else [])
    scale = {"central": 1.0, "hier": 5.0, "syncron": 8.0, "ideal": 800.0}
    rows = []
    for p in points:
        h = int(hashlib.sha1(sweeps.point_id(p).encode()).hexdigest()[:6], 16)
        v = (1 + h % 97 / 10) * scale.get(p.get("scheme"), 2.0)
        rows.append(dict(p, **{c: v * (k + 1) for k, c in enumerate(sorted(columns))}))
    return rows


def overlap(a, b):
    """Whether two display boxes overlap by more than a pixel each way."""
    return min(a.x1, b.x1) - max(a.x0, b.x0) > 1 and min(a.y1, b.y1) - max(a.y0, b.y0) > 1


class Readable(unittest.TestCase):
    """Every plot the workflow draws, rendered from stand-in rows (no simulator), read as a reader would:
    the title and every label inside the figure, every panel's axes labelled, no legend over the data, no
    bar past its axis, no two tick labels or panel titles on top of each other."""

    def check(self, fig, where):
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        page = fig.bbox
        inside = lambda b: (b.x0 >= page.x0 - 1 and b.x1 <= page.x1 + 1 and b.y0 >= page.y0 - 1
                            and b.y1 <= page.y1 + 1)
        title = fig._suptitle
        self.assertTrue(title is not None and title.get_text().strip(), f"{where}: no title")
        self.assertTrue(inside(title.get_window_extent(r)), f"{where}: the title runs past the figure "
                                                            f"({title.get_window_extent(r)} in {page})")
        data = [ax for ax in fig.axes if ax.axison]
        self.assertTrue(data, f"{where}: no panel")
        legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()]
        for ax in data:
            name = f"{where}, panel '{ax.get_title()}'"
            self.assertTrue(ax.get_xlabel().strip(), f"{name}: x axis without a label")
            self.assertTrue(ax.get_ylabel().strip(), f"{name}: y axis without a label")
            self.assertTrue(inside(ax.get_tightbbox(r)), f"{name}: a label or tick runs past the figure")
            for legend in legends:
                self.assertFalse(overlap(legend.get_window_extent(r), ax.bbox), f"{name}: the legend covers it")
            top = ax.get_ylim()[1]
            for bar in ax.patches:
                self.assertLessEqual(bar.get_y() + bar.get_height(), top * (1 + 1e-9), f"{name}: a bar is cut")
            # level labels (slanted ones have overlapping boxes by design)
            ticks = [t.get_window_extent(r) for t in ax.get_xticklabels()
                     if t.get_visible() and t.get_text() and not t.get_rotation()]
            ticks = [b for b in ticks if ax.bbox.x0 - 40 <= (b.x0 + b.x1) / 2 <= ax.bbox.x1 + 40]
            for i, a in enumerate(ticks):
                for b in ticks[i + 1:]:
                    self.assertFalse(overlap(a, b), f"{name}: two x tick labels overlap")
        titles = [ax.title.get_window_extent(r) for ax in data if ax.get_title()]
        for i, a in enumerate(titles):
            self.assertTrue(inside(a), f"{where}: a panel title runs past the figure")
            for b in titles[i + 1:]:
                self.assertFalse(overlap(a, b), f"{where}: two panel titles overlap")

    def test_every_shipped_definition_draws_a_readable_figure(self):
        import matplotlib.pyplot as plt
        for name, path in every_definition():
            spec = sweeps.load(path, names)
            drawn = []  # a mode with the same points as one drawn (paper's, without graphs: full's) is the same figure
            for mode in sweeps.MODES:
                points = sweeps.points(spec, mode)
                if points in drawn:
                    continue
                drawn.append(points)
                plot = figures.with_input_panels(spec.get("plot") or figures.default_plot(points), points)
                fig = figures.render(stand_in_rows(spec, points), points, plot, spec.get("title", name))
                try:
                    self.check(fig, f"{name} ({mode})")
                finally:
                    plt.close(fig)

    def test_a_long_title_wraps_and_a_single_panel_is_wide_enough(self):
        import matplotlib.pyplot as plt
        spec = {"kind": "bars", "x": "workload", "y": "throughput_ops_per_us", "series": "scheme",
                "normalise": {"scheme": "central"}, "where": {"interval": 200}}
        title = "Figure 99: " + "a title far longer than one line of the figure can hold, " * 3
        fig = figures.render(ROWS, POINTS, spec, title)
        try:
            self.check(fig, "long title")
            self.assertGreater(fig._suptitle.get_text().count("\n"), 0)
            self.assertEqual(fig._suptitle.get_text().replace("\n", " "), title.strip())
            self.assertGreaterEqual(fig.get_figwidth(), 7)
        finally:
            plt.close(fig)

    def test_figure_10_has_a_log_axis_for_ideal_hundreds_of_times_central(self):
        spec = sweeps.load(os.path.join(FIGURE_DIR, "fig10.yaml"))
        self.assertTrue(spec["plot"].get("logy"))

    def test_panels_name_their_parameter_and_the_y_axis_says_what_it_is(self):
        import matplotlib.pyplot as plt
        pts = sweeps.points(sweeps.load(os.path.join(HERE, "..", "sweeps", "example.yaml")), "quick")
        spec = figures.default_plot(pts)
        # every swept dimension is drawn: x, the series, or a panel (nothing merged)
        self.assertEqual(spec["x"], "se.cycles_per_message")
        self.assertEqual(spec["series"], "scheme")
        self.assertEqual(spec["panels"], ["workload", "se.st_entries", "seed"])
        only = figures.default_plot([{"scheme": "syncron", "workload": "lock"}, {"scheme": "flat", "workload": "lock"}])
        self.assertEqual((only["kind"], only["x"], only["series"], only["panels"]), ("bars", "scheme", None, None))
        fig = figures.render(stand_in_rows({"plot": spec}, pts), pts, spec, "example")
        try:
            data = [ax for ax in fig.axes if ax.axison]
            self.assertEqual(len(data), 2 * 2 * 2)
            self.assertEqual(data[0].get_title().replace("\n", " "),
                             "workload = hash_table, se.st_entries = 32, seed = 1")
            self.assertEqual(data[0].get_ylabel(), "throughput (operations per µs)")
            self.assertEqual(data[0].get_xlabel(), "se.cycles_per_message")
        finally:
            plt.close(fig)
        fig = figures.render(ROWS, POINTS, {"kind": "lines", "x": "interval", "y": "throughput_ops_per_us",
                                            "series": "scheme", "normalise": {"scheme": "central"},
                                            "panels": "workload"}, "t")
        try:
            self.assertEqual(fig.axes[0].get_title(), "workload = lock")
            self.assertEqual(fig.axes[0].get_ylabel(), "throughput over scheme = central's")
        finally:
            plt.close(fig)

    def test_two_dimensions_drawn_at_one_point_are_refused_not_merged(self):
        with self.assertRaises(figures.FigureError) as e:
            figures.render(ROWS, POINTS, {"kind": "lines", "x": "interval", "y": "throughput_ops_per_us",
                                          "series": "scheme"}, "t")
        self.assertIn("differ in workload", str(e.exception))

    def test_a_sweep_prints_the_command_that_made_it(self):
        text = figures.markdown("sweep_example", {"plot": self.PLOT}, "quick", ROWS, POINTS, None,
                                sweep="workflow/sweeps/example.yaml")
        self.assertIn("`snakemake --cores 2 sweep --config sweep=workflow/sweeps/example.yaml mode=quick` "
                      f"({len(POINTS)} points, mode quick).", text)
        self.assertIn("sweep='my sweeps/a.yaml' mode=full`",
                      figures.markdown("sweep_a", {"plot": self.PLOT}, "full", ROWS, POINTS, None,
                                       sweep="my sweeps/a.yaml"))
        self.assertIn("`snakemake --cores 2 fig10 --config mode=full`",
                      figures.markdown("fig10", {"plot": self.PLOT}, "full", ROWS, POINTS, None))

    PLOT = Figures.PLOT


class AssumptionSets(unittest.TestCase):
    """`--config assume=paper`: every point on the paper preset, outputs under results/paper/ (docs/sweeps.md)."""

    def test_points_take_the_preset_or_its_keys_and_keep_their_own(self):
        keys = assume.own_keys(os.path.join(assume.preset_dir(ROOT), "paper.json"))
        self.assertEqual(keys["server.instructions_per_request"], 157)
        pts = [{"workload": "lock", "scheme": "central"},
               {"workload": "lock", "scheme": "hier", "server.instructions_per_request": 40},
               {"workload": "bfs", "config": "ddr4"}]
        self.assertIs(assume.apply(pts, "as-written", ROOT), pts)
        a, b, c = assume.apply(pts, "paper", ROOT)
        self.assertEqual(a, {"config": "paper", "workload": "lock", "scheme": "central"})
        self.assertEqual(b["server.instructions_per_request"], 40)  # the point's own value wins
        self.assertEqual(c["config"], "ddr4")  # a named memory preset stays, with the paper's keys over it
        self.assertEqual({k: c[k] for k in keys}, keys)
        self.assertNotEqual(sweeps.point_id(a), sweeps.point_id(pts[0]))
        self.assertEqual((assume.results_dir("as-written"), assume.results_dir("paper")), ("results", "results/paper"))
        with self.assertRaises(ValueError) as e:
            assume.check("papper")
        self.assertIn("unknown assumption set (known: as-written, paper, paper-fitted)", str(e.exception))

    def test_a_set_built_on_another_takes_its_keys_and_its_own_over_them(self):
        # paper-fitted is paper with one value fitted: a point naming a memory preset gets paper's keys with
        # the fitted value over them, a point naming none runs on the preset itself; the fit is declared.
        paper = assume.set_keys("paper", ROOT)
        fitted = assume.set_keys("paper-fitted", ROOT)
        self.assertEqual(fitted, dict(paper, **{"server.instructions_per_request": 37}))
        self.assertNotIn("memory.vaults_per_unit", fitted)  # hbm4, the platform under paper, is not a set's key
        hbm, plain = assume.apply([{"workload": "bfs", "config": "ddr4"}, {"workload": "lock"}], "paper-fitted", ROOT)
        self.assertEqual({k: hbm[k] for k in fitted}, fitted)
        self.assertEqual(plain, {"config": "paper-fitted", "workload": "lock"})
        self.assertEqual(assume.results_dir("paper-fitted"), "results/paper-fitted")
        self.assertEqual(list(assume.fitted("paper-fitted", ROOT)), ["server.instructions_per_request"])
        self.assertEqual((assume.fitted("paper", ROOT), assume.fitted("as-written", ROOT)), ({}, {}))
        with tempfile.TemporaryDirectory() as mine:
            # A base of your own is read where the simulator reads it: its keys reach the set built on it.
            with open(os.path.join(assume.preset_dir(ROOT), "paper.json")) as f:
                base = json.load(f)
            write(mine, "paper.json", json.dumps(dict(base, workload=dict(base["workload"], edge_instructions=3))))
            self.assertEqual(assume.set_keys("paper-fitted", ROOT, mine)["workload.edge_instructions"], 3)

    def test_a_preset_folder_of_your_own_has_results_of_its_own(self):
        with open(os.path.join(assume.preset_dir(ROOT), "paper.json")) as f:
            paper = json.load(f)
        with tempfile.TemporaryDirectory() as mine:
            self.assertIsNone(assume.own_presets(ROOT, {}))
            self.assertIsNone(assume.own_presets(ROOT, {"SYNCRON_PRESET_DIR": assume.preset_dir(ROOT)}))
            with self.assertRaises(ValueError) as e:
                assume.own_presets(ROOT, {"SYNCRON_PRESET_DIR": os.path.join(mine, "missing")})
            self.assertIn("SYNCRON_PRESET_DIR=", str(e.exception))
            self.assertEqual(assume.own_presets(ROOT, {"SYNCRON_PRESET_DIR": mine}), mine)
            write(mine, "paper.json", json.dumps(dict(paper, server=dict(paper["server"], instructions_per_request=40))))
            first = assume.results_dir("paper", mine)
            self.assertRegex(first, r"^results/paper/presets-[0-9a-f]{8}$")
            self.assertRegex(assume.results_dir("as-written", mine), r"^results/presets-[0-9a-f]{8}$")
            # The set's keys come from the folder the simulator reads first, for a point naming a memory
            # preset as for one that names none.
            hbm, plain = assume.apply([{"workload": "lock", "config": "hbm4"}, {"workload": "lock"}], "paper", ROOT, mine)
            self.assertEqual(hbm["server.instructions_per_request"], 40)
            self.assertEqual(plain, {"config": "paper", "workload": "lock"})
            # Another content is another folder of results: nothing made with the first is taken for it.
            write(mine, "paper.json", json.dumps(paper))
            self.assertNotEqual(assume.results_dir("paper", mine), first)
            self.assertEqual(assume.preset_file("hbm4", ROOT, mine), os.path.join(assume.preset_dir(ROOT), "hbm4.json"))

    @unittest.skipUnless(SIM and shutil.which("snakemake"), "SYNCRON_SIM names the simulator; snakemake installed")
    def test_the_workflow_puts_runs_with_presets_of_your_own_apart(self):
        with tempfile.TemporaryDirectory() as d:
            mine = os.path.join(d, "presets")
            os.mkdir(mine)
            shutil.copy(os.path.join(assume.preset_dir(ROOT), "paper.json"), mine)
            env = dict(os.environ, SYNCRON_PRESET_DIR=mine)
            base = ["snakemake", "-s", SNAKEFILE, "--directory", os.path.join(d, "work"), "-n", "--cores", "1"]
            done = subprocess.run(base + ["fig20", "--config", "mode=quick", "assume=paper", f"sim={SIM}",
                                          "build=false"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
            self.assertEqual(done.returncode, 0, done.stdout[-2000:])
            out = assume.results_dir("paper", mine)
            self.assertIn(f"{out}/fig20/fig20.md", done.stdout)
            self.assertNotIn("results/paper/fig20/", done.stdout)
            done = subprocess.run(base + ["results_md", "--config", "mode=full", f"sim={SIM}", "build=false"],
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertNotEqual(done.returncode, 0)
            self.assertIn(f"run it without SYNCRON_PRESET_DIR ({mine})", done.stdout)

    @unittest.skipUnless(SIM, "SYNCRON_SIM names the simulator (ctest sets it)")
    def test_every_figure_point_under_paper_is_a_valid_configuration(self):
        from unittest import mock
        pts = [p for _, path in sweeps.definitions(FIGURE_DIR).items()
               for p in assume.apply(sweeps.points(sweeps.load(path), "quick"), "paper", ROOT)]
        with mock.patch.dict(os.environ, {"SYNCRON_PRESET_DIR": assume.preset_dir(ROOT)}):
            self.assertEqual(sweeps.check_points(SIM, pts), [])

    @unittest.skipUnless(SIM, "SYNCRON_SIM names the simulator (ctest sets it)")
    def test_one_quick_point_of_every_figure_runs_under_paper_with_its_check_passing(self):
        # The paper set's figures are too long for the suite; one point of each is not. The first
        # quick point (Central or Hier where the figure has them: the servers' keys are the preset's
        # largest change), run on the preset: it must finish, pass its functional check, and run on
        # the preset's values with the point's own keys over them.
        preset = assume.own_keys(os.path.join(assume.preset_dir(ROOT), "paper.json"))
        figures_run = []
        with tempfile.TemporaryDirectory() as d, \
                unittest.mock.patch.dict(os.environ, {"SYNCRON_PRESET_DIR": assume.preset_dir(ROOT)}):
            for name, path in sorted(sweeps.definitions(FIGURE_DIR).items()):
                pts = assume.apply(sweeps.points(sweeps.load(path), "quick"), "paper", ROOT)
                point = next((p for p in pts if p.get("scheme") in ("central", "hier")), pts[0])
                stats = os.path.join(d, name + ".json")
                with self.subTest(figure=name, point=sweeps.describe(point)):
                    done = subprocess.run([SIM] + sweeps.arguments(point) + ["--stats", stats],
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
                    self.assertEqual(done.returncode, 0, done.stdout[-2000:])
                    with open(stats) as f:
                        run = json.load(f)
                    self.assertEqual((run["status"], run["check"]), ("ok", {"failures": [], "ok": True}))
                    for key, value in preset.items():
                        section, field = key.split(".")
                        want = point.get(key, value)  # the point's own key wins
                        self.assertEqual(run["config"][section][field], want, key)
                    vaults = {"paper": 8, "hbm4": 8, "hmc4": 32, "ddr4": 1}[point["config"]]  # paper is hbm4
                    self.assertEqual(run["config"]["memory"]["vaults_per_unit"], vaults)
                    figures_run.append(name)
        self.assertEqual(len(figures_run), len(sweeps.definitions(FIGURE_DIR)))

    @unittest.skipUnless(SIM and shutil.which("snakemake"), "SYNCRON_SIM names the simulator; snakemake installed")
    def test_a_quick_figure_under_paper_runs_on_the_preset_beside_the_as_written_run(self):
        import csv
        with tempfile.TemporaryDirectory() as d:
            work = os.path.join(d, "work")

            def run(*config, dry=False):
                cmd = (["snakemake", "-s", SNAKEFILE, "--directory", work, "--cores", "2"] + (["-n"] if dry else []) +
                       ["fig20", "--config", "mode=quick", f"sim={SIM}", "build=false", *config])
                return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

            done = run("assume=paper")
            self.assertEqual(done.returncode, 0, done.stdout[-3000:])
            out = os.path.join(work, "results", "paper", "fig20")
            with open(os.path.join(out, "fig20.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), 6)
            for r in rows:  # the point names the preset, and the run's configuration is the preset's
                self.assertEqual(r["config"], "paper")
                self.assertEqual(r["config.server.instructions_per_request"], "157")
                self.assertEqual(r["config.workload.edge_instructions"], "8")
                self.assertEqual(r["config.memory.vaults_per_unit"], "8")  # hbm4, its base
            with open(os.path.join(out, "fig20.md")) as f:
                self.assertIn("`snakemake --cores 2 fig20 --config mode=quick assume=paper` (6 points", f.read())
            self.assertEqual(sorted(os.listdir(os.path.join(work, "results"))), ["paper"])
            # The as-written run finds none of its outputs there: it plans every point of its own.
            done = run(dry=True)
            self.assertEqual(done.returncode, 0, done.stdout[-2000:])
            self.assertRegex(done.stdout, r"\npoint +6 ")
            self.assertIn("results/fig20/fig20.md", done.stdout)
            # docs/results.md is the as-written run's: results_md refuses another assumption set.
            cmd = ["snakemake", "-s", SNAKEFILE, "--directory", work, "-n", "--cores", "1", "results_md",
                   "--config", "mode=full", "assume=paper", f"sim={SIM}", "build=false"]
            done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertNotEqual(done.returncode, 0)
            self.assertIn("run it without assume=paper", done.stdout)
            # ... and the as-written results_md needs the paper runs first, to set their claims beside its own.
            cmd = ["snakemake", "-s", SNAKEFILE, "--directory", work, "-n", "--cores", "1", "results_md",
                   "--config", "mode=full", f"sim={SIM}", "build=false"]
            done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertNotEqual(done.returncode, 0)
            self.assertIn("run `snakemake --cores 2 figures --config mode=full assume=paper` first", done.stdout)
            # With the paper runs there, it needs the paper-fitted runs too (a third column).
            for n in sweeps.definitions(FIGURE_DIR):
                os.makedirs(os.path.join(work, "results", "paper", n), exist_ok=True)
                write(os.path.join(work, "results", "paper", n), f"{n}.csv", "workload\n")
                write(os.path.join(work, "results", "paper", n), f"{n}.md",
                      f"`snakemake --cores 2 {n} --config mode=full assume=paper` (1 point)\n")
            done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertNotEqual(done.returncode, 0)
            self.assertIn("run `snakemake --cores 2 figures --config mode=full assume=paper-fitted` first",
                          done.stdout)
            # paper-fitted runs on its own preset (paper's values, the fitted one over them), in its own folder.
            done = run("assume=paper-fitted")
            self.assertEqual(done.returncode, 0, done.stdout[-3000:])
            with open(os.path.join(work, "results", "paper-fitted", "fig20", "fig20.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), 6)
            for r in rows:
                self.assertEqual(r["config"], "paper-fitted")
                self.assertEqual(r["config.server.instructions_per_request"], "37")
                self.assertEqual(r["config.workload.edge_instructions"], "8")
                self.assertEqual(r["config.memory.vaults_per_unit"], "8")


class PaperAblation(unittest.TestCase):
    """scripts/paper-ablation: the paper preset one value at a time (docs/results.md)."""

    @unittest.skipUnless(SIM, "SYNCRON_SIM names the simulator (ctest sets it)")
    def test_one_variant_per_value_the_preset_changes_each_without_that_value(self):
        with open(os.path.join(assume.preset_dir(ROOT), "paper.json")) as f:
            paper = json.load(f)
        found = dict(ablation.variants(ROOT, SIM))
        # per_unit_cached is hbm4's value already: taking it away changes nothing, so it is no variant
        self.assertEqual(sorted(found), sorted(["server.instructions_per_request=40", "server.central_cached=false",
                                                "workload.edge_instructions=0", "workload.op_work at its default",
                                                "workload.pr_style at its default", "base=hmc4"]))
        for label, variant in found.items():
            key = label.split("=")[0].split(" ")[0]
            if key == "base":
                self.assertEqual(variant, dict(paper, base="hmc4"))
                continue
            section, name = key.split(".")
            self.assertNotIn(name, variant[section])
            self.assertEqual({k: v for k, v in paper[section].items() if k != name}, variant[section])
            self.assertEqual({s: v for s, v in variant.items() if s != section},
                             {s: v for s, v in paper.items() if s != section})
        # paper-fitted: the paper set with the value it fits, and the claim it declares it fits it on
        label, preset, fits = ablation.fitted_variant(ROOT)
        self.assertEqual((label, preset), ("paper-fitted", ablation.with_value(paper, "server.instructions_per_request",
                                                                              37)))
        self.assertEqual(list(fits), ["server.instructions_per_request"])
        self.assertTrue(fits["server.instructions_per_request"].startswith("fig10: At 200 instructions SynCron"))
        with tempfile.TemporaryDirectory() as d:  # the folders live under results/, which git does not track
            self.assertTrue(ablation.folder_of(d, "workload.op_work at its default").startswith(
                os.path.join(d, "results", "ablation") + os.sep))

    def test_a_fit_takes_the_value_whose_claim_is_closest_to_the_papers(self):
        claim = "At 200 instructions SynCron outperforms Hier by 1.40×, averaged across the primitives"
        by_value = {30: 1.22, 37: 1.40, 40: 1.48, 157: 4.47}
        seen = []

        def claim_values(root, work, folder, only):
            value = json.load(open(os.path.join(folder, "paper.json")))["server"]["instructions_per_request"]
            seen.append((value, only))
            return {("fig10", claim): (by_value[value], None)}

        with tempfile.TemporaryDirectory() as d, \
                unittest.mock.patch.object(ablation, "run_figures") as run, \
                unittest.mock.patch.object(ablation, "claim_values", claim_values):
            best, found = ablation.fit(ROOT, d, "sim", 2, "server.instructions_per_request",
                                       "fig10:At 200 instructions SynCron outperforms Hier", [157, 40, 37, 30], False)
            self.assertEqual(best, 37)
            self.assertEqual(found, [(157, 4.47), (40, 1.48), (37, 1.40), (30, 1.22)])
            self.assertEqual(seen, [(v, ["fig10"]) for v in (157, 40, 37, 30)])  # that figure alone, each value
            self.assertEqual(run.call_count, 4)
            by_value[37] = 1.60  # then 40 (1.48: 5.6 % high) is nearer than 30 (1.22: 13 % low) or 37 (14 % high)
            self.assertEqual(ablation.fit(ROOT, d, "sim", 2, "server.instructions_per_request",
                                          "fig10:At 200 instructions SynCron outperforms Hier", [30, 37, 40],
                                          False)[0], 40)
            self.assertEqual(ablation.fit(ROOT, d, "sim", 2, "server.instructions_per_request",  # a preset's form
                                          "fig10: At 200 instructions SynCron outperforms Hier", [30, 37, 40],
                                          False)[0], 40)
            with self.assertRaises(ValueError) as e:  # "At 200 instructions" alone names two claims with numbers
                ablation.fit(ROOT, d, "sim", 2, "server.instructions_per_request", "fig10:At 200", [30], False)
            self.assertIn("2 claims of fig10", str(e.exception))

    def test_the_table_marks_the_claims_a_value_moves_across_the_tolerance(self):
        claims = [(("fig10", "A over B"), 3.0), (("fig12", "C over D"), 1.5)]
        paper = {("fig10", "A over B"): (6.0, False), ("fig12", "C over D"): (1.6, True)}
        runs = [("server.instructions_per_request=40", {("fig10", "A over B"): (3.2, True),
                                                        ("fig12", "C over D"): (1.55, True)}),
                ("base=hmc4", {("fig10", "A over B"): (6.1, False), ("fig12", "C over D"): (2.5, False)})]
        lines = ablation.table(claims, paper, runs).splitlines()
        self.assertEqual(lines[0], "| figure | the paper | paper | under `paper` | `server.instructions_per_request=40`"
                                   " | `base=hmc4` |")
        self.assertEqual(lines[2], "| fig10 | A over B | 3.00 | 6.00 | **3.20 ✓** | 6.10 |")
        self.assertEqual(lines[3], "| fig12 | C over D | 1.50 | 1.60 ✓ | 1.55 ✓ | **2.50** |")
        self.assertEqual(lines[4], "| | within ±15 % | | **1 of 2** | **2 of 2** | **0 of 2** |")
        # A column fitted on a claim shows it as fitted and counts the others (its validation).
        fits = {"server.instructions_per_request=40": {"server.instructions_per_request": "fig10: A over B"}}
        lines = ablation.table(claims, paper, runs, fits).splitlines()
        self.assertEqual(lines[2], "| fig10 | A over B | 3.00 | 6.00 | 3.20 (fitted) | 6.10 |")
        self.assertEqual(lines[4], "| | within ±15 % | | **1 of 2** | **1 of 1** | **0 of 2** |")


class Splice(unittest.TestCase):
    def test_sections_are_replaced_or_added_and_the_rest_kept(self):
        text = ("# Results\nhand text\n<!-- figure fig10 begin -->\nold\n<!-- figure fig10 end -->\n"
                "more hand text\n<!-- figures end -->\ntail\n")
        new = splice.splice_text(text, {"fig10": "new ten", "fig2": "two"})
        self.assertIn("<!-- figure fig10 begin -->\nnew ten\n<!-- figure fig10 end -->", new)
        self.assertNotIn("old", new)
        self.assertIn("more hand text\n<!-- figure fig2 begin -->\ntwo\n<!-- figure fig2 end -->\n\n"
                      "<!-- figures end -->\ntail", new)
        self.assertEqual(splice.splice_text(new, {"fig10": "new ten", "fig2": "two"}), new)
        with self.assertRaises(ValueError):
            splice.splice_text("no markers", {"fig2": "x"})


class Resume(unittest.TestCase):
    """run_workflow.py's reading of Snakemake's incomplete markers (the interrupted-sweep check)."""

    def test_incomplete_markers_name_their_outputs(self):
        sys.path.insert(0, HERE)
        import base64
        import run_workflow
        with tempfile.TemporaryDirectory() as d:
            root = os.path.join(d, ".snakemake", "incomplete")
            os.makedirs(root)
            short = "results/points/lock-syncron-0123456789ab.json"
            with open(os.path.join(root, base64.urlsafe_b64encode(short.encode()).decode()), "w") as f:
                f.write("{}")
            # A long name is split into directories of at most 254 characters, each but the last with an '@'.
            long = "results/points/" + "x" * 300 + ".json"
            b64 = base64.urlsafe_b64encode(long.encode()).decode()
            os.makedirs(os.path.join(root, "@" + b64[:254]))
            with open(os.path.join(root, "@" + b64[:254], b64[254:]), "w") as f:
                f.write("{}")
            with open(os.path.join(root, "migration_underway"), "w") as f:  # Snakemake's own, not an output
                f.write("")
            self.assertEqual(run_workflow.incomplete_outputs(d), {short, long})
            self.assertEqual(run_workflow.incomplete_outputs(os.path.join(d, "none")), set())


if __name__ == "__main__":
    unittest.main()
