"""Check the sentences of the source documents against their own tables.

`data/published/claims_in_text.csv` holds, one row per claim, a sentence quoted verbatim from a
source document, the published table and column(s) it summarizes, and a rule from the small
vocabulary below that turns the sentence into a test on the table's rows. The verdict is computed
from the rows, never typed, in engbench.verdicts' words: `holds` or `does not hold` (a trend the rows
contradict, a list whose labels differ from the table's). A claim whose numbers the document does
not print (a graph it does not reproduce) has rule `not_checkable` and is listed as `not testable`,
with the reason in `reading`, so that the list of claims is complete.

Values are the numbers as printed (the midpoint of their rounding interval, `values.parse_printed`):
a trend in words is a statement about the printed numbers the author was looking at.

How the words are read (each claim row carries its numbers in `factor` / `tolerance`, so a reviewer
can see and change them):

- "more", "less", "better", "worse", "fewer" (bare): strict > or <, factor 1.
- "much", "a lot", "fast": factor ≥ 1.5.  "huge": factor ≥ 2.
- "about N×", "twice", "2X": the ratio lies within N / 1.25 … N × 1.25 (tolerance 0.25).
- "similar", "insensitive", "none" (no spike), "not significant": within 10 % (tolerance 0.10).
- "does not grow / increase": no step grows by more than 5 % (tolerance 0.05).
- "best", "worst", "most", "least": every row of the named group beyond every other row.

Row selection, by header names (a table lacking a named column is refused):
``rows`` / ``versus`` are ``col=v1|v2; col2=v`` (a row matches when each named column has one of
the values); ``versus_table`` takes the ``versus`` rows from another table. ``by`` pairs the two
groups on the values of its columns (the rule must hold for every pair); without it each group is
reduced to one number (``agg``: mean, default, or sum). ``along`` orders a series
(``cache_gb:desc`` = as the cache shrinks); ``each`` splits the rows into one series per value of
its column (the rule must hold for each). `about` without ``versus`` compares each group with the
constant 1 ("about 1 per update" = the ratio of the group's mean to 1).

Rule functions are pure functions of numbers (or labels) returning (holds, detail).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean

from .check import default_published_dir
from .printed_tables import PublishedInputError, read_csv
from .values import parse_printed

CLAIMS_FILE = "claims_in_text.csv"
from ..verdicts import FAILING, FAILS, HOLDS, NOT_TESTABLE, QUOTE_MISSING  # the one vocabulary (engbench.verdicts)

CLAIM_COLUMNS = ("id", "seed_file", "section", "quote", "table", "column", "rule", "rows",
                 "versus_table", "versus", "by", "along", "each", "agg", "factor", "tolerance",
                 "listed", "reading")
FRAME_COLUMNS = ("id", "source", "quote", "rule", "verdict", "detail", "table", "column", "reading")


from .claim_rules import (about, concordant, extreme, flat, greater, increases, labels_in_table,  # noqa: F401
                          less, not_increasing, quote_occurs, ratio_below, same_order, similar)


@dataclass(frozen=True)
class Claim:
    cells: dict[str, str]
    line: int

    def __getattr__(self, name):
        try:
            return self.cells[name]
        except KeyError:
            raise AttributeError(name) from None


@dataclass(frozen=True)
class ClaimResult:
    id: str
    source: str               # the source document's file (claims_in_text.csv seed_file)
    quote: str
    rule: str
    verdict: str
    detail: str
    table: str
    column: str
    reading: str
    line: int = field(default=0, compare=False)

    def as_dict(self) -> dict[str, str]:
        return {f: str(getattr(self, f)) for f in FRAME_COLUMNS}

    def as_finding_dict(self) -> dict[str, str]:
        """The claim in the arithmetic findings' CSV columns (check.FIELDS)."""
        return {"table": self.table, "row": f"claim {self.id}", "column": self.column,
                "stated": self.quote, "recomputed": self.detail, "verdict": self.verdict,
                "relation": f"claim:{self.rule}", "why": f"{self.source}: {self.reading}", "benign_definition": ""}

    def __str__(self) -> str:
        where = f"{self.table}: {self.column}" if self.column else (self.table or "no table")
        return (f"claim {self.id} | {self.source} | “{self.quote}” | {where} | "
                f"{self.rule} | {self.verdict} | {self.detail}")


def load_claims(path: str | Path) -> list[Claim]:
    """The claims of a claims_in_text.csv; refuses a header it does not know."""
    header, body = read_csv(path)
    missing = [c for c in CLAIM_COLUMNS if c not in header]
    extra = [c for c in header if c not in CLAIM_COLUMNS]
    if missing or extra:
        raise PublishedInputError(f"{path}: line 1: not a claims table (missing columns {missing}, "
                                  f"unknown columns {extra})")
    claims = [Claim(dict(zip(header, row)), line) for line, row in body]
    ids = [c.id for c in claims]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise PublishedInputError(f"{path}: duplicate claim ids {dupes}")
    return claims


def parse_selector(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Row selector: 'engine=MongoRocks; cache_gb=144|32'
    -> [('engine', ('MongoRocks',)), ('cache_gb', ('144', '32'))]."""
    out = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        if "=" not in part:
            raise ValueError(f"selector part {part!r} is not column=value")
        col, vals = part.split("=", 1)
        out.append((col.strip(), tuple(v.strip() for v in vals.split("|"))))
    return out


class SourceTable:
    def __init__(self, path: Path):
        self.name = path.name
        self.header, body = read_csv(path)
        self.rows = [dict(zip(self.header, row)) for _, row in body]

    def need(self, cols, claim: Claim):
        unknown = [c for c in cols if c not in self.header]
        if unknown:
            raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                      f"{self.name} has no column {', '.join(unknown)} "
                                      f"(columns: {', '.join(self.header)})")

    def select(self, selector: str, claim: Claim) -> list[dict[str, str]]:
        try:
            sel = parse_selector(selector)
        except ValueError as exc:
            raise PublishedInputError(
                f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: {exc}") from None
        self.need([c for c, _ in sel], claim)
        rows = [r for r in self.rows if all(r[c] in vals for c, vals in sel)]
        if not rows:
            raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                      f"no row of {self.name} matches {selector!r}")
        return rows


def number(row: dict[str, str], col: str, claim: Claim) -> float:
    try:
        return parse_printed(row[col]).value
    except ValueError:
        raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                  f"{col}={row[col]!r} is not a number") from None


def _agg(values: list[float], how: str) -> float:
    return sum(values) if how == "sum" else fmean(values)


def _float(text: str, default: float) -> float:
    return float(text) if text.strip() else default


def _series(rows, claim: Claim, table: SourceTable) -> list[tuple[str, list[dict]]]:
    """(name, rows in order) per `each` group; ordered by `along` (':desc' for decreasing)."""
    along, _, direction = claim.along.partition(":")
    if along:
        table.need([along], claim)
    groups: dict[str, list] = {}
    if claim.each:
        table.need([claim.each], claim)
        for r in rows:
            groups.setdefault(r[claim.each], []).append(r)
    else:
        groups[""] = list(rows)
    out = []
    for name, rs in groups.items():
        if along:
            keys = [number(r, along, claim) for r in rs]
            if len(set(keys)) != len(keys):
                raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                          f"several rows share one {along} value in a series")
            rs = [r for _, r in sorted(zip(keys, rs), key=lambda kr: kr[0], reverse=direction == "desc")]
        out.append((name, rs))
    return out


_PAIR_RULES = {"greater", "less", "similar", "about", "ratio_below"}
_SERIES_RULES = {"increases", "not_increasing", "flat"}
RULES = _PAIR_RULES | _SERIES_RULES | {"extreme_max", "extreme_min", "concordant",
                                       "labels_in_table", "same_order", "not_checkable"}


def _pair_rule(rule: str, a: float, b: float, factor: str, tolerance: str):
    if rule == "greater":
        return greater(a, b, _float(factor, 1.0))
    if rule == "less":
        return less(a, b, _float(factor, 1.0))
    if rule == "similar":
        return similar(a, b, _float(tolerance, 0.10))
    if rule == "about":
        return about(a, b, _float(factor, 1.0), _float(tolerance, 0.25))
    return ratio_below(a, b, _float(factor, 1.0))


def _combine(parts: list[tuple[str, bool, str]]) -> tuple[bool, str]:
    ok = all(p[1] for p in parts)
    if len(parts) == 1:
        return ok, parts[0][2]
    return ok, "; ".join(f"{name}: {'' if good else 'FAILS '}{why}" for name, good, why in parts)


def evaluate(claim: Claim, published_dir: Path, cache: dict | None = None) -> ClaimResult:
    """The verdict of one claim, computed from the rows of its table(s)."""
    cache = {} if cache is None else cache

    def table(name: str) -> SourceTable:
        if name not in cache:
            cache[name] = SourceTable(published_dir / name)
        return cache[name]

    rule = claim.rule
    if rule not in RULES:
        raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: unknown rule "
                                  f"{rule!r} (known: {', '.join(sorted(RULES))})")
    if rule == "not_checkable":
        return _result(claim, NOT_TESTABLE, claim.reading)
    t = table(claim.table)
    columns = [c.strip() for c in claim.column.split(",") if c.strip()]
    if not columns:
        raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                  f"rule {rule} needs a column")
    t.need(columns, claim)
    parts: list[tuple[str, bool, str]] = []

    if rule in ("labels_in_table", "same_order"):
        labels = [r[columns[0]] for r in t.rows]
        if ".csv:" in claim.listed:
            lt, _, lc = claim.listed.partition(":")
            other = table(lt)
            other.need([lc], claim)
            listed = [r[lc] for r in other.rows]
        else:
            listed = [x.strip() for x in claim.listed.split("|") if x.strip()]
            absent = [x for x in listed if x.casefold() not in claim.quote.casefold()]
            if absent:
                raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                          f"listed labels {absent} are not in the quote")
        ok, why = (labels_in_table if rule == "labels_in_table" else same_order)(listed, labels)
        return _result(claim, HOLDS if ok else FAILS, why)

    rows = t.select(claim.rows, claim)
    if rule == "concordant":
        if len(columns) != 2:
            raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                      "concordant needs two columns")
        ok, why = concordant([number(r, columns[0], claim) for r in rows],
                             [number(r, columns[1], claim) for r in rows])
        return _result(claim, HOLDS if ok else FAILS, why)

    for col in columns:
        if rule in _SERIES_RULES:
            for name, rs in _series(rows, claim, t):
                vals = [number(r, col, claim) for r in rs]
                if len(vals) < 2:
                    raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                              "a series needs at least two rows")
                if rule == "increases":
                    ok, why = increases(vals, _float(claim.factor, 1.0))
                elif rule == "not_increasing":
                    ok, why = not_increasing(vals, _float(claim.tolerance, 0.05))
                else:
                    ok, why = flat(vals, _float(claim.tolerance, 0.10))
                parts.append((" / ".join(x for x in (col if len(columns) > 1 else "", name) if x),
                              ok, why))
        elif rule in ("extreme_max", "extreme_min"):
            others_rows = (t.select(claim.versus, claim) if claim.versus
                           else [r for r in t.rows if r not in rows])
            if not others_rows:
                raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                          "no other rows to be the extreme among")
            ok, why = extreme([number(r, col, claim) for r in rows],
                              [number(r, col, claim) for r in others_rows], rule.split("_")[1])
            parts.append((col, ok, why))
        else:  # pair rules
            vt = table(claim.versus_table) if claim.versus_table else t
            if not claim.versus and rule != "about":
                raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                          f"{rule} needs a versus group")
            brows = vt.select(claim.versus, claim) if claim.versus else []  # about N: a / 1
            how = claim.agg or "mean"
            if how not in ("mean", "sum"):
                raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                          f"agg must be mean or sum, not {how!r}")
            by = [c.strip() for c in claim.by.split(",") if c.strip()]
            if by:
                t.need(by, claim)
                vt.need(by, claim)
                key = lambda r: tuple(r[c] for c in by)  # noqa: E731
                pairs = [k for k in dict.fromkeys(map(key, rows)) if k in set(map(key, brows))]
                if not pairs:
                    raise PublishedInputError(f"{CLAIMS_FILE}: line {claim.line}: claim {claim.id}: "
                                              f"no {claim.by} value is in both groups")
                for k in pairs:
                    a = _agg([number(r, col, claim) for r in rows if key(r) == k], how)
                    b = _agg([number(r, col, claim) for r in brows if key(r) == k], how)
                    ok, why = _pair_rule(rule, a, b, claim.factor, claim.tolerance)
                    name = "/".join(k)
                    parts.append((f"{col} {name}" if len(columns) > 1 else name, ok, why))
            else:
                b = _agg([number(r, col, claim) for r in brows], how) if brows else 1.0
                for name, rs in _series(rows, claim, t):
                    a = _agg([number(r, col, claim) for r in rs], how)
                    ok, why = _pair_rule(rule, a, b, claim.factor, claim.tolerance)
                    parts.append((" / ".join(x for x in (col if len(columns) > 1 else "", name) if x)
                                  or col, ok, why))
    ok, why = _combine(parts)
    return _result(claim, HOLDS if ok else FAILS, why)


def _result(claim: Claim, verdict: str, detail: str) -> ClaimResult:
    return ClaimResult(claim.id, claim.seed_file, claim.quote, _rule_text(claim), verdict, detail,
                       claim.table, claim.column, claim.reading, claim.line)


def _rule_text(c: Claim) -> str:
    bits = [f"{k}={getattr(c, k)}" for k in ("rows", "versus", "by", "along", "each", "agg",
                                             "factor", "tolerance", "listed") if getattr(c, k)]
    if c.versus_table:
        bits.insert(2, f"versus_table={c.versus_table}")
    return f"{c.rule}({'; '.join(bits)})"


def check_claims(published_dir=None, sources_dir=None) -> list[ClaimResult]:
    """Every claim of <published_dir>/claims_in_text.csv checked against its tables ([] when the
    directory has no claims file). With `sources_dir` (the source documents'
    .txt files), a claim whose quote is not in its source document is reported as QUOTE_MISSING
    (its printed verdict keeps the README's words) instead of being checked."""
    pdir = Path(published_dir) if published_dir else default_published_dir()
    path = pdir / CLAIMS_FILE
    if not path.exists():
        return []
    cache: dict = {}
    out = []
    for claim in load_claims(path):
        if sources_dir is not None:
            source = Path(sources_dir) / claim.seed_file
            try:
                text = source.read_text(encoding="utf-8")
            except OSError as exc:
                raise PublishedInputError(f"{source}: cannot read the source document ({exc})") from None
            if not quote_occurs(claim.quote, text):
                out.append(_result(claim, QUOTE_MISSING, f"the quote is not in {source}"))
                continue
        out.append(evaluate(claim, pdir, cache))
    return out


def check_all(published_dir=None, sources_dir=None):
    """The claims and their verdicts as a DataFrame (columns FRAME_COLUMNS)."""
    import pandas as pd
    return pd.DataFrame([r.as_dict() for r in check_claims(published_dir, sources_dir)],
                        columns=list(FRAME_COLUMNS))


def exit_status(results: list[ClaimResult]) -> int:
    return 1 if any(r.verdict in FAILING for r in results) else 0


__all__ = ["CLAIMS_FILE", "FAILS", "HOLDS", "NOT_TESTABLE", "QUOTE_MISSING", "Claim", "ClaimResult",
           "about", "check_all", "check_claims", "concordant", "evaluate", "exit_status", "extreme",
           "flat", "greater", "increases", "labels_in_table", "less", "load_claims", "not_increasing",
           "quote_occurs", "ratio_below", "same_order", "similar"]
