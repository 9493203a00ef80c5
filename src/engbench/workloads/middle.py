"""The middle registry: the modules of each workload folder that stand on the formulas' layer, its
normalize.py (workloads/<name>/normalize.py: the rows only its runs have, from their captures and
summary) and its regime.py (workloads/<name>/regime.py: the quantities its regime gates read). They
use the shared formulas (engbench.normalize) and the shape of a quantity (engbench.rulebook.quantity)
and are read by the tables (engbench.tables, through hook), the paper's Methods section (FORMULAS)
and the regime gates (engbench.rulebook.regime, QUANTITIES), so they stand above the formulas and
below their readers (pyproject.toml's contract middle-modules-below-their-readers); the facts of a
folder (its __init__.py, the registry engbench.workloads) stay at the bottom, its report.py and
findings.py above (the upper registry, engbench.workloads.upper).

A normalize module gives any of:
  step_rows(steps, io, vm) -> [row]                 the steps table's rows of one run
  phase_row(summary, measured, measured_start, snapshots) -> row | None   its cache_pollution row
  FORMULAS = [(label, function)]                    what the Methods section prints (docstrings)
A regime module gives QUANTITIES = [rulebook.quantity.Quantity]: its gates' quantities (named apart
from rulebook.regime's shared ones and every other folder's).

A workload with none of its own rows or quantities has no such module and no line here."""

from __future__ import annotations

from .cache_pollution import normalize as cache_pollution
from .cache_pollution import regime as cache_pollution_regime
from .sysbench_update import normalize as sysbench_update

NORMALIZE = (  # one line per workload with a normalize.py, in the paper's section order
    sysbench_update,
    cache_pollution,
)
BY_NAME = {m.WORKLOAD.name: m for m in NORMALIZE}
FORMULAS = [f for m in NORMALIZE for f in getattr(m, "FORMULAS", ())]

REGIME = (  # one line per workload with a regime.py
    cache_pollution_regime,
)
QUANTITIES = [q for m in REGIME for q in m.QUANTITIES]


def hook(workload: str, what: str):
    """The function ``what`` of ``workload``'s normalize.py, None when it has none."""
    return getattr(BY_NAME.get(workload), what, None)
