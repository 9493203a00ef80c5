"""The upper registry: each workload folder's report.py (workloads/<name>/report.py), the half of
the folder that uses the report engine: its own tables, charts and sentences in the paper. The
facts of a folder (its __init__.py, the registry engbench.workloads) stand at the bottom of the
package, read by every layer; these modules stand above the report engine (engbench.report's
tables, charts, prose) and below what assembles the paper (engbench.report.paper, its
only reader), so a folder holds both without a circle (pyproject.toml's contracts say so).

A report module gives any of:
  tables(exp, proc) -> (tables, note | None)   its own tables of one experiment, first in its list
  figures(exp, proc, machine) -> [(name, caption, chart | None)]   after the rate chart
  sentences(exp, proc, numbers) -> [str]       the experiment's sentences (numbers quoted go in)
  section(proc, numbers) -> (tables, sentences, charts)   its section's own, across its experiments

A workload with none of its own (iibench, fillseq) has no report.py and no line here."""

from __future__ import annotations

from .bulk_insert import report as bulk_insert
from .cache_pollution import report as cache_pollution
from .linkbench import report as linkbench
from .sysbench_update import report as sysbench_update
from .ycsb import report as ycsb

REPORTS = (  # one line per workload with a report.py
    sysbench_update,
    bulk_insert,
    linkbench,
    cache_pollution,
    ycsb,
)
BY_NAME = {m.WORKLOAD.name: m for m in REPORTS}


def hook(workload: str, what: str):
    """The function ``what`` of ``workload``'s report.py, None when it has none."""
    return getattr(BY_NAME.get(workload), what, None)
