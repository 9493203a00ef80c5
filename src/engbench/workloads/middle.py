"""The modules of each workload folder that use the formulas: its normalize.py
(workloads/<name>/normalize.py: the rows only its runs have, from their captures and summary) and
its regime.py (workloads/<name>/regime.py: the quantities its regime gates read). They use the
shared formulas (engbench.normalize) and the shape of a quantity (engbench.rulebook.quantity) and
are read, through engbench.registry (hook, formulas, quantities), by the tables, the paper's
Methods section and the regime gates. The lists below name the folders that have such a module;
the registry loads the module (<folder>.normalize, <folder>.regime) when first asked for it.

A normalize module gives any of:
  step_rows(steps, io, vm) -> [row]                 the steps table's rows of one run
  phase_row(summary, measured, measured_start, snapshots) -> row | None   its cache_pollution row
  FORMULAS = [(label, function)]                    what the Methods section prints (docstrings)
A regime module gives QUANTITIES = [rulebook.quantity.Quantity]: its gates' quantities (named apart
from rulebook.regime's shared ones and every other folder's).

A workload with none of its own rows or quantities has no such module and no line here."""

from __future__ import annotations

from . import cache_pollution, sysbench_update

NORMALIZE = (  # one line per workload with a normalize.py, in the paper's section order
    sysbench_update,
    cache_pollution,
)

REGIME = (  # one line per workload with a regime.py
    cache_pollution,
)
