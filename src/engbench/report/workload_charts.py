"""Charts of the workload-specific tables (engbench.report.workload_tables): the sysbench-update
concurrency sweep against the number of clients, cache-pollution's hot read rate before /
during / after the cold pass, and the RUM table and chart of notebooks/ycsb.ipynb's runs (made by
engbench.report.ycsb_rum, as the paper's). Same theme, titles and subtitles as engbench.report.charts."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import altair as alt
import pandas as pd

from .. import tables
from ..normalize import device as dev
from ..tables.processed import load_processed
from . import data, ycsb_rum
from .charts import CEILING_SPAN, _color, _title
from .workload_tables import with_config

STEP_METRICS = [("q", "updates per second (tps)"), ("r_per_op", "disk reads per update (r/t)")]
PHASES = [("before", "before the cold pass"), ("during", "during"), ("after", "after")]


def steps(exp, steps_frame, machine: str):
    """tps and disk reads per update (iostat r/s ÷ tps over each step's window) against the
    number of clients: a line per engine configuration (mean of its runs), a point per run."""
    st = with_config(steps_frame, exp)
    if st.empty:
        return None
    st = st[st["ran"].astype(bool)]
    metrics = STEP_METRICS + ([OWN_READS] if "cg_r_per_op" in st and st["cg_r_per_op"].notna().any() else [])
    rows = [{"config": r.config, "run_id": r.run_id, "clients": int(r.clients), "metric": label,
             "value": float(getattr(r, col)), "kind": "measured"}
            for r in st.itertuples(index=False) for col, label in metrics
            if getattr(r, col) == getattr(r, col)]
    if not rows:
        return None
    ceil = step_ceilings(exp, st)
    long = pd.concat([pd.DataFrame(rows), ceil]) if len(ceil) else pd.DataFrame(rows)
    long = long.sort_values(["metric", "kind", "config", "clients", "run_id"])
    base = alt.Chart().encode(x=alt.X("clients:O", title="clients", axis=alt.Axis(labelAngle=0)),
                              color=_color(exp))
    enc = {"strokeDash": alt.StrokeDash("kind:N", title=None, sort=["measured", CEILING])} if len(ceil) else {}
    lines = base.mark_line(point=True).encode(y=alt.Y("mean(value):Q", title=None), **enc)
    pts = base.mark_point(opacity=0.4, filled=False).encode(y="value:Q")
    if len(ceil):
        pts = pts.transform_filter(alt.datum.kind == "measured")
    notes = [exp.title] + ([f"dashed: {CEILING} = read IOPS (run.read_iops, else calibrated for the step's "
                            "clients) ÷ own reads per update"] if len(ceil) else [])
    return alt.layer(lines, pts, data=long).properties(width=240, height=190).facet(
        column=alt.Column("metric:N", title=None, sort=[m for _, m in metrics]),
        title=_title("Concurrency sweep", exp.workload, machine, len(exp.runs), notes),
    ).resolve_scale(y="independent")


OWN_READS = ("cg_r_per_op", "own disk reads per update (cgroup)")
CEILING = "read-bound tps"


def step_ceilings(exp, st) -> pd.DataFrame:
    """Per step, the tps at which the step's reads per update would take all the read IOPS
    (normalize.device.ops_ceiling): the run.read_iops throttle when there is one, else the step's
    calibrated IOPS (steps.cal_read_iops); own reads per update (cgroup) when recorded, else
    iostat's. Rows of the tps panel (kind = CEILING); none where no step's ceiling is within
    charts.CEILING_SPAN × the fastest step."""
    lim = exp.runs.set_index("run_id")["limit.read_iops"] if "limit.read_iops" in exp.runs else pd.Series(dtype=float)
    rows = []
    for r in st.to_dict("records"):
        throttle = lim.get(r["run_id"], float("nan"))
        iops = throttle if throttle == throttle else r.get("cal_read_iops", float("nan"))
        own = r.get("cg_r_per_op", float("nan"))
        c = dev.ops_ceiling(iops, own if own == own else r["r_per_op"])
        if c == c:
            rows.append({"config": r["config"], "run_id": r["run_id"], "clients": int(r["clients"]),
                         "metric": STEP_METRICS[0][1], "value": c, "kind": CEILING})
    out = pd.DataFrame(rows, columns=["config", "run_id", "clients", "metric", "value", "kind"])
    top = pd.to_numeric(st["q"], errors="coerce").max()
    return out if len(out) and out["value"].min() <= CEILING_SPAN * top else out.iloc[0:0]


def cache_phases(exp, cp, machine: str):
    """Hot point reads per second before, during and after the cold pass (summary phases), a
    bar per engine configuration and phase (mean of its runs)."""
    c = with_config(cp, exp)
    if c.empty:
        return None
    rows = [{"config": r["config"], "phase": label, "value": float(r[f"gets_per_s_{p}"])}
            for _, r in c.iterrows() for p, label in PHASES if r[f"gets_per_s_{p}"] == r[f"gets_per_s_{p}"]]
    if not rows:
        return None
    data = pd.DataFrame(rows).groupby(["config", "phase"], as_index=False)["value"].mean().round(1)
    order = [label for _, label in PHASES]
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("phase:N", title=None, sort=order, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("config:N", sort=exp.configs),
        y=alt.Y("value:Q", title="hot reads per second"), color=_color(exp),
        tooltip=["config:N", "phase:N", alt.Tooltip("value:Q", format=",.0f")],
    ).properties(width=360, height=220,
                 title=_title("Hot reads around the cold pass", exp.workload, machine, len(exp.runs),
                              exp.title))


def ycsb_rum_of_runs(run_dirs):
    """The RUM table and chart (engbench.report.ycsb_rum.rum_table and rum_chart, the paper's) of
    the YCSB runs in ``run_dirs`` (what notebooks/ycsb.ipynb shows of the runs it made): the runs
    are processed by engbench.tables into a temporary directory (data/processed is left alone)
    and read back as the paper reads data/processed. (None, None) when none of them is a complete
    YCSB run."""
    dirs = [Path(d) for d in run_dirs]
    with tempfile.TemporaryDirectory(prefix="engbench-ycsb-rum-") as tmp:
        tables.write_tables(tables.build_tables(dirs), tmp)
        proc = load_processed(tmp)
    runs = proc["runs"][proc["runs"]["workload"] == "ycsb"]
    if runs.empty:
        return None, None
    manifests = {d.name: json.loads((d / "manifest.json").read_text()) for d in dirs}
    where = data.where_label(manifests, runs)
    long = ycsb_rum.rum_long(runs, proc["loads"])
    table = ycsb_rum.rum_table(long)
    if table is not None:
        table.caption += f" Measured on {where}."
    return table, ycsb_rum.rum_chart(long, where, len(runs))
