"""The workload registry. What each workload is, stated once, in its folder (workloads/<name>/,
the mirror of driver/src/workloads/<name>/): its operation unit, the op whose requests or items are
its operations, the per-operation bases it reports, its table shapes, chart titles, section
introduction, references and notebook, and what it writes. Read by engbench.tables (op_unit, ops,
bases), engbench.run.readback (what it writes), the report (tables, charts, paper, prose) and the
notebooks (notebooks/, tests/test_layout.py). A folder's own part of the paper (its report.py) is
the upper half of the folder, listed by the upper registry (upper.py), not here: these facts stand
at the bottom of the package and import nothing above it.

The operation units and per-op bases are units.py, the shape of an entry spec.Workload. A
workload is its folder and one line of FOLDERS (docs/adding-a-workload.md); one the registry
does not know counts the requests of all its ops (unit request)."""

from __future__ import annotations

from . import bulk_insert, cache_pollution, fillseq, iibench, linkbench, sysbench_update, ycsb
from .spec import Workload, params_now, params_then, renamed_in  # noqa: F401 (the renames: spec.Workload.renamed)
from .units import REQUEST

FOLDERS = (  # one line per workload, in the paper's section order
    iibench,
    fillseq,
    sysbench_update,
    bulk_insert,
    linkbench,
    cache_pollution,
    ycsb,
)
WORKLOADS = {f.WORKLOAD.name: f.WORKLOAD for f in FOLDERS}
ORDER = [f.WORKLOAD.name for f in FOLDERS]
MAIN = next(f.WORKLOAD for f in FOLDERS if f.WORKLOAD.main_job)  # what `engbench main` runs


def get(name: str) -> Workload:
    """The registry entry of ``name``; an unknown workload counts the requests of all its ops."""
    w = WORKLOADS.get(name)
    if w is not None:
        return w
    return Workload(str(name), REQUEST, None, "operation", ("op",), None, ("per_request", "rum"))


def count_ops(workload: str, totals: dict) -> int:
    """The operations of a run from its summary totals ({op: {requests, items, ...}}):

        ops = totals[main_op][unit.counts]      (main_op None: the sum over every op)

    e.g. iibench: items of insert (documents); sysbench-update: requests of update (one per
    update, also on the null engine, whose updates find no row: items 0)."""
    w = get(workload)
    if w.main_op is None:
        return sum(int(t.get(w.unit.counts, 0)) for t in totals.values())
    return int((totals.get(w.main_op) or {}).get(w.unit.counts, 0))


TOTALS = ("requests", "items", "logical_bytes_read", "logical_bytes_written")


def run_totals(workload: str, totals: dict) -> dict:
    """{requests, items, logical_bytes_read, logical_bytes_written} of a run from its summary
    totals: the sum over the ops of ``totals_of`` (every op when None), so that ops repeating
    others (sysbench's update.c<N>, linkbench's per-type ops beside "request") count once:

        x = Σ_{op in totals_of} totals[op][x]"""
    w = get(workload)
    ops = totals if w.totals_of is None else {op: totals.get(op) or {} for op in w.totals_of}
    return {k: sum(int(t.get(k, 0)) for t in ops.values()) for k in TOTALS}


def reads_per_point_read(runs, latency):
    """Device reads per point read of each run whose workload names a ``point_read_op`` (YCSB's
    read), from the processed tables:

        reads_per_point_read = r_per_op × ops / requests of point_read_op
                             = (iostat r/s × seconds) / point reads in the measured window

    (``latency.count`` of the op is its requests in the measured window). A Series indexed by
    run_id; NaN where the run has no point reads or no iostat."""
    import pandas as pd

    counts = latency.set_index(["run_id", "op"])["count"]
    out = {}
    for _, r in runs.iterrows():
        op = get(r["workload"]).point_read_op
        n = counts.get((r["run_id"], op), 0) if op else 0
        out[r["run_id"]] = float(r["r_per_op"]) * float(r["ops"]) / n if n else float("nan")
    return pd.Series(out, name="reads_per_point_read", dtype=float)
