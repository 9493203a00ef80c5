"""Charts of the workload-specific tables (engbench.report.workload_tables; a workload folder's
report.py draws its own, e.g. sysbench-update's concurrency sweep): cache-pollution's hot read rate before /
during / after the cold pass, and the RUM table and chart of notebooks/ycsb.ipynb's runs (made by
engbench.report.ycsb_rum, as the paper's). Same theme, titles and subtitles as engbench.report.charts."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import altair as alt
import pandas as pd

from .. import tables
from ..tables.processed import load_processed
from . import data, ycsb_rum
from .charts import _color, _title
from .workload_tables import with_config

PHASES = [("before", "before the cold pass"), ("during", "during"), ("after", "after")]


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
