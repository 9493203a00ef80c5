"""The middle registry: the modules of each workload folder that stand on the formulas' layer, its
normalize.py (workloads/<name>/normalize.py: the rows only its runs have, from their captures and
summary). They use the shared formulas (engbench.normalize) and are read by the tables
(engbench.tables, through hook) and the paper's Methods section (FORMULAS), so they stand above
the formulas and below the tables (pyproject.toml's contracts say so); the facts of a folder (its
__init__.py, the registry engbench.workloads) stay at the bottom, its report.py and findings.py
above (the upper registry, engbench.workloads.upper).

A normalize module gives any of:
  step_rows(steps, io, vm) -> [row]                 the steps table's rows of one run
  phase_row(summary, measured, measured_start, snapshots) -> row | None   its cache_pollution row
  FORMULAS = [(label, function)]                    what the Methods section prints (docstrings)

A workload with none of its own rows has no such module and no line here."""

from __future__ import annotations

from .cache_pollution import normalize as cache_pollution
from .sysbench_update import normalize as sysbench_update

NORMALIZE = (  # one line per workload with a normalize.py, in the paper's section order
    sysbench_update,
    cache_pollution,
)
BY_NAME = {m.WORKLOAD.name: m for m in NORMALIZE}
FORMULAS = [f for m in NORMALIZE for f in getattr(m, "FORMULAS", ())]


def hook(workload: str, what: str):
    """The function ``what`` of ``workload``'s normalize.py, None when it has none."""
    return getattr(BY_NAME.get(workload), what, None)
