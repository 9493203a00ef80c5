"""The modules of each workload folder that use the machinery above the formulas: its report.py
(workloads/<name>/report.py: its own tables, charts and sentences in the paper) and its findings.py
(workloads/<name>/findings.py: the source documents' claims its experiments re-measure). They stand
above what they use (the report engine: engbench.report's tables, charts, prose; the rulebook:
engbench.rulebook) and are read, through engbench.registry (hook, modules), by the paper
(engbench.report.paper) and the findings (engbench.findings), which so import no folder. The
lists below name the folders that have such a module; the registry loads the module
(<folder>.report, <folder>.findings) when first asked for it.

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

from . import bulk_insert, cache_pollution, iibench, linkbench, sysbench_update, ycsb

REPORTS = (  # one line per workload with a report.py
    sysbench_update,
    bulk_insert,
    linkbench,
    cache_pollution,
    ycsb,
)

FINDINGS = (  # one line per workload with a findings.py, in the findings table's order
    iibench,
    linkbench,
    ycsb,
    sysbench_update,
    bulk_insert,
    cache_pollution,
)

