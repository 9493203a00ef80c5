"""Charts of a workload's own (its folder's report.py draws them: sysbench-update's concurrency
sweep, cache-pollution's hot reads around the cold pass); here, the RUM table and chart of
notebooks/ycsb.ipynb's runs (made by engbench.report.ycsb_rum, as the paper's)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from .. import tables
from ..tables.processed import load_processed
from . import data, ycsb_rum


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
