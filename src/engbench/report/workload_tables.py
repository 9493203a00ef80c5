"""The workload-specific tables (docs/driver.md, "Workload-specific outputs"), in the shapes of
the source documents' tables (data/published/*.csv), rounded as engbench.report.comparison_tables:

  sysbench-update  its folder's report.py (engbench.workloads.sysbench_update.report)
  linkbench        its folder's report.py (engbench.workloads.linkbench.report)
  bulk-insert      its folder's report.py (engbench.workloads.bulk_insert.report)
  cache-pollution  its folder's report.py (engbench.workloads.cache_pollution.report)
  ycsb             the RUM corners and the engines' read counters: engbench.workloads.ycsb.report

Every table is a comparison_tables.Table (name, title, caption, printed cells, numeric means)."""

from __future__ import annotations

import pandas as pd

from .comparison_tables import Table, cell

NAN = float("nan")


def stat(values) -> tuple:
    """(n, mean, min, max) of ``values``: n counts them all, the others only the numbers (NaN when none)."""
    v = pd.to_numeric(pd.Series(list(values), dtype=object), errors="coerce").dropna()
    n = len(values)
    return (n, float(v.mean()) if len(v) else NAN, float(v.min()) if len(v) else NAN,
            float(v.max()) if len(v) else NAN)


def own_table(name, title, caption, header, rows) -> Table:
    """A table of a workload's own shape. rows: [[label cells..., (n, mean, lo, hi, rule) or str ...]];
    means keep the numbers."""
    printed, means = [], []
    for row in rows:
        printed.append([c if isinstance(c, str) else cell(c[:4], c[4]) for c in row])
        means.append([c if isinstance(c, str) else c[1] for c in row])
    pr = pd.DataFrame(printed, columns=header)
    mn = pd.DataFrame(means, columns=header).set_index(header[0])
    return Table(name, title, caption, pr, mn)


def with_config(frame, exp):
    """``frame`` rows of the experiment's runs, with their row label (config)."""
    if frame is None or frame.empty or "run_id" not in frame:
        return pd.DataFrame()
    return frame.merge(exp.runs[["run_id", "config"]], on="run_id")
