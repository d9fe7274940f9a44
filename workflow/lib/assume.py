"""Assumption sets (`--config assume=NAME`): the values a run takes where the
paper leaves one open (docs/sweeps.md, "Assumption sets").

as-written  the simulator's defaults and each figure's own configuration;
            outputs under results/
paper       platforms/presets/paper.json (docs/configuration.md, "The paper
            preset"); outputs under results/paper/
paper-fitted
            platforms/presets/paper-fitted.json: paper with the one value it
            fits to one claim, declared (docs/configuration.md, "The
            paper-fitted preset"); outputs under results/paper-fitted/

Under an assumption set other than as-written, a point that names no
configuration runs on the set's preset (`--config paper`); a point that
names one (a memory preset: hbm4, ddr4, ...) keeps it and gets the keys the
set's preset states itself, and those of the assumption presets it is built
on (paper-fitted: its own, then paper's), as `--set` overrides. Either way the point's own
keys win (a sweep of server.instructions_per_request still sweeps it).

Presets of your own: the simulator looks a preset name up in
$SYNCRON_PRESET_DIR before this tree's platforms/presets/, so a folder of
your own changes what `--config paper` (or `hbm4`) means without changing a
point's arguments. Runs made with one go under a folder named after its
contents, `presets-HASH`, inside the set's results: a changed or another
folder never finds this tree's results (or another folder's) as its own.
"""
import hashlib
import json
import os

DEFAULT = "as-written"
ASSUMPTIONS = (DEFAULT, "paper", "paper-fitted")


def check(name):
    if name not in ASSUMPTIONS:
        raise ValueError(f"--config assume={name}: unknown assumption set (known: {', '.join(ASSUMPTIONS)})")
    return name


def results_dir(name, presets=None):
    """Where a run under `name` writes: results/, or results/NAME/ beside it; with a preset folder of your own
    (own_presets), presets-HASH/ inside that."""
    base = "results" if name == DEFAULT else f"results/{name}"
    return f"{base}/presets-{presets_hash(presets)}" if presets else base


def preset_dir(root):
    return os.path.join(root, "platforms", "presets")


def own_presets(root, env=None):
    """$SYNCRON_PRESET_DIR when it names a folder other than this tree's presets (the simulator reads it first),
    else None. `env`: the environment as the user gave it (the workflow sets the variable itself otherwise)."""
    folder = (os.environ if env is None else env).get("SYNCRON_PRESET_DIR")
    if not folder:
        return None
    if not os.path.isdir(folder):
        raise ValueError(f"SYNCRON_PRESET_DIR={folder}: not a folder")
    return None if os.path.samefile(folder, preset_dir(root)) else folder


def presets_hash(folder):
    """Eight hex digits of the names and contents of the folder's presets (*.json)."""
    h = hashlib.sha1()
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".json")):
        with open(os.path.join(folder, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()[:8]


def preset_file(name, root, presets=None):
    """The file the simulator reads for `--config NAME`: NAME.json in the folder of your own when it has one,
    else this tree's."""
    if presets and os.path.isfile(os.path.join(presets, f"{name}.json")):
        return os.path.join(presets, f"{name}.json")
    return os.path.join(preset_dir(root), f"{name}.json")


FITTED = "fitted"  # the annotation naming the keys a set fits to a claim (docs/configuration.md)


def own_keys(path):
    """The configuration keys a preset file states itself (not its base's), as `section.key` names."""
    with open(path) as f:
        preset = json.load(f)
    return {f"{section}.{key}": value for section, keys in preset.items() if isinstance(keys, dict)
            and section != FITTED for key, value in keys.items()}


ASSUMPTIONS_KIND = "assumptions"  # a preset of assumptions, as against a platform (hmc4, hbm4, ddr4)


def chain(name, root, presets=None):
    """The preset files of the set `name` and of the assumption presets it is built on, the set's own first
    (paper-fitted: paper-fitted.json, paper.json); the platform preset at the bottom (hbm4) is not among them."""
    files, seen = [], set()
    while name and name not in seen:
        seen.add(name)
        path = preset_file(name, root, presets)
        with open(path) as f:
            preset = json.load(f)
        if files and preset.get("kind") != ASSUMPTIONS_KIND:  # the set's own file always counts
            break
        files.append(path)
        name = preset.get("base")
    return files


def set_keys(name, root, presets=None):
    """The keys the set states, its own over those of the assumption presets it is built on."""
    keys = {}
    for path in reversed(chain(name, root, presets)):
        keys.update(own_keys(path))
    return keys


def fitted(name, root, presets=None):
    """{section.key: "figure: claim"}: what the set's presets fit, each on one claim of the paper."""
    if name == DEFAULT:
        return {}
    out = {}
    for path in reversed(chain(name, root, presets)):
        with open(path) as f:
            out.update(json.load(f).get(FITTED, {}))
    return out


def apply(points, name, root, presets=None):
    """The points of a figure or sweep under the assumption set `name` (its preset read where the simulator
    reads it: `presets`, a folder of your own, first)."""
    if name == DEFAULT:
        return points
    keys = set_keys(name, root, presets)
    out = []
    for p in points:
        if "config" in p:
            out.append({**p, **{k: v for k, v in keys.items() if k not in p}})
        else:
            out.append({"config": name, **p})
    return out
