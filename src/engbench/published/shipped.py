"""The checker's results as a processed table, data/processed/published_checks.csv (written by
`engbench process` with the other tables; the paper's section "Numbers the source documents print,
checked" shows it), so a reviewer sees every flag without running anything.

One row per check (CHECK_COLUMNS):

    kind               arithmetic  a printed value that other printed values determine (check.py,
                                   relations.py), including part-versus-whole bounds
                       claim       a sentence of the documents against its table (claims.py)
                       superlative a best / worst / most / least / similar of a sentence against
                                   every row of its table (superlatives.py)
    document           the source document's file
    table              the published table (data/published/<table>)
    value              arithmetic: "<row> | <column>"; claim and superlative: "<id>: <words>"
    check              the relation, or the claim's rule, or the superlative's word
    expected           what the check allows: the recomputed interval, or the rule's reading
    found              the printed value, or the numbers the rule saw
    verdict            engbench.verdicts
    benign_definition  the definition under which a value that does not hold as stated is
                       consistent (an average per operation rather than a total, truncated rather
                       than rounded, ...); "" when it holds as stated or none is known
    why                the formula and its inputs

Tables no relation applies to are not rows (they have no value to judge). The quotes are not
looked up here: a clone has no source documents (`engbench check-published --sources DIR`
does it). Deterministic: the same data/published, the same bytes."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .check import NOTHING, check_paths, default_published_dir
from .claims import check_claims
from .superlatives import check as check_superlatives
from .printed_tables import load_sources

CHECK_COLUMNS = ["kind", "document", "table", "value", "check", "expected", "found", "verdict",
                 "benign_definition", "why"]
NAME = "published_checks"


def checks_table(published_dir=None) -> pd.DataFrame:
    """Every check of the published directory (default: check.default_published_dir()) as one
    frame of CHECK_COLUMNS: the arithmetic, then the claims, then the superlatives, each in the
    checker's order."""
    pdir = Path(published_dir) if published_dir else default_published_dir()
    if not pdir.is_dir():
        return pd.DataFrame(columns=CHECK_COLUMNS)
    docs = {name: ctx.get("seed_file", "") for name, ctx in load_sources(pdir / "sources.csv").items()}
    rows = []
    for f in check_paths(published_dir=pdir):
        if f.verdict == NOTHING:
            continue
        rows.append({"kind": "arithmetic", "document": docs.get(f.table, ""), "table": f.table,
                     "value": f"{f.row} | {f.column}", "check": f.relation, "expected": f.recomputed,
                     "found": f.stated, "verdict": f.verdict, "benign_definition": f.benign_definition,
                     "why": f.why})
    for c in check_claims(pdir):
        rows.append({"kind": "claim", "document": c.source, "table": c.table, "value": f"{c.id}: “{c.quote}”",
                     "check": c.rule, "expected": c.reading, "found": c.detail, "verdict": c.verdict,
                     "benign_definition": "", "why": f"column {c.column}" if c.column else ""})
    for s in check_superlatives(pdir):
        rows.append({"kind": "superlative", "document": s.source, "table": s.table, "value": f"{s.id}: {s.word}",
                     "check": f"superlative:{s.word}", "expected": s.reading, "found": s.detail,
                     "verdict": s.verdict, "benign_definition": s.benign_definition, "why": f"column {s.column}"})
    return pd.DataFrame(rows, columns=CHECK_COLUMNS)


def add_tables(tables: dict, published_dir=None) -> dict:
    """``tables`` with published_checks added: what `engbench process` and the main job write to
    data/processed beside the run tables."""
    return {**tables, NAME: checks_table(published_dir)}
