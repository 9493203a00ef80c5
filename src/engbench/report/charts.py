"""The paper's figures as altair charts (theme: engbench.report.theme). Every chart's title names
what it shows and the workload; its subtitle the machine (cpu model, ncpu) and the number of runs.

Each function takes a Comparison (engbench.report.data) and returns a chart, or None when the
data has nothing to show. `save(chart, stem)` writes <stem>.svg and <stem>.png via vl-convert."""

from __future__ import annotations

import math
import re

import altair as alt
import pandas as pd

from .. import registry
from ..normalize import device as dev
from . import theme
from .roles import role

PERCENTILES = [("p50", "p50_us"), ("p95", "p95_us"), ("p99", "p99_us"), ("p99.9", "p999_us")]  # (label, column)
COSTS = [("KB written", "wkb_per_op"), ("KB read", "rkb_per_op"),
         ("CPU µs", "cpu_us_per_op"), ("context switches", "cs_per_op")]  # each "/ <one op of the unit>"
# (label, runs column): one per counter (engbench.normalize.amplification), the label names it
AMPS = [("read, device", "read_amp_device"), ("read, cgroup", "read_amp_cgroup"), ("read, process", "read_amp_process"),
        ("write, device", "write_amp_device"), ("write, process", "write_amp_process"),
        ("space, allocated", "space_amp")]
AMP_COUNTERS = ("device: iostat, the whole disk; cgroup: the run's own cgroup; process: the engine "
                "process's task I/O; allocated: du")
RUM_CAPTION = ("> 1: the engine read, wrote or stored more bytes than the workload's documents "
               "hold; 1 = exactly as many.")


LIMITS_SEP = "; run limits: "
SUBTITLE_CHARS = 76  # a subtitle line longer than this would widen the chart beyond its plot


def wrap(text: str, width: int = SUBTITLE_CHARS) -> list[str]:
    """``text`` as lines of at most ``width`` characters, broken at spaces (a longer word is
    cut with an ellipsis), so that a long experiment title never sets a chart's width."""
    lines, cur = [], ""
    for word in str(text).split():
        if len(word) > width:
            word = word[:width - 1] + "…"
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    return lines + ([cur] if cur else [])


def chart_title(what: str, workload: str, machine: str, n_runs: int, extra=None) -> alt.Title:
    where, _, limits = str(machine).partition(LIMITS_SEP)  # data.where_label: "<machine>; run limits: …"
    sub = wrap(f"{workload} — {n_runs} run{'s' if n_runs != 1 else ''} — {where}")
    sub += wrap(f"run limits: {limits}") if limits else []
    if extra:
        for line in [extra] if isinstance(extra, str) else list(extra):
            sub += wrap(line)
    return alt.Title(text=f"{what}: {workload}", subtitle=sub)


def engine_color(exp, title="engine"):
    return alt.Color("config:N", title=title, scale=theme.engine_scale(exp.configs),
                     sort=exp.configs)


def insert_rate(exp, intervals: pd.DataFrame, machine: str):
    """Operations per second over time since each run's first measured interval (the iibench
    curve: a B-tree's insert rate falls once its indexes outgrow the cache). One line per run.
    Partial intervals (the few-ms tail of a run, intervals.partial) are left out."""
    ivl = intervals[intervals["run_id"].isin(exp.run_ids) & (intervals["warmup"].astype(int) == 0)]
    if "partial" in ivl:
        ivl = ivl[~ivl["partial"].astype(bool)]
    if ivl.empty:
        return None
    # the op whose requests or items the workload counts (sysbench's update.c<N> and linkbench's
    # per-type ops repeat requests of the main op: summing every op would count them twice)
    spec = registry.get(exp.workload)
    if spec.main_op:
        ivl = ivl[ivl["op"] == spec.main_op]
    if ivl.empty:
        return None
    agg = ivl.groupby(["run_id", "interval"], sort=True).agg(
        t0=("t_start_unix_s", "min"), t1=("t_end_unix_s", "max"), n=(spec.unit.counts, "sum"))
    agg = agg.reset_index()
    agg["rate"] = agg["n"] / (agg["t1"] - agg["t0"])
    agg["t"] = (agg["t0"] + agg["t1"]) / 2 - agg.groupby("run_id")["t0"].transform("min")
    agg = agg.merge(exp.runs[["run_id", "config"]], on="run_id")[["run_id", "config", "t", "rate"]]
    ceil = read_ceilings(exp, float(agg["rate"].max()))
    extra = [exp.title] + ([CEILING_NOTE] if len(ceil) else [])
    lines = alt.Chart(agg).mark_line().encode(
        x=alt.X("t:Q", title="seconds since the measured start (interval midpoints)"),
        y=alt.Y("rate:Q", title=f"{spec.unit.plural} per second ({spec.unit.rate})"),
        color=engine_color(exp), detail="run_id:N",
        tooltip=["config:N", "run_id:N", "t:Q", alt.Tooltip("rate:Q", format=",.0f")],
    )
    if len(ceil):
        rules = alt.Chart(ceil).mark_rule(strokeDash=[6, 3], size=1.5).encode(
            y="ceiling:Q", color=engine_color(exp),
            tooltip=["config:N", "source:N", alt.Tooltip("ceiling:Q", format=",.0f")])
        lines = alt.layer(lines, rules)
    return lines.properties(width=460, height=240,
                            title=chart_title(spec.rate_title, exp.workload, machine, len(exp.runs), extra))


CEILING_NOTE = ("dashed: the rate at which the engine's reads per op would take all the device's read "
                "IOPS (calibrated, or the run.read_iops throttle) — read IOPS ÷ reads/op")
CEILING_SPAN = 3  # a ceiling more than this many times the fastest interval is not drawn (it does not bind)


def read_ceilings(exp, top_rate: float) -> pd.DataFrame:
    """config → the read-bound rate (normalize.device.ops_ceiling) of its runs (mean): the read
    IOPS is the run.read_iops throttle when there is one, else the calibrated IOPS of the same
    machine, device and limits; reads per op are the run's own (cgroup) when recorded, else
    iostat's. Only where it applies: a known IOPS, reads per op > 0, and within CEILING_SPAN ×
    the fastest interval."""
    rows = []
    for cfg in exp.configs:
        g = exp.runs[exp.runs["config"] == cfg]
        vals, src = [], None
        for r in g.to_dict("records"):
            throttle, cal = r.get("limit.read_iops"), r.get("cal_read_iops")
            iops, src = (throttle, "run.read_iops") if throttle == throttle and throttle is not None else (cal, "calibrated")
            own = r.get("cg_r_per_op")
            vals.append(dev.ops_ceiling(iops, own if own == own and own is not None else r.get("r_per_op")))
        v = pd.Series(vals, dtype=float).dropna()
        if len(v) and v.mean() <= CEILING_SPAN * top_rate:
            rows.append({"config": cfg, "ceiling": float(v.mean()), "source": src})
    return pd.DataFrame(rows, columns=["config", "ceiling", "source"])


def per_op_costs(exp, machine: str):
    """Small multiples: KB written, KB read, CPU µs and context switches per operation; a bar per
    engine (mean of its runs) and a tick per run."""
    spec = registry.get(exp.workload)
    labels = [f"{label} / {spec.unit.per}" for label, _ in COSTS]
    rows = []
    for (_, col), label in zip(COSTS, labels):
        for r in exp.runs.itertuples(index=False):
            v = getattr(r, col)
            if v == v:
                rows.append({"metric": label, "config": r.config, "run_id": r.run_id, "value": float(v)})
    if not rows:
        return None
    long = pd.DataFrame(rows)
    base = alt.Chart().encode(x=alt.X("config:N", title=None, sort=exp.configs,
                                      axis=alt.Axis(labelAngle=-30)))
    bars = base.mark_bar().encode(y=alt.Y("mean(value):Q", title=None), color=engine_color(exp))
    ticks = base.mark_tick(color="black", thickness=1.5).encode(y="value:Q")
    return alt.layer(bars, ticks, data=long).properties(width=150, height=170).facet(
        column=alt.Column("metric:N", title=None, sort=labels),
        title=chart_title(f"Cost per {spec.op_label}", exp.workload, machine, len(exp.runs),
                     "bar: mean of the runs, tick: one run"),
    ).resolve_scale(y="independent")


def latency(exp, lat: pd.DataFrame, machine: str):
    """Latency percentiles (p50 … p99.9, bucket upper bounds, ms, log scale) per operation type."""
    lat = lat[lat["run_id"].isin(exp.run_ids)]
    if lat.empty:
        return None
    lat = lat.merge(exp.runs[["run_id", "config"]], on="run_id")
    long = lat.melt(id_vars=["run_id", "config", "op"], value_vars=[c for _, c in PERCENTILES],
                    var_name="pct", value_name="us").dropna(subset=["us"])
    long["pct"] = long["pct"].map({c: p for p, c in PERCENTILES})
    long["ms"] = long["us"] / 1000
    long = long[["run_id", "config", "op", "pct", "ms"]].sort_values(["op", "config", "run_id", "pct"])
    order = [p for p, _ in PERCENTILES]
    return alt.Chart(long).mark_line(point=True).encode(
        x=alt.X("pct:O", title="percentile", sort=order, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("mean(ms):Q", title="response time (ms, log)", scale=alt.Scale(type="log")),
        color=engine_color(exp),
        tooltip=["config:N", "pct:O", alt.Tooltip("mean(ms):Q", format=".3g")],
    ).properties(width=220, height=200).facet(
        column=alt.Column("op:N", title="operation"),
        title=chart_title("Latency percentiles per operation", exp.workload, machine, len(exp.runs),
                     "per request; upper bound of the histogram bucket; mean over repeated runs"))


def rum(exp, machine: str):
    """Read, write and space amplification side by side per engine (mean of runs), with a rule
    at 1; log scale when the values span more than a factor of 10."""
    rows = []
    for cfg in exp.configs:
        g = exp.runs[exp.runs["config"] == cfg]
        for label, col in AMPS:
            v = pd.to_numeric(g[col], errors="coerce").dropna()
            if len(v) and math.isfinite(v.mean()) and round(float(v.mean()), 4) > 0:
                rows.append({"amplification": label, "config": cfg, "value": round(float(v.mean()), 4)})
    if not rows:
        return None
    data = pd.DataFrame(rows)
    missing = [lab for lab, _ in AMPS if lab not in set(data["amplification"])]
    vmin, vmax = min(data["value"].min(), 1), max(data["value"].max(), 1)
    log = vmax / vmin > 10
    scale = alt.Scale(type="log") if log else alt.Scale(zero=True)
    notes = [RUM_CAPTION, AMP_COUNTERS]
    if missing:
        notes.append(f"not shown ({'; '.join(missing)}): no such counter, or nothing to divide by")
    x = alt.X("amplification:N", title=None, sort=[a for a, _ in AMPS],
              axis=alt.Axis(labelFontSize=12, labelAngle=-25))
    y = alt.Y("value:Q", title="measured bytes / logical bytes" + (" (log)" if log else ""), scale=scale)
    base = alt.Chart(data).encode(x=x, xOffset=alt.XOffset("config:N", sort=exp.configs), y=y,
                                  color=engine_color(exp))
    points = base.mark_point(size=110, filled=True)
    labels = base.mark_text(dy=-11, fontSize=10).encode(text=alt.Text("value:Q", format=".2f"))
    one = alt.Chart(pd.DataFrame({"y": [1.0]})).mark_rule(strokeDash=[4, 3], color="#444").encode(y="y:Q")
    return alt.layer(one, points, labels).properties(
        width=420, height=240,
        title=chart_title("RUM amplification (read, write, space)", exp.workload, machine,
                     len(exp.runs), notes))


def _sort_key(v):
    m = re.fullmatch(r"\s*([\d.]+)\s*([KMGT]?)i?B?\s*", str(v), re.I)
    if m:
        return (0, float(m.group(1)) * 1024 ** "_KMGT".index(m.group(2).upper() or "_"), "")
    try:
        return (0, float(v), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(v))


def sweep_columns(runs: pd.DataFrame) -> list[str]:
    """param.* / knob.* columns with more than one value among the runs of one workload."""
    cols = [c for c in runs.columns if c.startswith(("param.", "knob."))]
    return sorted(c for c in cols if runs[c].dropna().astype(str).nunique() > 1)


def sweep(runs: pd.DataFrame, column: str, workload: str, machine: str):
    """Rate and KB written per op against a param/knob that varies across runs (mean per value
    and engine, a point per run)."""
    sub = runs[runs[column].notna()].copy()
    if sub[column].astype(str).nunique() < 2:
        return None
    sub["x"] = sub[column].astype(str)
    order = sorted(sub["x"].unique(), key=_sort_key)
    unit = registry.get(workload).unit
    rate, written = unit.rate_unit, f"KB written / {unit.per}"
    long = pd.concat([sub.assign(metric=rate, value=sub["q"]),
                      sub.assign(metric=written, value=sub["wkb_per_op"])])
    long = long[["run_id", "engine", "x", "metric", "value"]].dropna(subset=["value"])
    engines = sorted(sub["engine"].unique())
    name = column.split(".", 1)[1]
    base = alt.Chart().encode(x=alt.X("x:O", title=name, sort=order, axis=alt.Axis(labelAngle=0)),
                              color=alt.Color("engine:N", scale=theme.engine_scale(engines)))
    lines = base.mark_line(point=True).encode(y=alt.Y("mean(value):Q", title=None))
    pts = base.mark_point(opacity=0.4, filled=False).encode(y="value:Q")
    return alt.layer(lines, pts, data=long).properties(width=260, height=200).facet(
        column=alt.Column("metric:N", title=None, sort=[rate, written]),
        title=chart_title(f"Sweep over {name}", workload, machine, len(sub)),
    ).resolve_scale(y="independent")


MAX_SERIES = 6  # a panel shows at most this many configurations; more are split (split)


def variant(label: str, engine: str) -> str:
    """What a configuration's role name says beyond its engine, without the sizes in parentheses:
    "WT B-tree, small cache (16 MiB = 0.29× index), direct IO" → "small cache, direct IO"."""
    rest = label[len(role(engine)):] if label.startswith(role(engine)) else ""
    return re.sub(r" \([^)]*\)", "", rest).strip(", ")


def split(fn, exp, *args):
    """fn(exp, *args), or, when the experiment has more than MAX_SERIES configurations, one chart per
    variant (the same cache, IO, compression … across engines: variant) stacked, each with at most
    MAX_SERIES; configurations named by their engine alone join the first panel."""
    if len(exp.configs) <= MAX_SERIES:
        return fn(exp, *args)
    from dataclasses import replace
    engine_of = dict(zip(exp.runs["config"], exp.runs["engine"]))
    groups = {}
    for cfg in exp.configs:
        groups.setdefault(variant(cfg, engine_of[cfg]), []).append(cfg)
    plain = groups.pop("", [])
    panels = list(groups.items()) or [("", [])]
    panels[0] = (panels[0][0], panels[0][1] + plain)
    chunks = [(v, cfgs[i:i + MAX_SERIES]) for v, cfgs in panels for i in range(0, len(cfgs), MAX_SERIES)]
    charts = []
    for v, cfgs in chunks:
        sub = replace(exp, runs=exp.runs[exp.runs["config"].isin(cfgs)].reset_index(drop=True), configs=cfgs,
                      name=f"{exp.title} — {v}" if v else exp.title)
        c = fn(sub, *args)
        if c is not None:
            charts.append(c)
    return alt.vconcat(*charts).resolve_scale(color="independent") if charts else None


def save(chart, stem, png=True) -> list:
    """<stem>.svg (and <stem>.png at 2x) through vl-convert; returns the paths written."""
    from pathlib import Path
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    out = [stem.parent / f"{stem.name}.svg"]
    chart.save(str(out[0]))
    if png:
        out.append(stem.parent / f"{stem.name}.png")
        chart.save(str(out[1]), scale_factor=2)
    return out
