"""The paper's sections 3-7, one per source document (data/published/sources.csv): the document's own
table in its shape and units with the rows measured here beside the published ones
(engbench.report.published_vs), one or two charts, and the document's claims as a compact table
(claim, the document's words, verdict, effect: the findings frame, engbench.findings).

The effect column is the rule's measured ratio and its interval (the findings' effect, low and high
columns, engbench.effects) when the findings frame has them, else the values the finding quotes."""

from __future__ import annotations

import math

import pandas as pd

from .. import citation
from .comparison_tables import Table
from . import published_vs
from . import front
from .front import effect_text, verdict_sentence
from .roles import role

CLAIM_HEADERS = ["claim", "the document's words", "verdict", "effect (interval)"]
WORDS_CHARS = 150  # a longer quotation is cut at a word, with an ellipsis (the supplement has it whole)


def _cut(text: str, n: int = WORDS_CHARS) -> str:
    text = " ".join(str(text).split())
    if len(text) <= n:
        return text
    return text[:n].rsplit(" ", 1)[0] + " …"


def claims_table(frame: pd.DataFrame, doc: str) -> Table | None:
    """One row per finding of source document `doc` ("003"): id, words, verdict, effect."""
    f = frame[frame["source"].astype(str).str.startswith(doc)]
    if f.empty:
        return None
    has_effect = "effect" in f
    eff = [effect_text(r.get("effect"), r.get("low"), r.get("high")) if has_effect else _cut(r["measured"], 60)
           for r in f.to_dict("records")]
    printed = pd.DataFrame({"claim": f["id"].str[4:], "the document's words": ["“" + _cut(w) + "”" for w in f["words"]],
                            "verdict": f["verdict"], "effect (interval)": eff}, columns=CLAIM_HEADERS)
    return Table(f"paper.claims.{doc}", f"Source {doc}: its claims, measured here",
                 f"{len(f)} claims ({verdict_sentence(f)}). Effect: the ratio the claim's rule compares "
                 "(its threshold in the supplement), mean over mean, with its 95 % interval (Fieller, "
                 "engbench.effects); each claim's gates, values and rule are in the supplement's Findings.",
                 printed.reset_index(drop=True), pd.DataFrame(), left=3)


def documents(published_dir) -> list[dict]:
    """seed ("000"), title, author, date, url of each source document, in seed order."""
    return sorted(({"seed": d["seed"], "title": d["title"], "author": d["author"], "date": d["date"],
                    "url": d["url"]} for d in citation.documents(published_dir)), key=lambda d: d["seed"])


CHARTS = 2  # per section: the findings with a decided verdict whose effects lie farthest from 1


def charts(frame: pd.DataFrame, doc: str, items: list) -> list[tuple[str, str]]:
    """(caption, figure path) of at most CHARTS findings of document `doc`: those with a chart
    (items: engbench.report.findings.build's, "figure") and a decided verdict, the largest |ln effect|
    first (front.headlines' measure), else in the findings' order."""
    figs = {i["id"]: i.get("figure") for i in items if i.get("figure")}
    f = frame[frame["source"].astype(str).str.startswith(doc) & frame["id"].isin(figs)
              & frame["verdict"].isin(front.DECIDED)]
    if "effect" in f:
        eff = pd.to_numeric(f["effect"], errors="coerce")
        f = f.assign(size=[abs(math.log(x)) if x == x and x > 0 and math.isfinite(x) else -1 for x in eff])
        f = f.sort_values("size", ascending=False, kind="stable")
    return [(f"{r['id']} ({r['verdict']}): {r['metric']}; {r['subject']}. Each dot one repetition, the tick "
             "their mean.", figs[r["id"]]) for r in f.head(CHARTS).to_dict("records")]


def sections(frame: pd.DataFrame, published_dir, proc: dict | None = None, items: list = (),
             checks: pd.DataFrame | None = None) -> list[dict]:
    """One dict per source document: seed, title, date, key (its citation), claims (Table | None),
    counts (verdict sentence), tables (its own tables, published beside here: published_vs), figures
    (charts: the findings' own charts, in the supplement too)."""
    out = []
    for d in documents(published_dir):
        f = frame[frame["source"].astype(str).str.startswith(d["seed"])]
        mine = published_vs.reproduction(proc["runs"], d["seed"]) if proc else pd.DataFrame(columns=["experiment", "engine"])
        engines = ", ".join(role(e) for e in sorted(mine["engine"].unique()))
        out.append({**d, "key": f"source-{d['seed']}", "claims": claims_table(frame, d["seed"]),
                    "reproduced": (f"Reproduced here by {mine['experiment'].nunique()} experiments, {len(mine)} runs "
                                   f"({engines}).") if len(mine) else "No reproduction experiment ran for it.",
                    "verdicts": verdict_sentence(f) if len(f) else "none", "n_claims": len(f),
                    "tables": published_vs.tables(d["seed"], proc, published_dir, checks) if proc else [],
                    "figures": charts(frame, d["seed"], list(items))})
    return out
