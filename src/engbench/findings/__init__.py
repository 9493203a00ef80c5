"""Findings: the source documents' claims, re-measured by the reproduction experiments
(notebooks/params/repro_*.yaml, `engbench reproduce`) and judged by stated rules.

    findings.table(tables, published_dir) -> DataFrame   one row per claim (data/processed/findings.csv)
    findings.values(tables) -> DataFrame                 one row per claim, configuration and run (charts)

claims collects the claims (the document's words, the metric, what is compared, the rule in
words) from each workload folder's findings.py, through engbench.registry; the rulebook (engbench.rulebook) says what a finding is: its measure picks each
configuration's values out of the processed tables, its rules turn them into a verdict. The columns:

    id, source, document, words        the claim and where it comes from (source documents, data/published)
    metric, subject                    what is measured here, on what
    published                          the document's own values for it (data/published), as printed
    measured                           per configuration: mean (min–max, n=repetitions)
    rule, threshold                    the rule in words; the threshold (or band) the effect must
                                       lie beyond (within): "> 1.5", "<= 1.25", "0.8–1.25"
    effect, low, high, level, rounds   the effect the rule compares (a ratio of means, or a mean over
                                       its target), its interval [low, high] at `level` — 0.95 for a
                                       directional claim, 0.90 for an equivalence ("flat", "about",
                                       "does not grow": two one-sided tests at 5 %) — and the
                                       repetitions per side it rests on (engbench.effects; blank where
                                       nothing was compared)
    rounds_needed                      for a verdict "inconclusive here": the repetitions per side that
                                       would decide it at the measured spread (effects.rounds_needed);
                                       blank otherwise, and where no number up to effects.MAX_ROUNDS
                                       would decide it
    verdict, why                       holds / does not hold (the whole interval on the claim's side
                                       / off it) / inconclusive here (neither: why gives the rounds
                                       that would decide it) / not tested (its quantity was not
                                       captured: why says what would be needed) / not testable (a
                                       minimum count not met, or engines compared with unequal
                                       caching memory: refused) / not in the source's regime; the
                                       numbers
    gate, regime                       the regime the claim needs (regime.GATES of every compared
                                       configuration, kept to the claim's quantity and phase, with
                                       the quiet-machine gate) and what the runs measured. A
                                       configuration whose runs miss a gate is left out: the claim is
                                       judged on the configurations inside their gates when they
                                       decide it whatever the left-out ones measure (why names the
                                       left-out ones with their figures), and is "not in the
                                       source's regime" only when the left-out ones decide it
                                       (docs/findings.md)
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from .. import paths
from ..tables.processed import load_processed
from ..rulebook import measure, rules
from . import catalog, history, inventory
from .judge import evaluate, published_text

COLUMNS = ["id", "source", "document", "words", "metric", "subject", "published", "measured", "rule",
           "threshold", "effect", "low", "high", "level", "rounds", "rounds_needed", "verdict", "why", "gate",
           "regime"]
VALUE_COLUMNS = ["id", "label", "run_id", "repetition", "value"]


def table(tables: dict, published_dir=None) -> pd.DataFrame:
    """One row per finding (COLUMNS), in catalog.FINDINGS order. Deterministic."""
    pub = Path(published_dir) if published_dir else paths.REPO / "data" / "published"
    rows = []
    for f in catalog.FINDINGS:
        rows.append({"id": f.id, "source": catalog.SOURCE_FILE[f.source], "document": catalog.SOURCE_TITLE[f.source],
                     "words": f.words, "metric": f.metric, "subject": f.subject,
                     "published": published_text(pub, f.published), **evaluate(tables, f), "rule": f.rule_text})
        if rows[-1]["verdict"] != rules.INCONCLUSIVE:  # the gates decided: no rounds would decide the rule's verdict
            rows[-1]["rounds_needed"] = math.nan
    return pd.DataFrame(rows, columns=COLUMNS)


def values(tables: dict) -> pd.DataFrame:
    """The per-run values behind every finding (VALUE_COLUMNS): what its chart shows."""
    rows = [{"id": f.id, **r} for f in catalog.FINDINGS for r in measure.per_run(tables, list(f.picks))]
    return pd.DataFrame(rows, columns=VALUE_COLUMNS)


def load(processed_dir=None) -> dict:
    """The processed tables the findings are judged on: `processed_dir`, else $ENGBENCH_PROCESSED_DIR
    (data/processed) when it holds tables, else the repository's shipped data/processed (the
    shipped reproduction), so the findings notebook always has something to show."""
    for d in ([processed_dir] if processed_dir else [paths.processed_dir(), paths.REPO / "data" / "processed"]):
        if (Path(d) / "runs.parquet").is_file():
            return load_processed(d)
    return load_processed(processed_dir or paths.processed_dir())  # raises, naming what is missing


def add_tables(tables: dict, published_dir=None) -> dict:
    """`tables` (engbench.tables.build_tables) with "findings" and "findings_values" added: what
    `engbench process` and the main job write to data/processed."""
    return {**tables, "findings": table(tables, published_dir), "findings_values": values(tables)}


def tested(frame: pd.DataFrame) -> bool:
    """Whether any finding could be tested (the reproduction runs are there)."""
    return bool(len(frame)) and bool((~frame["verdict"].isin((rules.NOT_TESTABLE, rules.NOT_TESTED))).any())


__all__ = ["table", "values", "load", "add_tables", "tested", "claims", "history", "inventory", "COLUMNS", "VALUE_COLUMNS", "math"]
