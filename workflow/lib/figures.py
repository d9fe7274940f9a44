"""A figure from its tidy CSV: the plot (PNG), the Markdown table, and the
paper-versus-model table of the definition's claims.

The `plot` section of a sweep definition:

    plot:
      kind: lines | bars | stacked   # lines over a numeric x; grouped bars; stacked components
      x: interval                    # a parameter (the x axis, or the bar groups)
      y: throughput_ops_per_us       # a column of the CSV
      series: scheme                 # one line / bar colour per value
      panels: workload               # optional: one subplot per value ([a, b]: per combination)
      normalise: {scheme: central}   # divide by the row with these parameters (the others equal)
      invert: false                  # reference / value instead (a time -> a speedup)
      stack: [energy.cores, ...]     # kind stacked: the components, normalised by y of the reference
      logx: true                     # logy too
      where: {timing: lt}            # optional: plot and tabulate only these rows
      ylabel: "speedup over Central"   # xlabel too; without, the column's name in words
      subplots:                      # instead of panels: one subplot per filter, each may override x, ...
        - {title: "(a)", where: {units: 1}, x: cores}

`claims` put the paper's statements beside the model's numbers:

    claims:
      - paper: "SynCron 3.05x over Central at 200 instructions, averaged over the primitives"
        value: 3.05
        y: throughput_ops_per_us
        where: {interval: 200}
        ratio: [{scheme: syncron}, {scheme: central}]   # optional: a ratio of two rows per group
        over: mean                                       # mean | geomean | min | max over the groups
        scale: 1                                         # multiply the model's number (100: a percentage)
        excess: false     # a margin such as 1.06x: compare 6% with the model's margin, not 1.06 with ~1
        abs: 0.05         # instead of +-15%: agree within this absolute difference (numbers near 0)
      - paper: "Central < Hier < SynCron <= Ideal"
        order: {scheme: [central, hier, syncron, ideal]}  # the y of each group ascends in this order
        y: throughput_ops_per_us

`table` replaces the table of the plot's data under the plot; a list of them keeps it and adds each:

    table:
      - title: "A sentence before the table."
        rows: [workload]               # a row per value (or combination) of these parameters
        where: {scheme: syncron}       # optional: only these rows of the CSV
        labels: {overflow_fraction: "overflow %"}   # headings of plain columns
        scale: {overflow_fraction: 100}             # factors of plain columns
        columns:
          - overflow_fraction          # a CSV column, of the group's first row
          - {y: energy.total, scale: 1.0e-6, label: "energy (uJ)"}
          - {y: energy.total, per: operations}     # divided by another column of the same row
          - {y: simulated_ns, where: {scheme: hier}, over: {scheme: syncron}, invert: false}
            # the group's row with scheme hier, over the row of the same point with scheme syncron (x)
          - {y: [data_movement.within_units.sync, data_movement.across_links.sync]}   # a sum
        summary:                       # one row each: every column aggregated over the rows selected
          - {label: "geomean, graph kernels", over: geomean, where: {workload: [bfs, cc]}}
"""
import math

AGGREGATES = ("mean", "geomean", "min", "max")
TOLERANCE = 0.15  # a departure beyond +-15% of the paper's number is flagged


class FigureError(ValueError):
    """A definition that does not fit its data; the message names the key."""


def params_of(points):
    names = []
    for p in points:
        names += [k for k in p if k not in names]
    return names


def canon(v):
    """A value as the CSV spells it (YAML true and the CSV's 'true' match; 40 and 40.0 too)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def matches(row, where):
    """Whether `row` has every parameter of `where` (a value, or a list of allowed values)."""
    def one(k, v):
        allowed = v if isinstance(v, list) else [v]
        return canon(row.get(k)) in [canon(a) for a in allowed]
    return all(one(k, v) for k, v in (where or {}).items())


def group_key(row, params, skip):
    return tuple((p, canon(row.get(p))) for p in params if p not in skip)


def normalised(rows, params, spec):
    """[(row, value)] with the plot's y, normalised and inverted as the spec asks."""
    y = spec["y"]
    ref = spec.get("normalise")
    out = []
    refs = {}
    if ref:
        for r in rows:
            if matches(r, ref):
                refs[group_key(r, params, ref)] = r
    for r in rows:
        v = r.get(y)
        if v is None or isinstance(v, str):
            raise FigureError(f"plot.y: column '{y}' is missing or not a number in a row")
        if ref:
            base = refs.get(group_key(r, params, ref))
            if base is None or not base.get(y):
                raise FigureError(f"plot.normalise: no reference row {ref} for {group_key(r, params, ref)}")
            v = base[y] / v if spec.get("invert") else v / base[y]
        out.append((r, v))
    return out


def ordered(values):
    """Distinct values in first-seen order, numbers sorted."""
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    if all(isinstance(v, (int, float)) for v in seen):
        seen.sort()
    return seen


def panel_keys(spec):
    """The parameters that split the plot into panels: `panels` is one name or a list of names."""
    panels = spec.get("panels")
    if not panels:
        return []
    return list(panels) if isinstance(panels, (list, tuple)) else [panels]


# The parameters mode=paper varies for a graph application (sweeps.PAPER_GRAPHS): the graph's size.
INPUT_SIZE_KEYS = ("workload.rmat_scale", "workload.rmat_edge_factor")


def with_input_panels(spec, points):
    """`spec` with a panel (or a subplot of each subplot) per graph size when the points run on several
    (mode=paper) and the plot does not already place them; else `spec` itself."""
    varying = [k for k in INPUT_SIZE_KEYS if len({canon(p.get(k)) for p in points if k in p}) > 1]
    placed = set(panel_keys(spec)) | {spec.get("x"), spec.get("series")}
    extra = [k for k in varying if k not in placed]
    if not extra:
        return spec
    if not spec.get("subplots"):
        return dict(spec, panels=panel_keys(spec) + extra)
    combos = ordered(tuple(p.get(k) for k in extra) for p in points if all(k in p for k in extra))
    subplots = []
    for sub in spec["subplots"]:
        mine = [p for p in points if matches(p, sub.get("where"))]
        if len({tuple(p.get(k) for k in extra) for p in mine}) <= 1:  # one size (or none) here: as it is
            subplots.append(sub)
            continue
        for c in combos:
            title = ", ".join(t for t in (sub.get("title", ""), panel_title(extra, c)) if t)
            subplots.append(dict(sub, where=dict(sub.get("where") or {}, **dict(zip(extra, c))), title=title))
    return dict(spec, subplots=subplots)


def panel_title(keys, values):
    """A panel's title names its parameters: `workload = lock`, `se.st_entries = 32, seed = 1`."""
    return ", ".join(f"{k} = {canon(v)}" for k, v in zip(keys, values))


def panels_of(rows, spec):
    """[(title, rows, spec)] of the subplots: `subplots` (each a filter `where` and overrides), or one per
    value (or combination of values) of `panels`, or one."""
    if spec.get("subplots"):
        out = []
        for sub in spec["subplots"]:
            s = dict(spec)
            s.pop("subplots")
            s.update({k: v for k, v in sub.items() if k not in ("where", "title")})
            out.append((sub.get("title", ""), [r for r in rows if matches(r, sub.get("where"))], s))
        return out
    keys = panel_keys(spec)
    if not keys:
        return [(None, rows, spec)]
    combos = ordered(tuple(r.get(k) for k in keys) for r in rows)
    if len(keys) == 1:  # numbers sorted
        combos = [(v,) for v in ordered(r.get(keys[0]) for r in rows)]
    return [(panel_title(keys, c), [r for r in rows if tuple(r.get(k) for k in keys) == c], spec) for c in combos]


# Axis labels of the statistics a sweep plots most, for a plot that names none (`ylabel`, `xlabel`).
LABELS = {
    "throughput_ops_per_us": "throughput (operations per µs)",
    "simulated_ns": "simulated time (ns)",
    "energy.total": "energy (total)",
    "data_movement.total": "bytes moved (total)",
    "link.latency_ns": "link transfer latency (ns)",
}


def axis_label(spec, axis):
    """The label of `axis` (x or y): the spec's own, else the statistic's name in words; a normalised y
    says what it is relative to."""
    if spec.get(axis + "label"):
        return spec[axis + "label"]
    column = spec.get(axis, "")
    label = LABELS.get(column, column)
    ref = spec.get("normalise")
    if axis == "y" and ref:  # a ratio: no unit
        label = label.split(" (")[0]
        against = ", ".join(f"{k} = {canon(v)}" for k, v in ref.items())
        label = f"{label} of {against} over each's" if spec.get("invert") else f"{label} over {against}'s"
    return label


TITLE_SIZE = 12
PANEL_TITLE_SIZE = 10
TICK_SIZE = 9


def wrap_to_width(fig, text, fontsize, width, make):
    """`make(wrapped)` with the text wrapped at spaces until it is at most `width` pixels wide on the
    figure's renderer (deterministic: the same text and size always wrap alike)."""
    import textwrap
    renderer = fig.canvas.get_renderer()
    chars = len(text)
    while True:
        wrapped = "\n".join(textwrap.wrap(text, max(chars, 12), break_long_words=False)) or text
        artist = make(wrapped)
        if artist.get_window_extent(renderer).width <= width or chars <= 12:
            return artist
        chars = int(chars * 0.9)


def legend_handles(axes):
    """The distinct (handle, label) pairs over every panel, in first-seen order."""
    seen = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    return list(seen.values()), list(seen)


def render(rows, points, spec, title):
    """The figure (a matplotlib Figure) of `rows` as `spec` asks; `plot` saves it.

    Every panel's axes are labelled; one legend serves every panel, in a free cell of the grid or to the
    right of the first row, never over the data; the title is wrapped to the figure's width."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    params = params_of(points)
    subs = panels_of([r for r in rows if matches(r, spec.get("where"))], spec)
    n = len(subs)
    cols = min(n, 4)
    nrows = (n + cols - 1) // cols
    width = max(4.6 * cols, 7.5)
    fig, axes = plt.subplots(nrows, cols, figsize=(width, 3.6 * nrows), squeeze=False)
    drawn = []
    series = [s.get("series") for _, _, s in subs]
    colours = {v: f"C{k}" for k, v in enumerate(ordered(r.get(series[i]) for i, (_, mine, _) in enumerate(subs)
                                                        if series[i] for r in mine))}
    for i, (name, mine, s) in enumerate(subs):
        ax = axes[i // cols][i % cols]
        draw(ax, mine, rows, params, s, colours)
        if name:
            wrap_to_width(fig, name, PANEL_TITLE_SIZE, ax.get_window_extent().width * 1.1,
                          lambda t, ax=ax: ax.set_title(t, fontsize=PANEL_TITLE_SIZE))
        ax.set_xlabel(axis_label(s, "x"))
        ax.set_ylabel(axis_label(s, "y"))
        ax.grid(True, axis="y", alpha=0.3)
        if s.get("logy"):  # numbers written out (6, 10, 100), not 6×10⁰
            from matplotlib.ticker import LogFormatter
            ax.set_yscale("log")
            ax.yaxis.set_major_formatter(LogFormatter())
            ax.yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False, minor_thresholds=(2, 0.5)))
            heights = [p.get_height() for p in ax.patches if p.get_height() > 0]
            if heights and s.get("kind") == "bars":  # the shortest bar still shows (a log axis has no 0)
                ax.set_ylim(bottom=min(heights) / 1.6)
        ax.tick_params(which="both", labelsize=TICK_SIZE)
        drawn.append(ax)
    spare = [axes[j // cols][j % cols] for j in range(n, nrows * cols)]
    for ax in spare:
        ax.axis("off")
    handles, labels = legend_handles(drawn)
    if len(labels) > 1 or (labels and spec.get("kind") == "stacked"):
        legend_title = None if spec.get("kind") == "stacked" else spec.get("series")
        if spare:  # the first free cell of the grid
            spare[0].legend(handles, labels, loc="center", fontsize=9, title=legend_title, title_fontsize=9)
        else:  # right of the first row's last panel (the layout makes room for it)
            axes[0][cols - 1].legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9,
                                     title=legend_title, title_fontsize=9, borderaxespad=0)
    fig_px = fig.get_figwidth() * fig.dpi
    wrap_to_width(fig, title, TITLE_SIZE, 0.96 * fig_px, lambda t: fig.suptitle(t, fontsize=TITLE_SIZE))
    fig.tight_layout()
    return fig


def plot(rows, points, spec, title, path):
    """Draws the figure into `path` (PNG)."""
    import matplotlib.pyplot as plt
    fig = render(rows, points, spec, title)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def collisions(rows, spec, keys):
    """The parameters in which rows drawn at one place (same `keys` values) differ: a plot that would
    merge them must split them (panels, series) or choose among them (where)."""
    groups = {}
    for r in rows:
        groups.setdefault(tuple(canon(r.get(k)) for k in keys), []).append(r)
    differ = []
    for group in groups.values():
        if len(group) > 1:
            for k in group[0]:
                if k not in differ and len({canon(g.get(k)) for g in group}) > 1:
                    differ.append(k)
    return differ


def draw(ax, rows, all_rows, params, spec, colours=None):
    """One subplot of `rows`; normalisation looks up its reference rows among `all_rows`; `colours` maps
    a series' value to its colour (the same in every panel)."""
    colours = colours or {}
    kind = spec.get("kind", "lines")
    x, series = spec["x"], spec.get("series")
    if kind == "stacked":
        stacked(ax, rows, all_rows, params, spec)
        return
    if kind not in ("lines", "bars"):
        raise FigureError(f"plot.kind: unknown '{kind}' (known: lines, bars, stacked)")
    merged = [p for p in collisions(rows, spec, [x] + ([series] if series else [])) if p in params]
    if merged:
        raise FigureError(f"plot: rows that differ in {', '.join(merged)} would be drawn at one point; "
                          "split them with panels or series, or choose with where")
    mine = {id(r) for r in rows}
    values = [(r, v) for r, v in normalised(all_rows, params, spec) if id(r) in mine]
    ss = ordered(r.get(series) for r in rows) if series else [None]
    if kind == "lines":
        for s in ss:
            pts = sorted((r[x], v) for r, v in values if series is None or r.get(series) == s)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=str(s), color=colours.get(s))
        xs = ordered(r[x] for r in rows)
        if spec.get("logx"):
            ax.set_xscale("log")
        if len(xs) <= (10 if spec.get("logx") else 8) and ticks_fit(ax, xs, bool(spec.get("logx"))):
            # a tick at each value the sweep ran, written out (not 2×10¹)
            from matplotlib.ticker import NullFormatter, NullLocator
            ax.xaxis.set_minor_locator(NullLocator())
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.set_xticks(xs)
            ax.set_xticklabels([canon(v) for v in xs])
        return
    groups = ordered(r.get(x) for r in rows)
    width = 0.8 / len(ss)
    for j, s in enumerate(ss):
        hs = []
        for g in groups:
            v = [v for r, v in values if r.get(x) == g and (series is None or r.get(series) == s)]
            hs.append(v[0] if v else 0.0)
        ax.bar([k + j * width for k in range(len(groups))], hs, width, label=str(s), color=colours.get(s))
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(groups))])
    tick_labels(ax, [str(g) for g in groups])


def ticks_fit(ax, xs, log):
    """Whether a level label at each of the numbers `xs` fits between its neighbours on `ax`'s x axis."""
    if len(xs) < 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xs):
        return False
    if log and min(xs) <= 0:
        return False
    at = [math.log(v) for v in xs] if log else list(xs)
    span = (at[-1] - at[0]) or 1.0
    inches = ax.get_window_extent().width / ax.figure.dpi * 0.8  # the data span, after the layout's margins
    width = [len(canon(v)) * TICK_SIZE * 0.62 / 72 for v in xs]  # a label's width in inches
    return all((b - a) / span * inches >= (wa + wb) / 2 * 1.3
               for a, b, wa, wb in zip(at, at[1:], width, width[1:]))


def tick_labels(ax, labels):
    """Category labels under the bars: level when they fit side by side, else slanted."""
    # inches per label: the panel's share of the figure's width less its axis labels (alike in every panel)
    slots = ax.figure.get_figwidth() / ax.get_subplotspec().get_gridspec().ncols * 0.75 / max(1, len(labels))
    longest = max((max(len(line) for line in t.split("\n")) for t in labels), default=0)
    if longest * TICK_SIZE * 0.62 / 72 <= slots * 0.9:
        ax.set_xticklabels(labels, fontsize=TICK_SIZE)
    else:
        ax.set_xticklabels(labels, rotation=30, ha="right", rotation_mode="anchor", fontsize=TICK_SIZE)


def part_label(part, y):
    """A component's name without the prefix it shares with the total (energy.cores -> cores)."""
    prefix = y.rsplit(".", 1)[0] + "."
    return part[len(prefix):] if "." in y and part.startswith(prefix) else part


def reference_totals(rows, all_rows, params, spec):
    """For each of `rows`, the y of its reference row (`normalise`), or 1 without one: what a stacked bar's
    parts are divided by. None where the reference is missing or zero."""
    ref = spec.get("normalise") or {}
    if not ref:
        return [1.0] * len(rows)
    refs = {group_key(r, params, ref): r for r in all_rows if matches(r, ref)}
    totals = []
    for r in rows:
        base = refs.get(group_key(r, params, ref))
        totals.append(base[spec["y"]] if base and base.get(spec["y"]) else None)
    return totals


def stacked(ax, rows, all_rows, params, spec):
    """Bars of the components, each bar's parts divided by the reference row's y (its total)."""
    x, series = spec["x"], spec.get("series")
    parts = spec.get("stack") or []
    if not parts:
        raise FigureError("plot.stack: kind stacked needs the list of component columns")
    totals = reference_totals(rows, all_rows, params, spec)
    bottoms = [0.0] * len(rows)
    for k, part in enumerate(parts):
        hs = [(r.get(part) or 0.0) / t if t else 0.0 for r, t in zip(rows, totals)]
        ax.bar(range(len(rows)), hs, bottom=bottoms, label=part_label(part, spec["y"]), color=f"C{k}")
        bottoms = [b + h for b, h in zip(bottoms, hs)]
    # The tallest stack sets the top (bars stacked on their parts' bottoms can end past the autoscaled one).
    ax.set_ylim(0, max(bottoms + [0.0]) * 1.08 or 1.0)
    labels = [f"{r.get(x)}\n{r.get(series)}" if series else str(r.get(x)) for r in rows]
    ax.set_xticks(range(len(rows)))
    tick_labels(ax, labels)


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        if v == 0 or abs(v) >= 100:
            return f"{v:.1f}"
        return f"{v:.3g}" if abs(v) < 1 else f"{v:.2f}"
    return str(v)


def column_label(c, labels):
    """A table column's heading: its own `label`, the table's `labels` entry, or its statistic's name."""
    if isinstance(c, dict):
        y = c["y"] if isinstance(c["y"], str) else " + ".join(c["y"])
        return c.get("label") or labels.get(y, y)
    return labels.get(c, c)


def statistic(row, y):
    """`row`'s column `y`, or the sum of the columns of the list `y` (None when one is not a number)."""
    if not isinstance(y, list):
        return row.get(y)
    values = [row.get(k) for k in y]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return None
    return sum(values)


def column_value(c, group, rows, params, scale):
    """One cell of a `table` spec: the column `c` (a CSV column, or a mapping, docs/sweeps.md) of the first
    row of `group` that matches its `where`; None when there is none or it is not a number."""
    if not isinstance(c, dict):
        c = {"y": c, "scale": scale.get(c, 1)}
    hit = [r for r in group if matches(r, c.get("where"))]
    if not hit:
        return None
    r, y = hit[0], c["y"]
    v = statistic(r, y)
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return v if v is not None and not isinstance(v, (int, float)) else None
    if c.get("per"):  # a ratio of two statistics of the row (energy per operation)
        d = r.get(c["per"])
        v = v / d if isinstance(d, (int, float)) and d else None
    if v is not None and c.get("over"):  # over the row of the same point with these parameters
        ref = [b for b in rows if matches(b, c["over"]) and
               group_key(b, params, c["over"]) == group_key(r, params, c["over"])]
        base = statistic(ref[0], y) if ref else None
        if not isinstance(base, (int, float)) or not base or not v:
            return None
        v = base / v if c.get("invert") else v / base
    return v * c.get("scale", 1) if v is not None else None


def aggregate(values, over):
    """`over` (mean, geomean, min, max) of the numbers among `values` (a geomean of the positive ones);
    None when there is none."""
    xs = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if over == "geomean":
        xs = [v for v in xs if v > 0]
    if not xs:
        return None
    if over == "geomean":
        return math.exp(sum(math.log(x) for x in xs) / len(xs))
    return {"mean": sum(xs) / len(xs), "min": min(xs), "max": max(xs)}[over]


def cell_text(c, v):
    """A `table` cell: the number, with × when the column is a ratio to another row (`over`)."""
    return fmt(v) + ("×" if isinstance(c, dict) and c.get("over") and v is not None else "")


def spec_table(rows, points, table_spec):
    """A `table` spec's Markdown table: a row per distinct value of its `rows` parameters, a column per
    entry of `columns`, then its `summary` rows (an aggregate of each column over the rows they select)."""
    params = params_of(points)
    keys = table_spec.get("rows") or []
    cols = table_spec.get("columns") or []
    labels = table_spec.get("labels", {})
    scale = table_spec.get("scale", {})
    mine = [r for r in rows if matches(r, table_spec.get("where"))]
    groups = ordered(tuple(r.get(k) for k in keys) for r in mine)
    members = {g: [r for r in mine if tuple(r.get(k) for k in keys) == g] for g in groups}
    head = keys + [column_label(c, labels) for c in cols]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(keys) + "---:|" * len(cols)]
    cells = {}
    for g in groups:
        cells[g] = [column_value(c, members[g], rows, params, scale) for c in cols]
        shown = [cell_text(c, v) for c, v in zip(cols, cells[g])]
        lines.append("| " + " | ".join([fmt(v) for v in g] + shown) + " |")
    for s in table_spec.get("summary") or []:
        over = s.get("over", "mean")
        if over not in AGGREGATES:
            raise FigureError(f"table.summary over: unknown '{over}' (known: {', '.join(AGGREGATES)})")
        chosen = [g for g in groups if members[g] and matches(members[g][0], s.get("where"))]
        values = [aggregate([cells[g][i] for g in chosen], over) for i in range(len(cols))]
        shown = [cell_text(c, v) for c, v in zip(cols, values)]
        label = s.get("label") or f"{over} of {len(chosen)}"
        lines.append("| " + " | ".join([f"*{label}*"] + [""] * (len(keys) - 1) + shown) + " |")
    return "\n".join(lines)


def table(rows, points, spec, table_spec=None):
    """The figure's data as a Markdown table."""
    params = params_of(points)
    if table_spec:
        return spec_table(rows, points, table_spec)
    if spec.get("kind") == "stacked":
        return stacked_table(rows, params, spec)
    x, series = spec["x"], spec.get("series")
    values = normalised(rows, params, spec)
    if spec.get("where"):
        values = [(r, v) for r, v in values if matches(r, spec["where"])]
        rows = [r for r, _ in values]
    ss = ordered(r.get(series) for r in rows) if series else [None]
    keys = panel_keys(spec) + [x]
    others = [p for p in params if p not in keys and p != series and len(ordered(r.get(p) for r in rows)) > 1]
    keys += others
    lines = ["| " + " | ".join(keys + [str(s) for s in ss]) + " |", "|" + "---|" * len(keys) + "---:|" * len(ss)]
    groups = ordered(tuple(r.get(k) for k in keys) for r in rows)
    norm = spec.get("normalise")
    for g in groups:
        cells = []
        for s in ss:
            hit = [(r, v) for r, v in values if tuple(r.get(k) for k in keys) == g
                   and (series is None or r.get(series) == s)]
            if not hit:
                cells.append("")
            elif norm:
                cells.append(f"{fmt(hit[0][0].get(spec['y']))} ({hit[0][1]:.2f}×)")
            else:
                cells.append(fmt(hit[0][1]))
        lines.append("| " + " | ".join([fmt(v) for v in g] + cells) + " |")
    return "\n".join(lines)


def stacked_table(rows, params, spec):
    """A row per bar: each component and the total over the reference's total, and the total itself."""
    mine = [r for r in rows if matches(r, spec.get("where"))]
    first_key = (panel_keys(spec) or [spec["x"]])[0]
    first = ordered(r.get(first_key) for r in mine)
    mine.sort(key=lambda r: first.index(r.get(first_key)))  # grouped by panel, in definition order
    totals = reference_totals(mine, rows, params, spec)
    rows = mine
    keys = [k for k in panel_keys(spec) + [spec["x"]] if k]
    keys += [p for p in params if p not in keys and len(ordered(r.get(p) for r in rows)) > 1]
    parts = spec.get("stack") or []
    y = spec["y"]
    lines = ["| " + " | ".join(keys + [part_label(p, y) for p in parts] + ["total", y]) + " |",
             "|" + "---|" * len(keys) + "---:|" * (len(parts) + 2)]
    for r, total in zip(rows, totals):
        cells = [fmt((r.get(p) or 0.0) / total) if total else "" for p in parts]
        cells += [fmt(r[y] / total) if total else "", fmt(r.get(y))]
        lines.append("| " + " | ".join([fmt(r.get(k)) for k in keys] + cells) + " |")
    return "\n".join(lines)


def claim_value(rows, points, claim):
    """The model's number for one claim, or (for an order claim) the text 'holds in N of M'."""
    params = params_of(points)
    y = claim.get("y")
    mine = [r for r in rows if matches(r, claim.get("where"))]
    if "order" in claim:
        (name, order), = claim["order"].items()
        groups = {}
        for r in mine:
            groups.setdefault(group_key(r, params, [name]), {})[r.get(name)] = r.get(y)
        held = sum(1 for g in groups.values()
                   if all(k in g for k in order) and all(g[a] <= g[b] * (1 + 1e-9) for a, b in zip(order, order[1:])))
        return None, f"holds in {held} of {len(groups)}"
    if "ratio" in claim:
        num, den = claim["ratio"]
        skip = set(num) | set(den)
        dens = {group_key(r, params, skip): r for r in mine if matches(r, den)}
        xs = []
        for r in mine:
            if matches(r, num):
                d = dens.get(group_key(r, params, skip))
                if d and d.get(y):
                    xs.append(r[y] / d[y])
    else:
        xs = [r[y] for r in mine if isinstance(r.get(y), (int, float))]
    if not xs:
        raise FigureError(f"claim '{claim.get('paper', '')[:40]}': no rows match")
    over = claim.get("over", "mean")
    if over not in AGGREGATES:
        raise FigureError(f"claim over: unknown '{over}' (known: {', '.join(AGGREGATES)})")
    v = aggregate(xs, over)
    if v is None:
        raise FigureError(f"claim '{claim.get('paper', '')[:40]}': no positive values for a geomean")
    return v * claim.get("scale", 1), None


def claim_verdict(claim, v):
    """(model / paper as text, within tolerance: True/False/None) for a claim's number `v`."""
    paper = claim.get("value")
    if paper is not None and claim.get("excess"):
        # A margin (1.06x = 6% faster): compare the margins, not two numbers near 1.
        r = (v - 1) / (paper - 1)
        return f"{r:.2f} (of the margin)", abs(r - 1) <= TOLERANCE
    if paper is not None and "abs" in claim:
        return f"±{claim['abs']}", abs(v - paper) <= claim["abs"]
    if paper:
        r = v / paper
        return f"{r:.2f}", abs(r - 1) <= TOLERANCE
    return "", None


def verdict_text(ok):
    return "" if ok is None else ("yes" if ok else "**no**")


def claims_table(rows, points, claims):
    lines = ["| the paper | paper | model | model / paper | within ±15% |", "|---|---:|---:|---:|---|"]
    for c in claims or []:
        paper = c.get("value")
        if points and not any(matches(p, c.get("where")) for p in points):
            # A claim about values this run does not have (a full-mode size in quick mode): said, not failed.
            lines.append(f"| {c['paper']} | {fmt(float(paper)) if paper is not None else ''} | "
                         "(not among this run's points) | | |")
            continue
        v, txt = claim_value(rows, points, c)
        if txt is not None:
            lines.append(f"| {c['paper']} | | {txt} | | |")
            continue
        ratio, ok = claim_verdict(c, v)
        if ok is None:
            lines.append(f"| {c['paper']} | | {fmt(v)} | | |")
        else:
            lines.append(f"| {c['paper']} | {fmt(float(paper))} | {fmt(v)} | {ratio} | {verdict_text(ok)} |")
    return "\n".join(lines)


def fitted_on(fitted, figure, claim):
    """The keys of `fitted` ({section.key: "figure: claim"}, a set's declaration) fitted on this claim."""
    return [k for k, on in fitted.items()
            if on.partition(": ")[0] == figure and claim["paper"].startswith(on.partition(": ")[2])]


def claims_under_sets(figures_runs, sets):
    """Every figure's claims under several assumption sets, side by side: `sets` is a list of (label, fitted),
    the first the as-written run (label "as written"), `fitted` a set's declaration of what it fits
    ({section.key: "figure: claim"}: such a claim is shown as fitted and not counted under that set);
    `figures_runs` a list of (figure name, claims, [(rows, points) under each set]). Returns the Markdown: a
    count of the claims within ±15 % under each set, then one row per claim."""
    def column(label):
        return label if label == "as written" else f"under `{label}`"
    lines = ["| figure | the paper | paper | " + " | ".join(f"{column(label)} | within ±15%" for label, _ in sets)
             + " |", "|---|---|---:|" + "---:|---|" * len(sets)]
    counted = [[0, 0] for _ in sets]
    used = [set() for _ in sets]
    for name, claims, runs in figures_runs:
        for c in claims or []:
            cells = []
            for i, ((label, fitted), (rows, points)) in enumerate(zip(sets, runs)):
                keys = fitted_on(fitted or {}, name, c)
                used[i].update(keys)
                if points and not any(matches(p, c.get("where")) for p in points):
                    cells += ["(not among the points)", ""]
                    continue
                v, txt = claim_value(rows, points, c)
                if txt is not None:
                    cells += [txt, ""]
                    continue
                _, ok = claim_verdict(c, v)
                if keys:
                    cells += [fmt(v), f"fitted ({', '.join(f'`{k}`' for k in keys)})"]
                    continue
                if ok is not None:
                    counted[i][0] += ok
                    counted[i][1] += 1
                cells += [fmt(v), verdict_text(ok)]
            paper = c.get("value")
            row = [name, c["paper"], fmt(float(paper)) if paper else ""] + cells
            lines.append("|" + "|".join(f" {x} " if x else " " for x in row) + "|")
    for (label, fitted), keys in zip(sets, used):
        unused = sorted(set(fitted or {}) - keys)
        if unused:
            raise FigureError(f"the {label} set fits {', '.join(unused)} on a claim no figure has: "
                              + "; ".join(f"'{fitted[k]}'" for k in unused))
    counts = ", ".join(f"**{ok} of {n} {column(label)}**"
                       + (" (the claim it fits on not counted)" if fitted else "")
                       for (label, fitted), (ok, n) in zip(sets, counted))
    return f"Claims with a number within ±15 % of the paper's: {counts}.\n\n" + "\n".join(lines)


def default_plot(points):
    """The plot of a sweep without a plot section: throughput against its first varying parameter with
    numeric values (else its first varying parameter: bars), one line per scheme, one panel per combination
    of the other varying parameters; nothing is merged."""
    params = params_of(points)
    varying = [p for p in params if len({canon(q.get(p)) for q in points}) > 1 and p != "scheme"]
    numeric = [p for p in varying if all(isinstance(q.get(p), (int, float)) and not isinstance(q.get(p), bool)
                                         for q in points)]
    x = (numeric or varying or params)[0]
    kind = "lines" if x in numeric or all(isinstance(q.get(x), (int, float)) for q in points) else "bars"
    rest = [p for p in varying if p != x]
    series = "scheme" if "scheme" in params and x != "scheme" else None  # only the scheme varies: bars of it
    return {"kind": kind, "x": x, "y": "throughput_ops_per_us", "series": series, "panels": rest or None}


def command(name, mode, sweep=None):
    """The command that makes `name`: a figure's own target, or `sweep` with the sweep file as given."""
    if sweep is not None:
        import shlex
        return f"snakemake --cores 2 sweep --config sweep={shlex.quote(str(sweep))} mode={mode}"
    return f"snakemake --cores 2 {name} --config mode={mode}"


def markdown(name, spec, mode, rows, points, png, sweep=None):
    """The figure's Markdown section (heading, setting, the command that made it, plot, claims, data);
    `sweep` is the sweep file as given on the command line, for a sweep."""
    out = [f"### {spec.get('title', name)}", ""]
    if spec.get("setting"):
        out += [spec["setting"].strip(), ""]
    out += [f"`{command(name, mode, sweep)}` ({len(points)} points, mode {mode}).", ""]
    if png:
        out += [f"![{name}]({png})", ""]
    if spec.get("claims"):
        out += [claims_table(rows, points, spec["claims"]), ""]
    tables = spec.get("table")
    if isinstance(tables, list):  # several tables, each after its own sentence
        out += [table(rows, points, spec.get("plot") or {}), ""]
        for t in tables:
            out += ([t["title"].strip(), ""] if t.get("title") else []) + [table(rows, points, {}, t), ""]
    else:
        out += [table(rows, points, spec.get("plot") or {}, tables), ""]
    return "\n".join(out)
