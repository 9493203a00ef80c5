"""What notebooks/rum_tradeoffs.ipynb calls: the measured read, write and space amplification of
the shipped runs, one row per experiment and engine, and the same as one chart (its YCSB half is
the ycsb folder's: engbench.workloads.ycsb.tradeoffs).

The notebook is committed with its outputs and checked strictly, also where the compiled driver is
not installed (Binder), so its experiment titles are made without the driver's parameter defaults
(`no_defaults`: a title that needs parameters lists all of them, with or without the driver; the
paper's titles leave out the parameters at their defaults, which only the driver knows)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import paths
from ..tables.processed import load_processed
from . import comparison_tables, data
from .data import ENGINE_ORDER


def no_defaults(workload: str) -> None:
    """report.data.comparisons' `defaults_of` that does not ask the driver: titles come out the
    same with and without it."""
    return None


def rum_summary(processed_dir=None, means: bool = False) -> pd.DataFrame | None:
    """The paper's RUM table of every experiment (report.comparison_tables.kind_table(exp, "rum"): one column
    per counter, engbench.normalize.amplification), cells as the paper prints them, with the
    experiment's title in the first column; with `means`, the same table's numbers (the mean of
    each engine configuration's runs: what the notebook's chart draws). None when there are no
    processed runs (nothing shipped yet)."""
    d = Path(processed_dir) if processed_dir else paths.processed_dir()
    try:
        proc = load_processed(d)
    except FileNotFoundError:
        return None
    if proc["runs"].empty:
        return None
    frames = [(comparison_tables.kind_table(e, "rum").means.reset_index() if means else comparison_tables.kind_table(e, "rum").printed)
              .assign(experiment=e.title)
              for e in data.comparisons(proc["runs"], engine_order=ENGINE_ORDER, defaults_of=no_defaults)
              if "rum" in e.spec.tables]
    out = pd.concat(frames, ignore_index=True)
    return out[["experiment"] + [c for c in out.columns if c != "experiment"]]
