"""The paper's section "Numbers the source documents print, checked": the published checks
(engbench.published.shipped.checks_table, the processed table data/processed/published_checks.csv)
counted by kind and verdict, every value or superlative that does not simply hold (with the
definition under which it is consistent, where there is one), and every sentence that does not
hold or cannot be tested."""

from __future__ import annotations

import re

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


# --- the paper's section 8: what does not hold first, with its size; other definitions collapsed -------

GRADES = ((1e-4, "immaterial (< 0.01 %)"), (1e-2, "small (< 1 %)"), (1e-1, "material (1–10 %)"),
          (float("inf"), "large (≥ 10 %)"))
FAIL_HEADERS = ["source", "printed value", "printed", "recomputed", "difference", "relative", "materiality", "the checker's reason"]
DEFINITION_HEADERS = ["definition the numbers fit", "values", "sources", "example: printed (allowed)", "the checker's reason"]


def _numbers(text) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"-?(?:inf|\d[\d,]*\.?\d*(?:e[+-]?\d+)?)", str(text))]


def size(found, expected) -> tuple[float, float, float]:
    """(recomputed, difference, relative difference) of a printed value against what its check allows:
    one number (recomputed = it) or an interval [lo, hi] (recomputed = its bound nearest the printed
    value); difference = printed − recomputed, relative = difference ÷ |recomputed| (NaN when either
    is not a number or recomputed is 0)."""
    f, e = _numbers(found), _numbers(expected)
    if len(f) != 1 or not e:
        return float("nan"), float("nan"), float("nan")
    x = f[0]
    ref = e[0] if len(e) == 1 else min(max(x, e[0]), e[1])
    diff = x - ref
    return ref, diff, (diff / abs(ref) if ref not in (0, float("inf"), float("-inf")) else float("nan"))


def grade(relative: float) -> str:
    """The materiality of a relative difference: GRADES (the first bound |relative| lies below)."""
    if relative != relative:
        return "—"
    return next(g for bound, g in GRADES if abs(relative) < bound)


def _rel(r: float) -> str:
    if r != r:
        return "—"
    return f"{r * 1e6:+.1f} ppm" if abs(r) < 1e-3 else f"{r * 100:+.1f} %"


def _num(x: float) -> str:
    if x != x:
        return "—"
    return f"{x:,.0f}" if abs(x) >= 1000 or x == int(x) else f"{x:.4g}"


def failing_table(frame: pd.DataFrame) -> Table:
    """Every printed value or superlative that does not hold, largest relative difference first."""
    f = frame[frame["kind"].isin(("arithmetic", "superlative")) & (frame["verdict"] == verdicts.FAILS)]
    rows = []
    for r in f.to_dict("records"):
        ref, diff, rel = size(r["found"], r["expected"])
        rows.append((abs(rel) if rel == rel else -1, [_source(r["document"]), f"{r['table']}: {r['value']}", str(r["found"]),
                     _num(ref) if ref == ref else str(r["expected"]), _num(diff), _rel(rel), grade(rel), str(r.get("why") or "")]))
    rows = [r for _, r in sorted(rows, key=lambda t: -t[0])]
    return Table("paper.published.failing", "Printed values that do not hold",
                 "Each printed value that the numbers determining it contradict: the value recomputed from them "
                 "(the nearest bound where the check allows a range), the difference printed − recomputed, "
                 "relative to the recomputed value, and its materiality (below 0.01 %, 1 %, 10 %, or above); "
                 "the checker's reason names the relation and its inputs (engbench.published).",
                 pd.DataFrame(rows, columns=FAIL_HEADERS), pd.DataFrame(), left=2, text=(6, 7))


def definitions_table(frame: pd.DataFrame) -> Table:
    """The values that hold only under another definition, one row per definition with a count."""
    f = frame[frame["verdict"] == verdicts.HOLDS_OTHERWISE]
    rows = []
    for d, g in f.groupby(f["benign_definition"].fillna("—"), sort=False):
        first = g.iloc[0]
        rows.append([str(d), str(len(g)), ", ".join(sorted({_source(x) for x in g["document"]})),
                     f"{first['value']}: {first['found']} ({first['expected']})", str(first.get("why") or "")])
    rows.sort(key=lambda r: -int(r[1]))
    return Table("paper.published.definitions", "Printed values that hold under another definition",
                 "One row per definition the printed numbers fit instead of the one the document states, with how "
                 "many values fit it and one example (printed, and the range the stated definition allows).",
                 pd.DataFrame(rows, columns=DEFINITION_HEADERS), pd.DataFrame(), left=1, text=(2, 3, 4))


def paper_tables(frame: pd.DataFrame) -> list[Table]:
    """The paper's section 8: failing_table, definitions_table, and the sentences that do not hold."""
    c = frame[(frame["kind"] == "claim") & (frame["verdict"] == verdicts.FAILS)]
    sentences = Table("paper.published.sentences", "Sentences that their own tables contradict",
                      "Each sentence checked against its document's printed table by its rule; why: the numbers the "
                      "rule saw.", pd.DataFrame({"source": c["document"].map(_source), "sentence": c["value"],
                                                  "why": [f or e for f, e in zip(c["found"], c["expected"])]},
                                                 columns=["source", "sentence", "why"]).reset_index(drop=True),
                      pd.DataFrame(), left=3)
    return [failing_table(frame), definitions_table(frame), sentences]
