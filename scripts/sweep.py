"""Shared by scripts/applications.py and scripts/memory_energy.py: run syncron-sim points in parallel, each
writing its --stats JSON next to the output, and read them back."""
import concurrent.futures
import json
import os
import subprocess


def run(sim, args, path):
    """One syncron-sim run (or --compare) with --stats path; returns the JSON.
    A run that fails still writes its statistics (status "error")."""
    cmd = [sim] + list(args) + ["--stats", path]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not os.path.exists(path):
        raise RuntimeError(f"{' '.join(cmd)} wrote no statistics: {done.stderr.strip()}")
    with open(path) as f:
        return json.load(f)


def run_all(sim, points, outdir, jobs):
    """points: {key: (file name, [arguments])} -> {key: statistics}."""
    os.makedirs(outdir, exist_ok=True)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = {ex.submit(run, sim, args, os.path.join(outdir, name)): key for key, (name, args) in points.items()}
        for f in concurrent.futures.as_completed(futs):
            results[futs[f]] = f.result()
    return results


def rows_by_scheme(comparison):
    """{scheme: row} of a --compare statistics file."""
    return {r["scheme"]: r for r in comparison["rows"]}


def write_output(text, out):
    """The report to stdout ("-") or to the file `out`."""
    if out == "-":
        print(text)
    else:
        with open(out, "w") as f:
            f.write(text + "\n")
