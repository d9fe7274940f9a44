"""One statistics JSON per point -> one tidy CSV (a row per point).

Every statistic is flattened to a column named by its path
(`energy.total`, `per_operation.sync_requests`). A list of records (one per
SE, link, vault) gives one column per element and field (`se.0.st_entries`)
when it is short, and always its mean, max and sum per field
(`se.mean.st_occupancy_avg_pct`, `se.max.st_occupancy_max_pct`); a list of
numbers gives its mean, max, min and sum. The swept parameters come first,
under their sweep names, and win over a statistic of the same name.
"""
import csv
import json
import numbers

SHORT_LIST = 16  # lists up to this length also get a column per element


def is_number(v):
    return isinstance(v, numbers.Number) and not isinstance(v, bool)


def flatten(stats):
    """{column: scalar} of a statistics JSON object."""
    out = {}
    for k, v in stats.items():
        _flatten_item(v, k, out)
    return out


def _flatten_item(v, name, out):
    if isinstance(v, dict):
        for k, x in v.items():
            _flatten_item(x, f"{name}.{k}", out)
    elif isinstance(v, list):
        _flatten_list(v, name, out)
    else:
        out[name] = v


def _flatten_list(items, name, out):
    if all(is_number(x) for x in items):
        if items:
            out[f"{name}.mean"] = sum(items) / len(items)
            out[f"{name}.max"] = max(items)
            out[f"{name}.min"] = min(items)
            out[f"{name}.sum"] = sum(items)
        out[f"{name}.count"] = len(items)
        return
    records = [flatten(x) if isinstance(x, dict) else {} for x in items]
    if len(items) <= SHORT_LIST:
        for i, x in enumerate(items):
            _flatten_item(x, f"{name}.{i}", out)
    fields = []
    for r in records:
        fields += [f for f, v in r.items() if is_number(v) and f not in fields]
    for f in fields:
        values = [r[f] for r in records if is_number(r.get(f))]
        out[f"{name}.mean.{f}"] = sum(values) / len(values)
        out[f"{name}.max.{f}"] = max(values)
        out[f"{name}.sum.{f}"] = sum(values)
    out[f"{name}.count"] = len(items)


def row(point, stats):
    """The CSV row of one point: its parameters, then every statistic."""
    r = dict(point)
    for k, v in flatten(stats).items():
        r.setdefault(k, v)
    return r


def read_stats(path):
    with open(path) as f:
        return json.load(f)


def write_csv(rows, path, first=()):
    """`rows` (dicts) as CSV; columns: `first`, then every other column in order of appearance."""
    columns = list(first)
    for r in rows:
        columns += [c for c in r if c not in columns]
    seen = set(columns)
    assert len(seen) == len(columns)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, restval="")
        w.writeheader()
        for r in rows:
            w.writerow({k: ("true" if v is True else "false" if v is False else v) for k, v in r.items()})


def read_csv(path):
    """Rows of a tidy CSV, numbers as floats (integers kept as int)."""
    with open(path, newline="") as f:
        return [{k: number(v) for k, v in r.items()} for r in csv.DictReader(f)]


def number(text):
    if text is None or text == "":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text
