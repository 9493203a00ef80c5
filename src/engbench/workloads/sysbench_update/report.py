"""sysbench-update in the paper (it uses the report engine; listed in engbench.workloads.upper,
read through engbench.registry.hook): the concurrency sweep's tables in the shapes of
001_sysbench_update_{tps,iostat_reads_per_s,disk_reads_per_update}.csv and every per-step cost
(processed table `steps`), the chart of rate and reads against clients, and the sentences at the
highest client count."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ...normalize import device as dev
from ...report.charts import CEILING_SPAN, engine_color, chart_title
from ...report.prose import mean_by, quote_list
from ...report.workload_tables import own_table, stat, with_config


STEP_WIDE = [("q", "tps", 0, "updates per second (tps)"),
             ("r_per_s", "iostat_r", 0, "iostat reads per second"),
             ("r_per_op", "r_per_t", 2, "disk reads per update (iostat r/s ÷ tps)")]
STEP_LONG = [("q", "tps (txn/s)", 0), ("r_per_s", "r/s", 0), ("rkb_per_s", "rKB/s", 0),
             ("wkb_per_s", "wKB/s", 0), ("r_per_op", "r/t", 2), ("rkb_per_op", "rKB/t", 2),
             ("wkb_per_op", "wKB/t", 2), ("mcpu_per_op", "Mcpu/t", 0), ("cs_per_op", "cs/t", 2),
             ("coverage", "coverage", 2)]
STEP_METRICS = [("q", "updates per second (tps)"), ("r_per_op", "disk reads per update (r/t)")]
OWN_READS = ("cg_r_per_op", "own disk reads per update (cgroup)")
CEILING = "read-bound tps"


def steps_tables(exp, steps) -> list:
    st = with_config(steps, exp)
    if st.empty:
        return []
    st = st[st["ran"].astype(bool)]
    clients = sorted(int(c) for c in st["clients"].unique())
    low = st[st["missed_s"] > 0]
    note = (f" The captures miss part of {len(low)} of {len(st)} step windows beyond their partial "
            "first and last seconds (NA: no sample inside the window); their iostat figures are "
            "less certain." if len(low) else "")
    out = []
    for col, kind, rule, title in STEP_WIDE:
        rows = []
        for cfg in exp.configs:
            g = st[st["config"] == cfg]
            rows.append([cfg] + [(*stat(g.loc[g["clients"] == c, col].tolist()), rule) for c in clients])
        head = ["engine"] + [f"{c} client{'s' if c != 1 else ''}" for c in clients]
        out.append(own_table(f"{exp.key}.{kind}", f"{exp.title} — {title}",
                          "Each step's window of the sweep (summary steps); mean (min–max) of "
                          "repeated runs." + note, head, rows))
    rows = []
    for cfg in exp.configs:
        for c in clients:
            g = st[(st["config"] == cfg) & (st["clients"] == c)]
            if len(g):
                rows.append([cfg, str(c), str(len(g))] + [(*stat(g[col].tolist()), r) for col, _, r in STEP_LONG])
    out.append(own_table(f"{exp.key}.steps", f"{exp.title} — per-step costs per update",
                      "iostat and vmstat means over each step's window divided by the step's tps; "
                      "coverage: fraction of the window the captures cover." + note,
                      ["engine", "clients", "n"] + [h for _, h, _ in STEP_LONG], rows))
    return out


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
                              color=engine_color(exp))
    enc = {"strokeDash": alt.StrokeDash("kind:N", title=None, sort=["measured", CEILING])} if len(ceil) else {}
    lines = base.mark_line(point=True).encode(y=alt.Y("mean(value):Q", title=None), **enc)
    pts = base.mark_point(opacity=0.4, filled=False).encode(y="value:Q")
    if len(ceil):
        pts = pts.transform_filter(alt.datum.kind == "measured")
    notes = [exp.title] + ([f"dashed: {CEILING} = read IOPS (run.read_iops, else calibrated for the step's "
                            "clients) ÷ own reads per update"] if len(ceil) else [])
    return alt.layer(lines, pts, data=long).properties(width=240, height=190).facet(
        column=alt.Column("metric:N", title=None, sort=[m for _, m in metrics]),
        title=chart_title("Concurrency sweep", exp.workload, machine, len(exp.runs), notes),
    ).resolve_scale(y="independent")


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


def sentences(exp, proc, n: dict) -> list[str]:
    """Updates per second and disk reads per update at the highest client count; adds the numbers
    quoted to ``n``."""
    k, out = exp.key, []
    st = with_config(proc["steps"], exp)
    st = st[st["ran"].astype(bool)] if len(st) else st
    if len(st):
        c = int(st["clients"].max())
        at = st[st["clients"] == c]
        out.append(f"At {c} clients, updates per second: "
                   f"{quote_list(n, f'{k}.steps.c{c}.tps', mean_by(at, 'q', exp.configs), 0)}.")
        rt = mean_by(at, "r_per_op", exp.configs)
        if rt:
            out.append(f"Disk reads per update at {c} clients: {quote_list(n, f'{k}.steps.c{c}.r_per_t', rt, 2)}.")
    return out


def tables(exp, proc) -> tuple[list, str | None]:
    """Its own tables of one experiment (first in its list), and no note."""
    return steps_tables(exp, proc["steps"]), None


def figures(exp, proc, machine: str) -> list:
    """(name, caption, chart) of its own charts, after the rate chart."""
    return [("steps", "Updates per second and disk reads per update against the number of clients.",
             steps(exp, proc["steps"], machine))]
