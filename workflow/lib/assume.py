"""Assumption sets (`--config assume=NAME`): the values a run takes where the
paper leaves one open (docs/sweeps.md, "Assumption sets").

as-written  the simulator's defaults and each figure's own configuration;
            outputs under results/
paper       platforms/presets/paper.json (docs/configuration.md, "The paper
            preset"); outputs under results/paper/

Under an assumption set other than as-written, a point that names no
configuration runs on the set's preset (`--config paper`); a point that
names one (a memory preset: hbm4, ddr4, ...) keeps it and gets the keys the
set's preset states itself as `--set` overrides. Either way the point's own
keys win (a sweep of server.instructions_per_request still sweeps it).
"""
import json
import os

DEFAULT = "as-written"
ASSUMPTIONS = (DEFAULT, "paper")


def check(name):
    if name not in ASSUMPTIONS:
        raise ValueError(f"--config assume={name}: unknown assumption set (known: {', '.join(ASSUMPTIONS)})")
    return name


def results_dir(name):
    """Where a run under `name` writes: results/, or results/NAME/ beside it."""
    return "results" if name == DEFAULT else f"results/{name}"


def preset_dir(root):
    return os.path.join(root, "platforms", "presets")


def own_keys(path):
    """The configuration keys a preset file states itself (not its base's), as `section.key` names."""
    with open(path) as f:
        preset = json.load(f)
    return {f"{section}.{key}": value for section, keys in preset.items() if isinstance(keys, dict)
            for key, value in keys.items()}


def apply(points, name, root):
    """The points of a figure or sweep under the assumption set `name`."""
    if name == DEFAULT:
        return points
    keys = own_keys(os.path.join(preset_dir(root), f"{name}.json"))
    out = []
    for p in points:
        if "config" in p:
            out.append({**p, **{k: v for k, v in keys.items() if k not in p}})
        else:
            out.append({"config": name, **p})
    return out
