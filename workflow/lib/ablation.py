"""The paper preset one value at a time (docs/results.md, "The paper preset, one value at a time"): every
figure in full mode under `paper` with one of its values back at its base's, and the claims under each.

    scripts/paper-ablation [--sim PATH] [--cores N] [--work DIR] [--splice docs/results.md] [--dry-run]

A variant is a preset folder of its own holding a `paper.json` without that value (the memory: `hmc4` as its
base instead of `hbm4`) under results/ablation/, run through the workflow with SYNCRON_PRESET_DIR (its results go under
results/paper/presets-HASH/ of the working directory, docs/sweeps.md); the preset itself is the tree's
results/paper/. A value the base already has is no variant (it changes nothing). Points already run are
not run again."""
import argparse
import json
import os
import subprocess
import sys

import assume
import figures as figlib
import splice
import sweeps
import tidy

SECTION = "paper-ablation"
MEMORY = "hmc4"  # the simulator's default memory, the one the as-written figures run on


def base_values(sim, base):
    """The configuration the simulator builds from the preset `base` (by name, from this tree)."""
    out = subprocess.run([sim, "--config", base, "--dump-config"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, check=True)
    return json.loads(out.stdout)


def variants(root, sim):
    """[(label, the paper.json of the variant)]: one per value the preset states that its base does not have."""
    with open(assume.preset_file("paper", root)) as f:
        paper = json.load(f)
    base = base_values(sim, paper["base"])
    out = []
    for section, keys in paper.items():
        if not isinstance(keys, dict):
            continue
        for key, value in keys.items():
            default = base.get(section, {}).get(key)
            if default == value:
                continue
            rest = {k: v for k, v in keys.items() if k != key}
            variant = {s: (rest if s == section else v) for s, v in paper.items() if s != section or rest}
            shown = "its default" if default is None else json.dumps(default)  # an extension key unset
            out.append((f"{section}.{key}={shown}".replace("=its default", " at its default"), variant))
    if paper["base"] != MEMORY:
        out.append((f"base={MEMORY}", dict(paper, base=MEMORY)))
    return out


def folder_of(work, label):
    """The variant's preset folder, under results/ (which the repository does not track)."""
    return os.path.join(work, "results", "ablation", "".join(c if c.isalnum() or c in "._" else "-" for c in label))


def run_figures(sim, work, cores, presets, dry):
    env = dict(os.environ)
    env.pop("SYNCRON_PRESET_DIR", None)
    if presets:
        env["SYNCRON_PRESET_DIR"] = presets
    cmd = ["snakemake", "-s", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Snakefile"),
           "--directory", work, "--cores", str(cores), "figures", "--config", "mode=full", "assume=paper",
           f"sim={sim}", "build=false"] + (["-n"] if dry else [])
    print("$ " + ("SYNCRON_PRESET_DIR=" + presets + " " if presets else "") + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, env=env, check=True)


def claim_values(root, work, presets):
    """{(figure, claim text): (value, within)} of the claims with a number, for one run under `paper`."""
    out = {}
    results = os.path.join(work, assume.results_dir("paper", presets))
    for name, path in sorted(sweeps.definitions(os.path.join(root, "workflow", "figures")).items()):
        spec = sweeps.load(path)
        points = assume.apply(sweeps.points(spec, "full", None, path), "paper", root, presets)
        rows = tidy.read_csv(os.path.join(results, name, f"{name}.csv"))
        for c in spec.get("claims") or []:
            if c.get("value") is None or "order" in c:
                continue
            v, _ = figlib.claim_value(rows, points, c)
            out[(name, c["paper"])] = (v, figlib.claim_verdict(c, v)[1])
    return out


def table(claims, paper, runs):
    """The Markdown: one row per claim with a number, a column per variant; a count of the claims within."""
    head = ["figure", "the paper", "paper", "under `paper`"] + [f"`{label}`" for label, _ in runs]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]

    def cell(v, ok):
        return f"{figlib.fmt(v)}" + (" ✓" if ok else "")

    for (fig, text), value in claims:
        row = [fig, text, figlib.fmt(float(value)), cell(*paper[(fig, text)])]
        for _, got in runs:
            v, ok = got[(fig, text)]
            changed = ok != paper[(fig, text)][1]
            row.append(f"**{cell(v, ok)}**" if changed else cell(v, ok))
        lines.append("| " + " | ".join(row) + " |")
    count = [sum(ok for _, ok in r.values()) for r in [paper] + [g for _, g in runs]]
    lines.append("| | within ±15 % | | " + " | ".join(f"**{n} of {len(paper)}**" for n in count) + " |")
    return "\n".join(lines)


def main(argv, root):
    ap = argparse.ArgumentParser(prog="paper-ablation", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", default=os.path.join(root, "build", "sc_main", "syncron-sim"))
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--work", default=root, help="the workflow's working directory (default: the repository)")
    ap.add_argument("--splice", metavar="FILE", help="replace the text between the paper-ablation markers of FILE")
    ap.add_argument("--dry-run", action="store_true", help="list what would run; run nothing")
    a = ap.parse_args(argv)
    if not os.access(a.sim, os.X_OK):
        ap.error(f"--sim {a.sim}: no simulator there (build it first)")
    if a.splice:  # its markers checked before anything runs
        with open(a.splice) as f:
            if splice.begin(SECTION) not in f.read():
                ap.error(f"--splice {a.splice}: no '{splice.begin(SECTION)}' marker")
    work = os.path.abspath(a.work)
    runs = []
    for label, preset in variants(root, a.sim):
        folder = folder_of(work, label)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "paper.json.part"), "w") as f:
            json.dump(preset, f, indent=2)
        os.replace(os.path.join(folder, "paper.json.part"), os.path.join(folder, "paper.json"))
        runs.append((label, folder))
    for _, folder in [(None, None)] + runs:
        run_figures(a.sim, work, a.cores, folder, a.dry_run)
    if a.dry_run:
        return 0
    paper = claim_values(root, work, None)
    got = [(label, claim_values(root, work, folder)) for label, folder in runs]
    claims = []
    for name, path in sorted(sweeps.definitions(os.path.join(root, "workflow", "figures")).items()):
        claims += [((name, c["paper"]), c["value"]) for c in sweeps.load(path).get("claims") or []
                   if c.get("value") is not None and "order" not in c]
    md = table(claims, paper, got)
    print(md)
    if a.splice:
        splice.splice(a.splice, {SECTION: md})
    return 0
