"""Charts of the workload-specific tables (engbench.report.workload_tables): the sysbench-update
concurrency sweep against the number of clients, and cache-pollution's hot read rate before /
during / after the cold pass. Same theme, titles and subtitles as engbench.report.charts."""

from __future__ import annotations

import altair as alt
import pandas as pd

from .charts import _color, _title
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
    rows = [{"config": r.config, "run_id": r.run_id, "clients": int(r.clients), "metric": label,
             "value": float(getattr(r, col))}
            for r in st.itertuples(index=False) for col, label in STEP_METRICS
            if getattr(r, col) == getattr(r, col)]
    if not rows:
        return None
    long = pd.DataFrame(rows).sort_values(["metric", "config", "clients", "run_id"])
    base = alt.Chart().encode(x=alt.X("clients:O", title="clients", axis=alt.Axis(labelAngle=0)),
                              color=_color(exp))
    lines = base.mark_line(point=True).encode(y=alt.Y("mean(value):Q", title=None))
    pts = base.mark_point(opacity=0.4, filled=False).encode(y="value:Q")
    return alt.layer(lines, pts, data=long).properties(width=240, height=190).facet(
        column=alt.Column("metric:N", title=None, sort=[m for _, m in STEP_METRICS]),
        title=_title("Concurrency sweep", exp.workload, machine, len(exp.runs), exp.title),
    ).resolve_scale(y="independent")


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
