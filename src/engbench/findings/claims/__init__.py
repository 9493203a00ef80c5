"""The findings: each claim of the source documents that a reproduction experiment
(notebooks/params/repro_*.yaml) re-measures here, with the rule that turns the measured samples into
a verdict (rules.py) and the gates of its experiments (regime.py), one module per source document:
s000 (LinkBench), s001 (sysbench update), s002 (bulk insert), s003 (iibench cache sweep), s004
(read_once). The words are quoted from the documents; nothing here is a measured value or a verdict.
Every claim of the documents, tested here or not (and why not), is in the inventory:
data/published/claims_inventory.csv (its finding_ids column names the findings below)."""

from __future__ import annotations

from . import s000, s001, s002, s003, s004
from ...rulebook.finding import SOURCE_FILE, SOURCE_TITLE, Finding, Pick, labels

_MODULES = (s003, s000, s001, s002, s004)
FINDINGS: list[Finding] = [f for m in _MODULES for f in m.FINDINGS]
GATES: dict = {exp: gates for m in _MODULES for exp, gates in m.GATES.items()}

__all__ = ["FINDINGS", "GATES", "SOURCE_FILE", "SOURCE_TITLE", "Finding", "Pick", "labels"]
