"""Superlatives in the documents' prose, read against every row of the table they describe.

A sentence of claims_in_text.csv that says "best", "worst", "most", "least" (or "highest",
"fewest", ...) or "similar" makes a statement about the rows of its table that does not depend on
how the claim was encoded: its direction comes from the word and, for "best" and "worst", from
which way is better for the column (BETTER: a rate is better higher, a cost lower). This module
derives that test from the words alone and applies it to the table's rows:

    max (most, highest, largest, best of a higher-is-better column, ...):
        holds ⇔ every row of the group is above every other row of the table
    min (least, fewest, lowest, smallest, worst of a higher-is-better column, ...):
        holds ⇔ every row of the group is below every other row of the table
    similar:
        holds ⇔ every row of the group is within 10 % of every row it is compared with (the
        claim's `versus` rows); when that fails across all rows but holds with the rows paired on
        one identifying column (the same compressor, the same clients), the verdict is "holds
        under another definition", that pairing being the definition

and says whether the claim's own rule (claims.py) reads the word the same way: a claim encoded as
`extreme_min` for "best throughput" is a claim that does not hold, whatever its rows say."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..verdicts import FAILS, HOLDS, HOLDS_OTHERWISE, NOT_TESTABLE
from .claim_rules import extreme
from .claims import CLAIMS_FILE, number, SourceTable, load_claims, parse_selector
from .values import fmt_number

WORDS = {"most": "max", "highest": "max", "largest": "max", "biggest": "max",
         "least": "min", "fewest": "min", "lowest": "min", "smallest": "min",
         "best": "better", "fastest": "better", "worst": "worse", "slowest": "worse", "similar": "similar"}
WORD = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.I)
# which way a column of data/published is better (needed only for best / worst / fastest / slowest)
BETTER = {"ips": "higher", "tps": "higher", "read_ops_per_s_avg": "higher", "iostat_reads_per_s": "lower",
          "wkb_per_insert": "lower", "wkb_per_txn": "lower", "rkb_per_txn": "lower", "reads_per_txn": "lower",
          "mcpu_per_insert": "lower", "mcpu_per_txn": "lower", "size_gb": "lower", "db_size_gb": "lower",
          "disk_reads_per_update": "lower", "scan_time_ms": "lower", "rss_gb": "lower"}
SIMILAR = 0.10  # claims.py's "similar": within 10 %


@dataclass(frozen=True)
class Superlative:
    id: str
    source: str
    word: str
    table: str
    column: str
    reading: str
    verdict: str
    detail: str
    benign_definition: str = ""


def direction(word: str, column: str) -> str | None:
    """max, min or similar for ``word`` about ``column`` (None: which way is better is unknown)."""
    d = WORDS[word.lower()]
    if d in ("better", "worse"):
        better = "lower" if column.startswith("p99") else BETTER.get(column)  # a latency: lower is better
        if better is None:
            return None
        return {("better", "higher"): "max", ("better", "lower"): "min",
                ("worse", "higher"): "min", ("worse", "lower"): "max"}[(d, better)]
    return d


def _within(a: list, b: list, tol: float) -> tuple[bool, float]:
    vals = a + b
    lo, hi = min(vals), max(vals)
    r = hi / lo if lo else float("inf")
    return r <= 1 + tol, r


def _similar_paired(t: SourceTable, rows, others, col, claim) -> str:
    """The identifying column on which pairing ``rows`` with ``others`` makes every pair similar
    (each row paired with the rows of the other group that share its value), or ""."""
    selectors = {c for c, _ in parse_selector(claim.rows)} | {c for c, _ in parse_selector(claim.versus)}
    for key in t.header:
        if key in selectors or key == col or key.endswith("_as_printed"):
            continue
        values = {r[key] for r in rows}
        if len(values) < 2 or values != {r[key] for r in others}:
            continue
        ok = all(_within([number(r, col, claim)], [number(o, col, claim) for o in others if o[key] == r[key]],
                         SIMILAR)[0] for r in rows)
        if ok:
            return key
    return ""


def check_claim(claim, published_dir: Path, cache: dict) -> list[Superlative]:
    """One result per superlative word of the claim's quote (none for a claim without one or
    without a table to read)."""
    words = list(dict.fromkeys(w.lower() for w in WORD.findall(claim.quote)))
    if not words or claim.rule == "not_checkable" or not claim.table:
        return []
    if claim.table not in cache:
        cache[claim.table] = SourceTable(published_dir / claim.table)
    t = cache[claim.table]
    out = []
    for col in [c.strip() for c in claim.column.split(",") if c.strip()]:
        t.need([col], claim)
        rows = t.select(claim.rows, claim)
        for word in words:
            d = direction(word, col)
            base = dict(id=claim.id, source=claim.seed_file, word=word, table=claim.table, column=col)
            if d is None:
                out.append(Superlative(**base, reading=f"{word}: which way is better for {col} is not known",
                                       verdict=NOT_TESTABLE, detail=""))
                continue
            if d == "similar":
                if not claim.versus:
                    out.append(Superlative(**base, reading="similar: to what is not said (no versus rows)",
                                           verdict=NOT_TESTABLE, detail=""))
                    continue
                others = t.select(claim.versus, claim)
                a, b = [number(r, col, claim) for r in rows], [number(r, col, claim) for r in others]
                ok, r = _within(a, b, SIMILAR)
                detail = f"{', '.join(map(fmt_number, a))} vs {', '.join(map(fmt_number, b))}: max/min {r:.3g}"
                reading = f"similar: every row within {SIMILAR:.0%} of every row compared with"
                key = "" if ok else _similar_paired(t, rows, others, col, claim)
                verdict = HOLDS if ok else (HOLDS_OTHERWISE if key else FAILS)
                out.append(Superlative(**base, reading=reading, verdict=verdict, detail=detail,
                                       benign_definition=f"like for like: rows paired on {key}" if key else ""))
                continue
            others = [r for r in t.rows if r not in rows]
            ok, detail = extreme([number(r, col, claim) for r in rows], [number(r, col, claim) for r in others], d)
            reading = (f"{word} = the {'highest' if d == 'max' else 'lowest'} {col} of every row of the table"
                       + (f" ({col}: {BETTER.get(col, 'lower')} is better)" if WORDS[word] in ("better", "worse") else ""))
            encoded = {"extreme_max": "max", "extreme_min": "min"}.get(claim.rule)
            if encoded is not None and encoded != d:
                ok, detail = False, f"the claim's rule {claim.rule} reads '{word}' the other way; {detail}"
            out.append(Superlative(**base, reading=reading, verdict=HOLDS if ok else FAILS, detail=detail))
    return out


def check(published_dir) -> list[Superlative]:
    """Every superlative of <published_dir>/claims_in_text.csv ([] without that file)."""
    pdir = Path(published_dir)
    path = pdir / CLAIMS_FILE
    if not path.exists():
        return []
    cache: dict = {}
    return [s for claim in load_claims(path) for s in check_claim(claim, pdir, cache)]
