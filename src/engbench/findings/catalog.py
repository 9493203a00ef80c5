"""The findings: each claim of the source documents that a reproduction experiment
(notebooks/params/repro_*.yaml) re-measures here, with the rule that turns the measured samples into
a verdict and the gates of its experiments, collected from the workload folders: each folder whose
experiments re-measure claims states them in its findings.py (workloads/<name>/findings.py, listed
by engbench.workloads.upper, read through engbench.registry), with the rulebook (engbench.rulebook).
The words are quoted from the documents; nothing here is a measured value or a verdict.
Every claim of the documents, tested here or not (and why not), is in the inventory:
data/published/claims_inventory.csv (its finding_ids column names the findings below).

    FINDINGS     every finding, in the order of engbench.workloads.upper's FINDINGS; a module with AFTER
                 (a finding's id) puts its findings right after that one (the findings table's
                 order, data/processed/findings.csv, where one document's claims are measured on
                 two workloads' runs)
    GATES        {experiment file stem: (Gate, ...)} of every module
    MODULE_OF    {finding id: the module that states it} (history.py reads an old rule's picks there)"""

from __future__ import annotations

from .. import registry
from ..rulebook.finding import SOURCE_FILE, SOURCE_TITLE, Finding, Pick, labels


def collect(modules) -> tuple[list, dict]:
    """(FINDINGS, MODULE_OF) of `modules`, each module's findings after the previous modules' or
    right after the finding its AFTER names."""
    found, module_of = [], {}
    for m in modules:
        after = getattr(m, "AFTER", None)
        at = [f.id for f in found].index(after) + 1 if after else len(found)
        found[at:at] = m.FINDINGS
        module_of.update({f.id: m for f in m.FINDINGS})
    return found, module_of


_OWN = registry.modules("findings")
FINDINGS, MODULE_OF = collect(_OWN)
GATES: dict = {exp: gates for m in _OWN for exp, gates in m.GATES.items()}

__all__ = ["FINDINGS", "GATES", "MODULE_OF", "SOURCE_FILE", "SOURCE_TITLE", "Finding", "Pick", "collect", "labels"]
