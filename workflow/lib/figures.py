"""A figure from its tidy CSV: the plot (PNG), the Markdown table, and the
paper-versus-model table of the definition's claims.

The `plot` section of a sweep definition:

    plot:
      kind: lines | bars | stacked   # lines over a numeric x; grouped bars; stacked components
      x: interval                    # a parameter (the x axis, or the bar groups)
      y: throughput_ops_per_us       # a column of the CSV
      series: scheme                 # one line / bar colour per value
      panels: workload               # optional: one subplot per value
      normalise: {scheme: central}   # divide by the row with these parameters (the others equal)
      invert: false                  # reference / value instead (a time -> a speedup)
      stack: [energy.cores, ...]     # kind stacked: the components, normalised by y of the reference
      logx: true                     # logy too
      where: {timing: lt}            # optional: plot and tabulate only these rows
      ylabel: "speedup over Central"
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
"""
import math

AGGREGATES = ("mean", "geomean", "min", "max")
TOLERANCE = 0.15  # a departure beyond +-15% is flagged (issue: fidelity)


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


def panels_of(rows, spec):
    """[(title, rows, spec)] of the subplots: `subplots` (each a filter `where` and overrides), or one per
    value of `panels`, or one."""
    if spec.get("subplots"):
        out = []
        for sub in spec["subplots"]:
            s = dict(spec)
            s.pop("subplots")
            s.update({k: v for k, v in sub.items() if k not in ("where", "title")})
            out.append((sub.get("title", ""), [r for r in rows if matches(r, sub.get("where"))], s))
        return out
    panels = spec.get("panels")
    if not panels:
        return [(None, rows, spec)]
    return [(str(v), [r for r in rows if r.get(panels) == v], spec) for v in ordered(r.get(panels) for r in rows)]


def plot(rows, points, spec, title, path):
    """Draws the figure into `path` (PNG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    params = params_of(points)
    subs = panels_of([r for r in rows if matches(r, spec.get("where"))], spec)
    n = len(subs)
    cols = min(n, 4)
    nrows = (n + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.4 * nrows), squeeze=False)
    for i, (name, mine, s) in enumerate(subs):
        ax = axes[i // cols][i % cols]
        draw(ax, mine, rows, params, s)
        if name:
            ax.set_title(name, fontsize=10)
        ax.set_xlabel(s.get("xlabel", s["x"]))
        ax.set_ylabel(s.get("ylabel", s.get("y", "")))
        ax.grid(True, axis="y", alpha=0.3)
        if s.get("logy"):
            ax.set_yscale("log")
        if i == 0 and s.get("kind", "lines") != "stacked" and s.get("series"):
            ax.legend(fontsize=7)
        if s.get("kind") == "stacked" and i == n - 1:
            ax.legend(fontsize=6, loc="upper right")
    for j in range(n, nrows * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def draw(ax, rows, all_rows, params, spec):
    """One subplot of `rows`; normalisation looks up its reference rows among `all_rows`."""
    kind = spec.get("kind", "lines")
    x, series = spec["x"], spec.get("series")
    if kind == "stacked":
        stacked(ax, rows, all_rows, params, spec)
        return
    if kind not in ("lines", "bars"):
        raise FigureError(f"plot.kind: unknown '{kind}' (known: lines, bars, stacked)")
    mine = {id(r) for r in rows}
    values = [(r, v) for r, v in normalised(all_rows, params, spec) if id(r) in mine]
    ss = ordered(r.get(series) for r in rows) if series else [None]
    if kind == "lines":
        for s in ss:
            pts = sorted((r[x], v) for r, v in values if series is None or r.get(series) == s)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=str(s))
        if spec.get("logx"):
            ax.set_xscale("log")
        return
    groups = ordered(r.get(x) for r in rows)
    width = 0.8 / len(ss)
    for j, s in enumerate(ss):
        hs = []
        for g in groups:
            v = [v for r, v in values if r.get(x) == g and (series is None or r.get(series) == s)]
            hs.append(v[0] if v else 0.0)
        ax.bar([k + j * width for k in range(len(groups))], hs, width, label=str(s))
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(groups))])
    ax.set_xticklabels([str(g) for g in groups], rotation=30, ha="right", fontsize=8)


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
    labels = [f"{r.get(x)}\n{r.get(series)}" if series else str(r.get(x)) for r in rows]
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, rotation=90, fontsize=6)


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        if v == 0 or abs(v) >= 100:
            return f"{v:.1f}"
        return f"{v:.3g}" if abs(v) < 1 else f"{v:.2f}"
    return str(v)


def table(rows, points, spec, table_spec=None):
    """The figure's data as a Markdown table."""
    params = params_of(points)
    if table_spec:
        keys = table_spec.get("rows") or []
        cols = table_spec.get("columns") or []
        mine = [r for r in rows if matches(r, table_spec.get("where"))]
        head = keys + [table_spec.get("labels", {}).get(c, c) for c in cols]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(keys) + "---:|" * len(cols)]
        for r in mine:
            scale = table_spec.get("scale", {})
            lines.append("| " + " | ".join([fmt(r.get(k)) for k in keys] +
                                          [fmt(r.get(c) * scale.get(c, 1) if isinstance(r.get(c), (int, float))
                                               else r.get(c)) for c in cols]) + " |")
        return "\n".join(lines)
    if spec.get("kind") == "stacked":
        return stacked_table(rows, params, spec)
    x, series, panels = spec["x"], spec.get("series"), spec.get("panels")
    values = normalised(rows, params, spec)
    if spec.get("where"):
        values = [(r, v) for r, v in values if matches(r, spec["where"])]
        rows = [r for r, _ in values]
    ss = ordered(r.get(series) for r in rows) if series else [None]
    keys = ([panels] if panels else []) + [x]
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
    first_key = spec.get("panels") or spec["x"]
    first = ordered(r.get(first_key) for r in mine)
    mine.sort(key=lambda r: first.index(r.get(first_key)))  # grouped by panel, in definition order
    totals = reference_totals(mine, rows, params, spec)
    rows = mine
    keys = [k for k in ([spec.get("panels")] if spec.get("panels") else []) + [spec["x"]] if k]
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
    if over == "geomean":
        v = math.exp(sum(math.log(x) for x in xs) / len(xs))
    else:
        v = {"mean": sum(xs) / len(xs), "min": min(xs), "max": max(xs)}[over]
    v *= claim.get("scale", 1)
    return v, None


def claims_table(rows, points, claims):
    lines = ["| the paper | paper | model | model / paper | within ±15% |", "|---|---:|---:|---:|---|"]
    for c in claims or []:
        v, txt = claim_value(rows, points, c)
        paper = c.get("value")
        if txt is not None:
            lines.append(f"| {c['paper']} | | {txt} | | |")
            continue
        if paper is not None and c.get("excess"):
            # A margin (1.06x = 6% faster): compare the margins, not two numbers near 1.
            r = (v - 1) / (paper - 1)
            ok = "yes" if abs(r - 1) <= TOLERANCE else "**no**"
            lines.append(f"| {c['paper']} | {fmt(float(paper))} | {fmt(v)} | {r:.2f} (of the margin) | {ok} |")
        elif paper is not None and "abs" in c:
            ok = "yes" if abs(v - paper) <= c["abs"] else "**no**"
            lines.append(f"| {c['paper']} | {fmt(float(paper))} | {fmt(v)} | ±{c['abs']} | {ok} |")
        elif paper:
            r = v / paper
            ok = "yes" if abs(r - 1) <= TOLERANCE else "**no**"
            lines.append(f"| {c['paper']} | {fmt(float(paper))} | {fmt(v)} | {r:.2f} | {ok} |")
        else:
            lines.append(f"| {c['paper']} | | {fmt(v)} | | |")
    return "\n".join(lines)


def markdown(name, spec, mode, rows, points, png):
    """The figure's Markdown section (heading, setting, plot, claims, data)."""
    out = [f"### {spec.get('title', name)}", ""]
    if spec.get("setting"):
        out += [spec["setting"].strip(), ""]
    out += [f"`snakemake --cores 2 {name} --config mode={mode}` ({len(points)} points, mode {mode}).", ""]
    if png:
        out += [f"![{name}]({png})", ""]
    if spec.get("claims"):
        out += [claims_table(rows, points, spec["claims"]), ""]
    out += [table(rows, points, spec.get("plot") or {}, spec.get("table")), ""]
    return "\n".join(out)
