"""What notebooks/rum_tradeoffs.ipynb calls: the measured read, write and space amplification of
the shipped runs, one row per experiment and engine, and the same as one chart."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import paths
from . import charts, data, theme
from .paper import ENGINE_ORDER


def rum_summary(processed_dir=None) -> pd.DataFrame | None:
    """experiment, workload, engine, family, runs, read_amp, write_amp, space_amp (means of the
    runs; NaN where the workload gives nothing to divide by). None when there are no processed
    runs (nothing shipped yet)."""
    d = Path(processed_dir) if processed_dir else paths.processed_dir()
    try:
        proc = data.load_processed(d)
    except FileNotFoundError:
        return None
    if proc["runs"].empty:
        return None
    rows = []
    for e in data.comparisons(proc["runs"], engine_order=ENGINE_ORDER):
        for cfg in e.configs:
            g = e.runs[e.runs["config"] == cfg]
            rows.append({"experiment": e.title, "engine": cfg,
                         "family": theme.family(str(g["engine"].iloc[0])), "runs": len(g),
                         **{col: round(float(pd.to_numeric(g[col]).mean()), 2)
                            for col in ("read_amp", "write_amp", "space_amp")}})
    return pd.DataFrame(rows)


def rum_charts(processed_dir=None, raw_dir=None) -> list:
    """The paper's RUM chart of every experiment (empty list when there are no runs)."""
    d = Path(processed_dir) if processed_dir else paths.processed_dir()
    try:
        proc = data.load_processed(d)
    except FileNotFoundError:
        return []
    manifests = data.load_manifests(raw_dir or paths.raw_dir(), proc["runs"]["run_id"])
    out = []
    for e in data.comparisons(proc["runs"], engine_order=ENGINE_ORDER):
        chart = charts.rum(e, data.where_label(manifests, e.runs))
        if chart is not None:
            out.append(chart)
    return out
