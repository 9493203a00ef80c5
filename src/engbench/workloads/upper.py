"""The upper registry: the modules of each workload folder that use the machinery above the facts,
its report.py (workloads/<name>/report.py: its own tables, charts and sentences in the paper) and
its findings.py (workloads/<name>/findings.py: the source documents' claims its experiments
re-measure). The facts of a folder (its __init__.py, the registry engbench.workloads) stand at the
bottom of the package, read by every layer; these modules stand above what they use (the report
engine: engbench.report's tables, charts, prose; the rulebook: engbench.rulebook) and below what
reads this registry (engbench.report.paper, the paper; engbench.findings, which judges the
findings), so a folder holds both without a circle (pyproject.toml's contracts say so).

A report module gives any of:
  tables(exp, proc) -> (tables, note | None)   its own tables of one experiment, first in its list
  figures(exp, proc, machine) -> [(name, caption, chart | None)]   after the rate chart
  sentences(exp, proc, numbers) -> [str]       the experiment's sentences (numbers quoted go in)
  section(proc, numbers) -> (tables, sentences, charts)   its section's own, across its experiments

A findings module gives FINDINGS (rulebook.finding.Finding, in the findings table's order), GATES
({experiment file stem: (regime.Gate, ...)}) and, when its findings stand among another folder's
(one document's claims measured on two workloads' runs), AFTER: the id they follow.

A workload with none of its own has no such module and no line here (fillseq has neither, iibench
no report.py)."""

from __future__ import annotations

from .bulk_insert import findings as bulk_insert_findings
from .bulk_insert import report as bulk_insert
from .cache_pollution import findings as cache_pollution_findings
from .cache_pollution import report as cache_pollution
from .iibench import findings as iibench_findings
from .linkbench import findings as linkbench_findings
from .linkbench import report as linkbench
from .sysbench_update import findings as sysbench_update_findings
from .sysbench_update import report as sysbench_update
from .ycsb import findings as ycsb_findings
from .ycsb import report as ycsb

REPORTS = (  # one line per workload with a report.py
    sysbench_update,
    bulk_insert,
    linkbench,
    cache_pollution,
    ycsb,
)
BY_NAME = {m.WORKLOAD.name: m for m in REPORTS}

FINDINGS = (  # one line per workload with a findings.py, in the findings table's order
    iibench_findings,
    linkbench_findings,
    ycsb_findings,
    sysbench_update_findings,
    bulk_insert_findings,
    cache_pollution_findings,
)


def hook(workload: str, what: str):
    """The function ``what`` of ``workload``'s report.py, None when it has none."""
    return getattr(BY_NAME.get(workload), what, None)
