"""The paper's own text around the source-document sections: the abstract's numbers (claims
tested, verdict counts, the headline effects), the Method section's table of how each
reproduction keeps its source's ratios, and the counts the threats and the conclusion quote.

Everything is computed from the findings frame (engbench.findings.table, data/processed/findings.csv)
and the runs table; nothing is typed. A headline effect is the finding, among those with a decided
verdict (holds, does not hold), whose effect (the rule's measured ratio, engbench.effects) lies
farthest from 1 on a log scale: |ln effect| largest, one for each decided verdict.

numbers.json keys: front.tested, front.verdict.<verdict> (spaces and quotes as _), front.headline.<k>.*
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from .. import verdicts
from .comparison_tables import Table

DECIDED = (verdicts.HOLDS, verdicts.FAILS)


def _key(verdict: str) -> str:
    return verdict.replace(" ", "_").replace("'", "")


def verdict_counts(frame: pd.DataFrame) -> list[tuple[str, int]]:
    """(verdict, claims) in the order holds, does not hold, then the others by count."""
    counts = frame["verdict"].value_counts() if len(frame) else pd.Series(dtype=int)
    first = [v for v in DECIDED if v in counts.index]
    rest = sorted((v for v in counts.index if v not in DECIDED), key=lambda v: (-counts[v], v))
    return [(v, int(counts[v])) for v in first + rest]


def effect_text(effect, low, high) -> str:
    """"2.57× (2.24–2.92)": the effect and its interval, 2 decimals (3 significant digits below 0.1)."""
    def f(x):
        return "NA" if x is None or x != x else (f"{x:.2f}" if abs(x) >= 0.1 or x == 0 else f"{x:.2g}")
    if effect is None or effect != effect:
        return "—"
    return f"{f(effect)}×" + (f" ({f(low)}–{f(high)})" if low == low and high == high else "")


def headlines(frame: pd.DataFrame) -> list[dict]:
    """Per decided verdict, the finding whose effect is farthest from 1 (module docstring)."""
    if "effect" not in frame:
        return []
    out = []
    for v in DECIDED:
        g = frame[(frame["verdict"] == v)]
        eff = pd.to_numeric(g["effect"], errors="coerce")
        g = g[(eff > 0) & eff.map(lambda x: math.isfinite(x) if x == x else False)]
        if g.empty:
            continue
        row = g.loc[pd.to_numeric(g["effect"]).map(lambda x: abs(math.log(x))).idxmax()]
        out.append({"id": row["id"], "source": str(row["source"])[:3], "words": row["words"], "verdict": v,
                    "metric": row["metric"], "subject": row["subject"],
                    "effect": effect_text(row["effect"], row.get("low"), row.get("high"))})
    return out


def numbers(frame: pd.DataFrame) -> dict:
    """numbers.json entries of the abstract (module docstring)."""
    n = {"front.tested": str(len(frame))}
    n.update({f"front.verdict.{_key(v)}": str(c) for v, c in verdict_counts(frame)})
    for i, h in enumerate(headlines(frame)):
        n[f"front.headline.{i}.effect"] = h["effect"]
    return n


def verdict_sentence(frame: pd.DataFrame) -> str:
    """"29 hold, 14 do not hold, 12 are not in the source's regime, 4 are not testable"."""
    words = {verdicts.HOLDS: ("holds", "hold"), verdicts.FAILS: ("does not hold", "do not hold")}
    parts = [f"{c} {words.get(v, ('is ' + v, 'are ' + v))[c != 1]}" for v, c in verdict_counts(frame)]
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] if parts else "none"


def _mib(x) -> str:
    if x is None or x != x:
        return "—"
    if x < 2**20:
        return f"{x / 2**10:.0f} KiB"
    return f"{x / 2**30:g} GiB" if x >= 2**30 and (x / 2**30) == round(x / 2**30, 1) else f"{x / 2**20:.0f} MiB"


def tables_of(doc: str, published_dir) -> list[pd.DataFrame]:
    """The printed tables of one source document (data/published/<doc>_*.csv)."""
    return [pd.read_csv(f) for f in sorted(Path(published_dir).glob(f"{doc}_*.csv"))]


def scaling_table(runs: pd.DataFrame, published: pd.DataFrame, published_dir) -> Table:
    """Per source document: its cache (and memory) as printed (data/published/numbers_in_text.csv
    and its tables) beside the reproduction's (runs: engine_cache_bytes and limit.memory_bytes,
    medians over the document's reproduction runs), and the data a cache holds as the runs
    measured it (index bytes ÷ engine cache, where the runs record index bytes)."""
    rows = []
    for doc in sorted({str(e)[len("reproduce "):len("reproduce ") + 3] for e in runs["experiment"].dropna()
                       if str(e).startswith("reproduce ")}):
        mine = runs[runs["experiment"].astype(str).str.startswith(f"reproduce {doc}")]
        said = published[published["seed_file"].str.startswith(doc)]
        said = said[said["quantity"].str.contains("cache|RAM", case=False, regex=True)
                    & ~said["quantity"].str.contains("threshold|extra|less", case=False, regex=True)]
        source = "; ".join(dict.fromkeys(f"{q} {v} {u}" for q, v, u in
                                         zip(said["quantity"], said["value_as_printed"], said["unit"]))) or "—"
        tabled = [f"{c.replace('_gb', '')} {', '.join(map(str, sorted(set(t[c].dropna()), reverse=True)))} GB"
                  for t in tables_of(doc, published_dir) for c in t.columns if c == "cache_gb"]
        source = "; ".join([source] * (source != "—") + tabled) or "—"
        here = []
        engines = ["wiredtiger"] if (mine["engine"] == "wiredtiger").any() else sorted(mine["engine"].unique())
        g = mine[mine["engine"].isin(engines)]
        g = g.assign(cache=pd.to_numeric(g["engine_cache_bytes"], errors="coerce"),
                     mem=pd.to_numeric(g.get("limit.memory_bytes"), errors="coerce"),
                     idx=pd.to_numeric(g.get("index_bytes"), errors="coerce"))
        g["ratio"] = g["idx"] / g["cache"]
        for (engine, cache, mem), h in g.groupby(["engine", "cache", "mem"], sort=True, dropna=False):
            r = h["ratio"][h["ratio"].map(math.isfinite)]
            here.append(f"{engine} cache {_mib(cache)}" + (f", memory {_mib(mem)}" if mem == mem else "")
                        + (f": index ≈ {r.median():.2f}× cache" if len(r) else ""))
        rows.append([doc, source, "; ".join(here), str(len(mine))])
    printed = pd.DataFrame(rows, columns=["source", "the source's setting (as printed)",
                                          "here (the runs' B-tree, else each engine)", "runs"])
    return Table("method.scaling", "How each reproduction scales its source",
                 "The source's cache and memory as its text prints them (data/published/numbers_in_text.csv) "
                 "and, per reproduction experiment, the engine cache and memory limit its runs recorded "
                 "(runs.engine_cache_bytes, limit.memory_bytes) and the index those runs built against the "
                 "cache (runs.index_bytes ÷ engine_cache_bytes). The regime gates check these ratios run by run.",
                 printed, pd.DataFrame(), left=3)
