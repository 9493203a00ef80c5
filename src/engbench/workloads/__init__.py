"""The workload folders, one per workload (workloads/<name>/, the mirror of
driver/src/workloads/<name>/), registered in one place: FOLDERS below (and their own modules in middle.py and upper.py). What each workload is
(its entry: operation unit, bases, tables, chart titles, section introduction, references,
notebook, what it writes) is its folder's __init__.py; its own rows and regime quantities its
normalize.py and regime.py (listed in middle.py), its own part of the paper and its findings its
report.py and findings.py (listed in upper.py). docs/adding-a-workload.md walks through one.

The folders stand above the shared machinery they use (the formulas, the report engine, the
rulebook), which knows no workload by name and reads them through engbench.registry: this module
hands them in (registry.install: the entries, and the names of the folders' own modules, which the
registry loads when first asked) when the package engbench is imported (engbench/__init__.py). A
workload the registry does not know counts the requests of all its ops (unit request)."""

from __future__ import annotations

from .. import registry
from . import bulk_insert, cache_pollution, fillseq, iibench, linkbench, middle, sysbench_update, upper, ycsb

FOLDERS = (  # one line per workload, in the paper's section order
    iibench,
    fillseq,
    sysbench_update,
    bulk_insert,
    linkbench,
    cache_pollution,
    ycsb,
)
OWN = {"normalize": middle.NORMALIZE, "regime": middle.REGIME, "report": upper.REPORTS, "findings": upper.FINDINGS}
registry.install([f.WORKLOAD for f in FOLDERS],
                 {kind: {f.WORKLOAD.name: f"{f.__name__}.{kind}" for f in folders} for kind, folders in OWN.items()})
WORKLOADS = {f.WORKLOAD.name: f.WORKLOAD for f in FOLDERS}
