"""Sweep definitions (YAML data) expanded into simulation points.

A definition names its points as a union of grids; each grid is a
cartesian product of parameter lists, merged over the definition's `common`
lists. A mode (quick, full) may override `common` keys and replace `grids`.

    common:   {scheme: [central, syncron], timing: [lt]}
    grids:
      - {workload: [lock], interval: [50, 200]}
      - {workload: [barrier], interval: [20, 200]}
    modes:
      quick: {common: {ops: [20]}}

A parameter is a syncron-sim option (`scheme`, `workload`, `ops`, ...) or,
when its name contains a dot, a configuration key passed as `--set KEY=V`.
A point's identity is the hash of its arguments, so the same point asked
for by two figures is simulated once, and changing one parameter of a sweep
only adds the points whose arguments changed.

A list of names may come from the simulator instead of being copied into
the definition: `{from: KIND}` anywhere in it (a parameter's values, a
`where`) stands for the names `syncron-sim --list` prints (simulator_names): its
platform presets, its schemes, its workloads, one family of them
(`microbenchmarks`, `data structures`, `applications`) or the workloads
that read a graph (`graph applications`):

    common: {config: {from: presets}, workload: {from: microbenchmarks}}
"""
import concurrent.futures
import hashlib
import itertools
import json
import math
import os
import subprocess

import yaml

# syncron-sim's own options (docs/configuration.md); every other name needs a dot.
OPTIONS = ("config", "scheme", "workload", "graph", "series", "interval", "ops", "cores", "units",
           "timing", "seed")
DEFINITION_KEYS = ("title", "setting", "common", "grids", "modes", "plot", "table", "claims")
MODES = ("quick", "full", "paper")
# mode=paper: the full mode's points, with every graph application on R-MAT graphs the size of the
# paper's four inputs (§5): the smallest R-MAT scale whose vertices hold the graph's (soc-LiveJournal1's
# 4.85 M vertices take scale 22's 4.19 M, the size the model's own paper-size point uses), and the edge
# factor that gives the graph's edge count (SNAP's and SuiteSparse's published counts). A point that
# names a graph file keeps it (the real graph, when the user has it).
PAPER_GRAPHS = (
    # (name, R-MAT scale, edge factor, vertices, edges)
    ("wikipedia-20051105", 21, 9, 1_634_989, 19_753_078),
    ("soc-LiveJournal1", 22, 16, 4_847_571, 68_993_773),
    ("sx-stackoverflow", 22, 15, 2_601_977, 63_497_050),
    ("com-Orkut", 22, 28, 3_072_441, 117_185_083),
)
# The most points a definition may expand to in one mode (--config max_points=N changes it).
MAX_POINTS = 100_000
# The workloads that read a graph or a series file (syncron-sim's own list, docs/configuration.md).
GRAPH_READERS = ("bfs", "cc", "sssp", "pr", "tf", "tc")
SERIES_READERS = ("ts",)


class SweepError(ValueError):
    """A malformed sweep definition; the message names the file and the key."""


def names_from_list(listing):
    """{kind: [names]} as simulator_names() returns them, from the JSON that `syncron-sim --list` prints."""
    data = json.loads(listing)
    names = {"presets": list(data["presets"]), "schemes": list(data["schemes"]), "workloads": [],
             "graph applications": []}
    for w in data["workloads"]:
        names["workloads"].append(w["name"])
        if w.get("family"):
            names.setdefault(w["family"], []).append(w["name"])
        if "graph" in w.get("inputs", []):
            names["graph applications"].append(w["name"])
    return names


_NAMES = {}


def simulator_names(sim):
    """{kind: [names]} of the simulator `sim` (`--list`): presets (the platforms, not the sets of
    assumptions), schemes, workloads, each workload family, graph applications. Asked once per simulator."""
    if sim not in _NAMES:
        try:
            done = subprocess.run([sim, "--list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        except OSError as e:
            raise SweepError(f"cannot run the simulator '{sim}' for its names (--list): {e.strerror}") from None
        if done.returncode != 0:
            raise SweepError(f"'{sim} --list' failed (exit status {done.returncode}): {done.stderr.strip()}")
        try:
            names = names_from_list(done.stdout)
        except (ValueError, KeyError, TypeError) as e:
            raise SweepError(f"'{sim} --list' did not print the simulator's names as JSON ({e}): "
                             "is it syncron-sim?") from None
        empty = [k for k in ("presets", "schemes", "workloads", "graph applications") if not names.get(k)]
        if empty:
            raise SweepError(f"'{sim} --list' names no {', '.join(empty)}: is it syncron-sim?")
        _NAMES[sim] = names
    return _NAMES[sim]


def uses_names(spec):
    """Whether `spec` (or any part of it) has a `{from: KIND}` to be filled with the simulator's names."""
    if isinstance(spec, dict):
        return set(spec) <= {"from"} and "from" in spec or any(uses_names(v) for v in spec.values())
    if isinstance(spec, list):
        return any(uses_names(v) for v in spec)
    return False


def resolve_names(spec, names, where="definition"):
    """`spec` with every `{from: KIND}` replaced by the list `names[KIND]` (inside a list: spliced in, and
    the list's repeats dropped)."""
    if isinstance(spec, dict):
        if set(spec) == {"from"}:
            kind = spec["from"]
            if kind not in names:
                raise SweepError(f"{where}: {{from: {kind}}}: the simulator lists no '{kind}' (it lists: "
                                 f"{', '.join(sorted(names))})")
            return list(names[kind])
        return {k: resolve_names(v, names, where) for k, v in spec.items()}
    if isinstance(spec, list):
        spliced = [isinstance(v, dict) and set(v) == {"from"} for v in spec]
        out = []
        for v, splice in zip(spec, spliced):
            r = resolve_names(v, names, where)
            out += r if splice else [r]
        if any(spliced):  # names listed twice (a family and one of its names) appear once, first place
            out = [x for i, x in enumerate(out) if x not in out[:i]]
        return out
    return spec


def load(path, names=None):
    """The definition in `path` (YAML), checked. `names`: {kind: [names]} (simulator_names) or a function
    that returns them, asked only when the definition has a `{from: KIND}`."""
    try:
        with open(path) as f:
            spec = yaml.safe_load(f)
    except OSError as e:
        raise SweepError(f"{path}: cannot read: {e.strerror}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise SweepError(f"{path}{where}: not valid YAML: {getattr(e, 'problem', e)}") from None
    if uses_names(spec):
        if names is None:
            raise SweepError(f"{path}: takes names from the simulator ({{from: ...}}) but none was given")
        try:
            listed = names() if callable(names) else names
        except SweepError as e:
            raise SweepError(f"{path}: {e}") from None
        spec = resolve_names(spec, listed, path)
    check(spec, path)
    return spec


def check(spec, path):
    if not isinstance(spec, dict):
        raise SweepError(f"{path}: a sweep definition is a mapping (title, common, grids, ...)")
    for key in spec:
        if key not in DEFINITION_KEYS:
            raise SweepError(f"{path}: unknown key '{key}' (known: {', '.join(DEFINITION_KEYS)})")
    if not spec.get("grids") and not spec.get("common"):
        raise SweepError(f"{path}: no points: give 'grids' or 'common'")
    for mode, over in (spec.get("modes") or {}).items():
        if mode not in MODES or mode == "paper":
            raise SweepError(f"{path}: unknown mode '{mode}' (known: quick, full; mode=paper is the full "
                             "mode's with the paper's input sizes)")
        for key in over or {}:
            if key not in ("common", "grids"):
                raise SweepError(f"{path}: modes.{mode}: unknown key '{key}' (known: common, grids)")
    for where, grid in [("common", spec.get("common") or {})] + \
            [(f"grids[{i}]", g) for i, g in enumerate(spec.get("grids") or [])]:
        check_grid(grid, f"{path}: {where}")


def check_grid(grid, where):
    if not isinstance(grid, dict):
        raise SweepError(f"{where}: a grid maps parameter names to lists of values")
    for name, values in grid.items():
        if name not in OPTIONS and "." not in name:
            raise SweepError(f"{where}: unknown parameter '{name}' (a syncron-sim option: {', '.join(OPTIONS)}; "
                             "or a configuration key such as link.latency_ns)")
        if not isinstance(values, list) or not values:
            raise SweepError(f"{where}: '{name}' needs a non-empty list of values")
        for v in values:
            if isinstance(v, (dict, list)) or v is None:
                raise SweepError(f"{where}: '{name}' has a value that is not a scalar: {v!r}")


def resolve(spec, mode):
    """(common, grids) of `mode`."""
    if mode not in MODES:
        raise SweepError(f"unknown mode '{mode}' (known: {', '.join(MODES)})")
    over = (spec.get("modes") or {}).get(mode) or {}
    common = dict(spec.get("common") or {})
    common.update(over.get("common") or {})
    grids = over.get("grids", spec.get("grids")) or [{}]
    return common, grids


def count(spec, mode):
    """How many points `spec` has in `mode` before repeats are dropped: the product of each grid's axis
    sizes, summed over the grids. Computed without expanding anything."""
    if mode == "paper":  # at most one point per paper graph for each of the full mode's
        return count(spec, "full") * len(PAPER_GRAPHS)
    common, grids = resolve(spec, mode)
    return sum(math.prod(len(v) for v in dict(common, **grid).values()) for grid in grids)


# mode=paper runs pr for one iteration, as the pagerank the paper cites does (CRONO's
# apps/pagerank/pagerank_lock.cc and pagerank.cc: `iterations = 1` at every commit), where the full
# mode keeps the simulator's default of 10; one iteration gives ten's throughput within 0.1 % at a
# tenth of the cost (docs/performance.md, "One iteration of pr against ten"). A point that sets ops keeps it.
PAPER_PR_ITERATIONS = 1


def paper_workload(point):
    """A point as mode=paper runs it: pr for PAPER_PR_ITERATIONS unless the point sets ops."""
    if point.get("workload") == "pr" and "ops" not in point:
        return dict(point, ops=PAPER_PR_ITERATIONS)
    return point


def paper_inputs(point):
    """The points mode=paper makes of one full-mode point: one per graph of PAPER_GRAPHS for a graph
    application on a generated graph, else the point itself (each as paper_workload runs it)."""
    point = paper_workload(point)
    if point.get("workload") not in GRAPH_READERS or "graph" in point:
        return [point]
    return [dict(point, **{"workload.rmat_scale": scale, "workload.rmat_edge_factor": factor})
            for _, scale, factor, _, _ in PAPER_GRAPHS]


def points(spec, mode, limit=MAX_POINTS, where="definition"):
    """Every point of `spec` in `mode`, each a dict of parameters, in definition order, without repeats.
    More than `limit` points (counted before they are expanded) is an error naming `where`.
    mode=paper is the full mode's definition with the paper's input sizes (paper_inputs), unless the
    definition varies the graph's size itself."""
    if mode == "paper":
        full = points(spec, "full", None if limit is None else limit // len(PAPER_GRAPHS), where)
        sizes = {(p.get("workload.rmat_scale"), p.get("workload.rmat_edge_factor")) for p in full
                 if p.get("workload") in GRAPH_READERS and "graph" not in p}
        if len(sizes) > 1:  # a definition that sweeps the graph's size itself keeps its own sizes
            return [paper_workload(p) for p in full]
        seen, out = set(), []
        for p in (q for f in full for q in paper_inputs(f)):
            if point_id(p) not in seen:
                seen.add(point_id(p))
                out.append(p)
        return out
    n = count(spec, mode)
    if limit is not None and n > limit:
        raise SweepError(f"{where}: {n:,} points in mode {mode} (the product of the axis sizes), more than the "
                         f"limit of {limit:,}; split the sweep, or raise the limit with --config max_points=N")
    common, grids = resolve(spec, mode)
    seen, out = set(), []
    for grid in grids:
        merged = dict(common)
        merged.update(grid)
        names = list(merged)
        for combo in itertools.product(*(merged[n] for n in names)):
            p = dict(zip(names, combo))
            key = point_id(p)
            if key not in seen:
                seen.add(key)
                out.append(p)
    return out


def text(value):
    """A parameter value as syncron-sim reads it (YAML true -> 'true')."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def arguments(point):
    """syncron-sim arguments of one point (options first, then --set in name order)."""
    args = []
    for name in OPTIONS:
        if name in point:
            args += [f"--{name}", text(point[name])]
    for name in sorted(n for n in point if n not in OPTIONS):
        args += ["--set", f"{name}={text(point[name])}"]
    return args


def point_id(point):
    """A stable file name for the point: readable prefix and a hash of its arguments."""
    digest = hashlib.sha1(json.dumps(arguments(point)).encode()).hexdigest()[:12]
    prefix = "-".join(text(point[k]) for k in ("workload", "scheme") if k in point) or "point"
    return f"{prefix}-{digest}"


def describe(point):
    """A point as its parameters, for a message: `workload=lock scheme=syncron se.st_entries=8`."""
    return " ".join(f"{k}={text(v)}" for k, v in point.items())


def check_arguments(sim, arg_lists, jobs=None):
    """For each list of a run's arguments, None when `syncron-sim` accepts it (as `--dump-config` would), else
    its message. One `syncron-sim --check-args` per job checks its share of the lists (a process per run would
    cost more than the check); `jobs` at a time, at most one per core of this machine (a cluster's are not here).
    A graph or series file the run's workload reads must exist: the simulator checks it only when it runs."""
    arg_lists = [list(a) for a in arg_lists]
    if not arg_lists:
        return []
    cores = os.cpu_count() or 1
    jobs = max(1, min(jobs or cores, cores, len(arg_lists)))
    shares = [arg_lists[i::jobs] for i in range(jobs)]

    def run(share):
        lines = "".join(json.dumps(a) + "\n" for a in share)
        try:
            done = subprocess.run([sim, "--check-args"], input=lines, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        except OSError as e:
            return [f"cannot run the simulator '{sim}': {e.strerror}"] * len(share)
        answers = done.stdout.splitlines()
        if done.returncode != 0 or len(answers) != len(share):
            why = done.stderr.strip() or f"exit status {done.returncode}, {len(answers)} of {len(share)} answers"
            return [f"syncron-sim --check-args failed: {why}"] * len(share)
        return [answer_message(json.loads(a)) for a in answers]

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        found = list(pool.map(run, shares))
    out = [None] * len(arg_lists)
    for i, share in enumerate(found):
        out[i::jobs] = share
    return out


def answer_message(answer):
    """The message of one `--check-args` answer: its error, or a missing input file; None when it runs."""
    if "error" in answer:
        return answer["error"]
    workload = answer.get("config", {}).get("workload") or {}
    for kind, readers in (("graph", GRAPH_READERS), ("series", SERIES_READERS)):
        path = workload.get(kind) or ""
        if path and workload.get("name") in readers and not (os.path.isfile(path) and os.access(path, os.R_OK)):
            return f"{kind} file '{path}' cannot be opened (missing or unreadable)"
    return None


def check_points(sim, pts, jobs=None):
    """[(point, message)] of the points `syncron-sim` refuses, in order (check_arguments)."""
    found = check_arguments(sim, [arguments(p) for p in pts], jobs)
    return [(p, m) for p, m in zip(pts, found) if m]


def refusal(where, refused, total, shown=5):
    """The error of a definition with refused points: the first few, each with the simulator's message."""
    lines = [f"{where}: {len(refused)} of {total} points refused by syncron-sim, before any was run:"]
    lines += [f"  {describe(p)}: {m}" for p, m in refused[:shown]]
    if len(refused) > shown:
        lines.append(f"  ... and {len(refused) - shown} more")
    return "\n".join(lines)


def definitions(directory):
    """{name: path} of the *.yaml definitions in `directory`."""
    return {os.path.splitext(f)[0]: os.path.join(directory, f)
            for f in sorted(os.listdir(directory)) if f.endswith((".yaml", ".yml"))}
