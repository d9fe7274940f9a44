"""The paper preset one value at a time (docs/results.md, "The paper preset one value at a time, and the one
fit"): every figure in full mode under `paper` with one of its values back at its base's, and under
`paper-fitted`, and the claims under each; or (--fit) one value fitted to one claim.

    scripts/paper-ablation [--sim PATH] [--cores N] [--work DIR] [--splice docs/results.md] [--dry-run]
    scripts/paper-ablation --fit KEY --on FIGURE:CLAIM --values V1,V2,... [--sim PATH] [--cores N] [--work DIR]

A variant is a preset folder of its own under results/ablation/ holding a `paper.json` without that value
(the memory: `hmc4` as its base instead of `hbm4`), run through the workflow with SYNCRON_PRESET_DIR (its
results go under results/paper/presets-HASH/ of the working directory, docs/sweeps.md); the preset itself is
the tree's results/paper/. A value the base already has is no variant (it changes nothing). Points already run are
not run again."""
import argparse
import json
import math
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
FITTED_SET = "paper-fitted"  # paper with the values it fits to one claim each, declared (docs/configuration.md)


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


def fitted_variant(root):
    """(label, the paper.json of the variant, what it fits) for the paper-fitted set, a set built on `paper` with
    values fitted to a claim and declared so: the paper set with those values. None when there is no such set."""
    path = assume.preset_file(FITTED_SET, root)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        fitted = json.load(f)
    with open(assume.preset_file("paper", root)) as f:
        preset = json.load(f)
    for key, value in assume.own_keys(path).items():
        preset = with_value(preset, key, value)
    return FITTED_SET, preset, fitted.get(assume.FITTED, {})


def folder_of(work, label):
    """The variant's preset folder, under results/ (which the repository does not track)."""
    return os.path.join(work, "results", "ablation", "".join(c if c.isalnum() or c in "._" else "-" for c in label))


def with_value(paper, key, value):
    """The preset with `section.key` set to `value`."""
    section, name = key.split(".")
    return dict(paper, **{section: dict(paper.get(section, {}), **{name: value})})


def fit(root, work, sim, cores, key, on, values, dry):
    """The value of `key` among `values` that brings the claim `on` ("FIGURE:start of its text") closest to the
    paper's number (the smallest |log(model / paper)|), every other value of the preset as it is; prints each
    value's claim. Returns (value, [(value, claim's number)])."""
    figure, _, text = on.partition(":")  # "fig10:At 200" or, as a preset's `fitted` names it, "fig10: At 200"
    text = text.strip()
    path = sweeps.definitions(os.path.join(root, "workflow", "figures")).get(figure)
    if path is None:
        raise ValueError(f"--on {on}: no figure {figure}")
    claim = [c for c in sweeps.load(path).get("claims") or [] if c["paper"].startswith(text) and "value" in c]
    if len(claim) != 1:
        raise ValueError(f"--on {on}: {len(claim)} claims of {figure} with a number start so (need one)")
    claim = claim[0]
    with open(assume.preset_file("paper", root)) as f:
        paper = json.load(f)
    found = []
    for value in values:
        folder = write_variant(work, f"{key}={value}", with_value(paper, key, value))
        run_figures(sim, work, cores, folder, dry, [figure])
        if not dry:
            found.append((value, claim_values(root, work, folder, [figure])[(figure, claim["paper"])][0]))
    if dry:
        return None, []
    best = min(found, key=lambda vc: abs(math.log(vc[1] / claim["value"])))[0]
    return best, found


def write_variant(work, label, preset):
    """The variant's preset folder, written (whole or not at all)."""
    folder = folder_of(work, label)
    os.makedirs(folder, exist_ok=True)
    part = os.path.join(folder, "paper.json.part")
    with open(part, "w") as f:
        json.dump(preset, f, indent=2)
    os.replace(part, os.path.join(folder, "paper.json"))
    return folder


def run_figures(sim, work, cores, presets, dry, targets=("figures",)):
    env = dict(os.environ)
    env.pop("SYNCRON_PRESET_DIR", None)
    if presets:
        env["SYNCRON_PRESET_DIR"] = presets
    cmd = ["snakemake", "-s", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Snakefile"),
           "--directory", work, "--cores", str(cores), *targets, "--config", "mode=full", "assume=paper",
           f"sim={sim}", "build=false"] + (["-n"] if dry else [])
    print("$ " + ("SYNCRON_PRESET_DIR=" + presets + " " if presets else "") + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, env=env, check=True)


def claim_values(root, work, presets, only=None):
    """{(figure, claim text): (value, within)} of the claims with a number, for one run under `paper`."""
    out = {}
    results = os.path.join(work, assume.results_dir("paper", presets))
    for name, path in sorted(sweeps.definitions(os.path.join(root, "workflow", "figures")).items()):
        if only and name not in only:
            continue
        spec = sweeps.load(path)
        points = assume.apply(sweeps.points(spec, "full", None, path), "paper", root, presets)
        rows = tidy.read_csv(os.path.join(results, name, f"{name}.csv"))
        for c in spec.get("claims") or []:
            if c.get("value") is None or "order" in c:
                continue
            v, _ = figlib.claim_value(rows, points, c)
            out[(name, c["paper"])] = (v, figlib.claim_verdict(c, v)[1])
    return out


def table(claims, paper, runs, fitted=None):
    """The Markdown: one row per claim with a number, a column per variant; a count of the claims within.
    `fitted`: {label: {section.key: "figure: claim"}}, the claims a column's values were fitted on: shown as
    fitted, not counted."""
    head = ["figure", "the paper", "paper", "under `paper`"] + [f"`{label}`" for label, _ in runs]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]

    def cell(v, ok):
        return f"{figlib.fmt(v)}" + (" ✓" if ok else "")

    def fit_on(label, fig, text):
        return figlib.fitted_on((fitted or {}).get(label, {}), fig, {"paper": text})

    for (fig, text), value in claims:
        row = [fig, text, figlib.fmt(float(value)), cell(*paper[(fig, text)])]
        for label, got in runs:
            v, ok = got[(fig, text)]
            if fit_on(label, fig, text):
                row.append(f"{figlib.fmt(v)} (fitted)")
                continue
            changed = ok != paper[(fig, text)][1]
            row.append(f"**{cell(v, ok)}**" if changed else cell(v, ok))
        lines.append("| " + " | ".join(row) + " |")
    counts = []
    for label, got in [(None, paper)] + runs:
        mine = [ok for (fig, text), (_, ok) in got.items() if not fit_on(label, fig, text)]
        counts.append(f"**{sum(mine)} of {len(mine)}**")
    lines.append("| | within ±15 % | | " + " | ".join(counts) + " |")
    return "\n".join(lines)


def main(argv, root):
    ap = argparse.ArgumentParser(prog="paper-ablation", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", default=os.path.join(root, "build", "sc_main", "syncron-sim"))
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--work", default=root, help="the workflow's working directory (default: the repository)")
    ap.add_argument("--splice", metavar="FILE", help="replace the text between the paper-ablation markers of FILE")
    ap.add_argument("--dry-run", action="store_true", help="list what would run; run nothing")
    ap.add_argument("--fit", metavar="KEY", help="instead: the value of KEY (section.key) among --values that brings "
                    "the claim --on closest to the paper's number, the rest of the preset as it is")
    ap.add_argument("--on", metavar="FIGURE:CLAIM", help="the claim to fit on: its figure and the start of its text")
    ap.add_argument("--values", metavar="V1,V2,...", help="the values to try (JSON: numbers, true, \"text\")")
    a = ap.parse_args(argv)
    if a.fit and not (a.on and a.values):
        ap.error("--fit needs --on and --values")
    if not os.access(a.sim, os.X_OK):
        ap.error(f"--sim {a.sim}: no simulator there (build it first)")
    if a.splice:  # its markers checked before anything runs
        with open(a.splice) as f:
            if splice.begin(SECTION) not in f.read():
                ap.error(f"--splice {a.splice}: no '{splice.begin(SECTION)}' marker")
    work = os.path.abspath(a.work)
    if a.fit:
        values = [json.loads(v) for v in a.values.split(",")]
        best, found = fit(root, work, a.sim, a.cores, a.fit, a.on, values, a.dry_run)
        for value, got in found:
            print(f"{a.fit}={json.dumps(value)}: {figlib.fmt(got)}")
        if best is not None:
            print(f"closest: {a.fit}={json.dumps(best)}")
        return 0
    runs = [(label, write_variant(work, label, preset)) for label, preset in variants(root, a.sim)]
    fits = {}
    fitted = fitted_variant(root)
    if fitted:
        label, preset, fits[label] = fitted
        runs.append((label, write_variant(work, label, preset)))
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
    md = table(claims, paper, got, fits)
    print(md)
    if a.splice:
        splice.splice(a.splice, {SECTION: md})
    return 0
