"""The workflow end to end, as a user runs it (ctest workflow_end_to_end):

1. a dry run of every figure in both modes (the DAG of every figure resolves);
2. one figure for real, quick mode (fig10): CSV, PNG and Markdown;
3. a sweep killed mid-way (SIGKILL to the engine and its running job) and rerun: the rerun runs
   only the points that were missing and leaves the finished ones untouched;
4. a sweep value holding a space (a graph's path).

    python3 workflow/tests/run_workflow.py SIM WORKDIR
"""
import base64
import csv
import glob
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SNAKEFILE = os.path.join(ROOT, "workflow", "Snakefile")


def snakemake(workdir, sim, cores, target, *config, dry=False):
    """The command line a user types, on the given working directory and simulator (never rebuilt here)."""
    return (["snakemake", "-s", SNAKEFILE, "--directory", workdir] + (["-n"] if dry else []) +
            ["--cores", str(cores), target, "--config", f"sim={sim}", "build=false", *config])


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def dry_runs(workdir, sim):
    for mode in ("quick", "full"):
        cmd = snakemake(workdir, sim, 2, "figures", f"mode={mode}", dry=True)
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            fail(f"dry run, mode {mode}:\n{done.stdout[-3000:]}")
        if "point" not in done.stdout:
            fail(f"dry run, mode {mode}: no point jobs planned:\n{done.stdout[-2000:]}")
    # docs/results.md shows the paper's sizes: a quick-mode request fails before any job runs.
    cmd = snakemake(workdir, sim, 1, "results_md", "mode=quick", dry=True)
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode == 0 or "run it with --config mode=full" not in done.stdout:
        fail(f"results_md in quick mode was not refused:\n{done.stdout[-2000:]}")
    print("dry runs of every figure, quick and full: ok; results_md refuses quick mode")


def one_figure(workdir, sim):
    cmd = snakemake(workdir, sim, 2, "fig10", "mode=quick")
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        fail(f"fig10 quick:\n{done.stdout[-3000:]}")
    out = os.path.join(workdir, "results", "fig10")
    with open(os.path.join(out, "fig10.csv")) as f:
        rows = list(csv.DictReader(f))
    if len(rows) != 4 * 15:  # 4 schemes x 15 (primitive, interval) pairs in quick mode
        fail(f"fig10.csv has {len(rows)} rows, expected 60")
    for r in rows:
        if r["status"] != "ok" or r["check.ok"] != "true":
            fail(f"fig10 point {r['workload']} {r['scheme']} {r['interval']}: status {r['status']}")
        if not float(r["throughput_ops_per_us"]) > 0:
            fail(f"fig10 point without throughput: {r['workload']} {r['scheme']}")
    with open(os.path.join(out, "fig10.png"), "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            fail("fig10.png is not a PNG")
    with open(os.path.join(out, "fig10.md")) as f:
        md = f.read()
    for needle in ("| the paper | paper | model |", "3.05", "| workload | interval | central | hier | syncron | ideal |"):
        if needle not in md:
            fail(f"fig10.md lacks '{needle}'")
    print(f"fig10 quick: {len(rows)} points, CSV with {len(rows[0])} columns, PNG and Markdown: ok")


def incomplete_outputs(workdir):
    """The outputs Snakemake marks incomplete (a record per output under .snakemake/incomplete, named by
    the output's path in URL-safe base64, split into directories of at most 255 characters)."""
    root = os.path.join(workdir, ".snakemake", "incomplete")
    found = set()
    for path, _, files in os.walk(root):
        for f in files:
            parts = os.path.relpath(os.path.join(path, f), root).split(os.sep)
            name = "".join(x.lstrip("@") for x in parts)
            try:
                found.add(base64.urlsafe_b64decode(name).decode())
            except (ValueError, UnicodeDecodeError):
                continue  # Snakemake's own files there (migration_underway)
    return found


def interrupted_sweep(workdir, sim):
    sweep = os.path.join(ROOT, "workflow", "sweeps", "example.yaml")
    points_dir = os.path.join(workdir, "results", "points")
    cmd = snakemake(workdir, sim, 1, "sweep", "mode=quick", f"sweep={sweep}")
    # Its own session, so that the kill takes the engine and its running point together, as a crash would.
    engine = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    deadline = time.time() + 300
    while len(glob.glob(os.path.join(points_dir, "*.json"))) < 8:
        if engine.poll() is not None or time.time() > deadline:
            fail(f"the sweep ended before it could be interrupted:\n{engine.stdout.read()[-2000:]}")
        time.sleep(0.05)
    os.killpg(engine.pid, signal.SIGKILL)
    engine.communicate(timeout=120)
    # A hard kill leaves the engine's lock; --unlock releases it (docs/sweeps.md).
    unlock = subprocess.run(cmd + ["--unlock"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if unlock.returncode != 0:
        fail(f"--unlock after the kill failed:\n{unlock.stdout[-2000:]}")
    # A point whose job was running at the kill may have renamed its output just before: Snakemake
    # marked it incomplete when the job started, and --rerun-incomplete runs it again.
    incomplete = incomplete_outputs(workdir)
    before = {p: os.stat(p).st_mtime_ns for p in glob.glob(os.path.join(points_dir, "*.json"))
              if os.path.relpath(p, workdir) not in incomplete}
    total = 2 * 2 * 3 * 2 * 2
    if not 0 < len(before) < total:
        fail(f"after the interrupt {len(before)} of {total} points exist")
    rerun = subprocess.run(cmd + ["--rerun-incomplete", "--printshellcmds"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    if rerun.returncode != 0:
        fail(f"the rerun after the interrupt failed:\n{rerun.stdout[-3000:]}")
    ran = rerun.stdout.count("rule point:")
    if ran != total - len(before):
        fail(f"the rerun ran {ran} points; {total - len(before)} were missing")
    for p, t in before.items():
        if os.stat(p).st_mtime_ns != t:
            fail(f"the rerun rewrote a finished point: {p}")
    with open(os.path.join(workdir, "results", "sweep_example", "sweep_example.csv")) as f:
        rows = list(csv.DictReader(f))
    if len(rows) != total:
        fail(f"sweep CSV has {len(rows)} rows, expected {total}")
    print(f"sweep interrupted after {len(before)} of {total} points; the rerun ran the {ran} missing ones "
          "and left the others untouched: ok")


def spaced_path(workdir, sim):
    """A sweep value with a space in it (a graph file under "my graphs/") reaches syncron-sim as one argument."""
    graphs = os.path.join(workdir, "my graphs")
    os.makedirs(graphs)
    shutil.copyfile(os.path.join(ROOT, "testbenches", "inputs", "small.snap"), os.path.join(graphs, "small.snap"))
    sweep = os.path.join(workdir, "spaced.yaml")
    with open(sweep, "w") as f:
        f.write("common:\n  workload: [cc]\n  scheme: [syncron]\n"
                f"  graph: [\"{os.path.join(graphs, 'small.snap')}\"]\n")
    done = subprocess.run(snakemake(workdir, sim, 1, "sweep", f"sweep={sweep}"), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        fail(f"a sweep with a space in a value failed:\n{done.stdout[-3000:]}")
    with open(os.path.join(workdir, "results", "sweep_spaced", "sweep_spaced.csv")) as f:
        rows = list(csv.DictReader(f))
    if len(rows) != 1 or rows[0]["status"] != "ok" or rows[0]["graph"] != os.path.join(graphs, "small.snap"):
        fail(f"the spaced-path point did not run as asked: {rows}")
    print("a sweep value with a space reaches the simulator as one argument: ok")


def main():
    sim, workdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if shutil.which("snakemake") is None:
        fail("snakemake is not installed (Debian package snakemake; scripts/deps.sh installs it)")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    dry_runs(workdir, sim)
    one_figure(workdir, sim)
    interrupted_sweep(os.path.join(workdir, "sweep"), sim)  # its own results/points
    spaced_path(os.path.join(workdir, "spaced"), sim)  # (Snakemake 7.21 itself cannot work in a directory with a space)


if __name__ == "__main__":
    main()
