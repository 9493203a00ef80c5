"""The workload registry as the shared machinery reads it: what each workload is (its entry, a
spec.Workload), in the paper's order, and the hooks of its folder's own modules. The shared
machinery (run, tables, normalize, rulebook, report, findings) knows no workload by name: it asks
here.

The entries and hooks are not written here. The workload folders (engbench.workloads: one folder
per workload, the mirror of driver/src/workloads/<name>/) stand above the machinery they use (a
folder's report.py uses the report engine, its findings.py the rulebook), so the machinery cannot
import them; engbench.workloads hands them in with install() when the package is imported
(engbench/__init__.py, the composition root). Everything below reads them at call time.

A workload the registry does not know counts the requests of all its ops (unit request). The
operation units and per-op bases are units.py, the shape of an entry spec.py."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from .spec import Workload, op_items, params_now, params_then, renamed_in  # noqa: F401 (the registry's vocabulary)
from .units import REQUEST

KINDS = ("normalize", "regime", "report", "findings")  # a folder's own modules (engbench.workloads.middle, .upper)


@dataclass(frozen=True)
class Installed:
    """What engbench.workloads hands in: the entries in the paper's section order, and for each kind
    of a folder's own modules {workload: the module's dotted name}, in its list's order (for
    findings the findings table's)."""
    entries: tuple
    modules: dict


_INSTALLED: Installed | None = None


def install(entries, modules: dict) -> None:
    """Hand the workload folders in (engbench.workloads does, once, on import): their entries and
    {kind: {workload: dotted module name}} of their own modules. A second call replaces the first."""
    global _INSTALLED
    unknown = set(modules) - set(KINDS)
    if unknown:
        raise ValueError(f"registry.install: no such kind of a folder's module: {sorted(unknown)}; kinds: {KINDS}")
    _INSTALLED = Installed(tuple(entries), {k: dict(modules.get(k) or {}) for k in KINDS})


def installed() -> Installed:
    if _INSTALLED is None:
        raise RuntimeError("no workload is installed in engbench.registry: engbench.workloads installs them "
                           "when the package engbench is imported (engbench/__init__.py)")
    return _INSTALLED


def order() -> list[str]:
    """The workloads' names in the paper's section order."""
    return [w.name for w in installed().entries]


def main() -> Workload:
    """The workload `engbench main` runs (the one entry with main_job parameters)."""
    return next(w for w in installed().entries if w.main_job)


def get(name: str) -> Workload:
    """The registry entry of ``name``; an unknown workload counts the requests of all its ops."""
    w = next((w for w in installed().entries if w.name == name), None)
    if w is not None:
        return w
    return Workload(str(name), REQUEST, None, "operation", ("op",), None, ("per_request", "rum"))


def _load(name: str):
    # A folder's own modules load when first asked for, by name: they use the pandas/altair
    # machinery, and importing engbench (which installs the folders) stays as light as the facts
    # (0.1 s, not 5 s, for the workflow's per-trial processes and the command's start).
    return importlib.import_module(name)


def module(kind: str, workload: str):
    """``workload``'s own module of ``kind`` (KINDS), None when it has none."""
    name = installed().modules[kind].get(workload)
    return _load(name) if name else None


def modules(kind: str) -> list:
    """Every folder's own module of ``kind``, in its list's order."""
    return [_load(n) for n in installed().modules[kind].values()]


def hook(kind: str, workload: str, what: str):
    """The function ``what`` of ``workload``'s own module of ``kind`` ("normalize": its
    normalize.py; "report": its report.py), None when it has none."""
    return getattr(module(kind, workload), what, None)


def formulas() -> list:
    """The folders' normalize.py FORMULAS: (label, function) the Methods section prints."""
    return [f for m in modules("normalize") for f in getattr(m, "FORMULAS", ())]


def quantities() -> list:
    """The folders' regime.py QUANTITIES: the quantities their regime gates read."""
    return [q for m in modules("regime") for q in m.QUANTITIES]


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
