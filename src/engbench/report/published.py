"""The paper's section "Numbers the source documents print, checked": the published checks
(engbench.published.shipped.checks_table, the processed table data/processed/published_checks.csv)
counted by kind and verdict, every value or superlative that does not simply hold (with the
definition under which it is consistent, where there is one), and every sentence that does not
hold or cannot be tested."""

from __future__ import annotations

import pandas as pd

from .. import verdicts
from ..published import checks_table
from .comparison_tables import Table

KINDS = ("arithmetic", "claim", "superlative")
FLAG_HEADERS = ["source", "table", "value", "check", "printed", "allowed", "verdict", "the definition it fits"]
CLAIM_HEADERS = ["source", "claim", "table", "rule", "verdict", "why"]


def _source(document: str) -> str:
    return str(document)[:3]


# the counts the paper's text quotes, per kind (numbers.json: published.<kind>[.<verdict>])
QUOTED = {"arithmetic": (verdicts.HOLDS, verdicts.HOLDS_OTHERWISE, verdicts.FAILS, verdicts.NOT_TESTABLE),
          "claim": (verdicts.HOLDS, verdicts.FAILS, verdicts.NOT_TESTABLE),
          "superlative": (verdicts.HOLDS, verdicts.HOLDS_OTHERWISE, verdicts.FAILS)}


def numbers(frame: pd.DataFrame) -> dict:
    """numbers.json entries: published.<kind> (checks of that kind) and published.<kind>.<verdict>
    (QUOTED; spaces as underscores). A kind's other verdicts are its remainder: a claim never
    holds under another definition; a superlative is not testable only for a column whose better
    direction is unknown, and none is."""
    out = {}
    for kind, vs in QUOTED.items():
        g = frame[frame["kind"] == kind]
        out[f"published.{kind}"] = str(len(g))
        for v in vs:
            out[f"published.{kind}.{v.replace(' ', '_')}"] = str(int((g["verdict"] == v).sum()))
    return out


def flags_table(frame: pd.DataFrame) -> Table:
    """Every printed value and superlative whose verdict is not "holds"."""
    f = frame[frame["kind"].isin(("arithmetic", "superlative")) & (frame["verdict"] != verdicts.HOLDS)]
    printed = pd.DataFrame({"source": f["document"].map(_source), "table": f["table"], "value": f["value"],
                            "check": f["check"], "printed": f["found"], "allowed": f["expected"],
                            "verdict": f["verdict"], "the definition it fits": f["benign_definition"].replace("", "—")},
                           columns=FLAG_HEADERS)
    return Table("published_checks.flags", "Printed values and superlatives that do not simply hold",
                 "Every value a relation recomputes from other printed values (at printed precision), every "
                 "part bounded by its whole, every best/worst/most/least/similar read against all rows of its "
                 "table, whose verdict is not “holds”; “holds under another definition” names the definition "
                 "the numbers fit (data/processed/published_checks.csv, engbench.published).",
                 printed.reset_index(drop=True), pd.DataFrame())


def claims_table(frame: pd.DataFrame) -> Table:
    """Every sentence of the documents whose verdict is "does not hold" or "not testable"."""
    c = frame[(frame["kind"] == "claim") & frame["verdict"].isin((verdicts.FAILS, verdicts.NOT_TESTABLE))]
    printed = pd.DataFrame({"source": c["document"].map(_source), "claim": c["value"], "table": c["table"],
                            "rule": c["check"], "verdict": c["verdict"],
                            "why": [f or e for f, e in zip(c["found"], c["expected"])]}, columns=CLAIM_HEADERS)
    return Table("published_checks.claims", "Sentences of the source documents that do not hold or cannot be tested",
                 "Each sentence (data/published/claims_in_text.csv) checked against its document's own table by "
                 "its rule; why: the numbers the rule saw, or why it cannot be tested.",
                 printed.reset_index(drop=True), pd.DataFrame())


def build(published_dir=None) -> tuple[pd.DataFrame, dict, list]:
    """(the checks frame, its numbers.json entries, [flags table, claims table])."""
    frame = checks_table(published_dir)
    return frame, numbers(frame), [flags_table(frame), claims_table(frame)]
