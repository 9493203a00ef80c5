"""Check published tables against the relations: one Finding per (record, relation) that applies.

Pure functions over loaded tables; file access is limited to `load` / `check_paths`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from .relations import MEASURE_COLUMNS, RELATIONS, Ref, Relation
from .printed_tables import (PublishedInputError, Record, Table, add_context,
                     finish_keys, load_sources, load_table, metadata_kind, read_csv)
from .values import Interval, parse_printed

from ..verdicts import FAILS, HOLDS, HOLDS_OTHERWISE, NOT_TESTABLE  # the one vocabulary (engbench.verdicts)

# A table no relation applies to gets one row saying so: not a verdict on any value.
NOTHING = "nothing checkable"
FIELDS = ("table", "row", "column", "stated", "recomputed", "verdict", "relation", "why", "benign_definition")
TRUNCATED = "truncated to its printed precision, not rounded"
TEXT_TABLE = "numbers_in_text.csv"


@dataclass(frozen=True)
class Finding:
    table: str
    row: str
    column: str
    stated: str
    recomputed: str
    verdict: str
    relation: str
    why: str
    line: int = 0
    benign_definition: str = ""  # the definition under which a value that does not hold is consistent

    def as_dict(self) -> dict[str, str]:
        return {f: str(getattr(self, f)) for f in FIELDS}

    def __str__(self) -> str:
        if self.verdict == NOTHING:
            return f"{self.table}: {NOTHING} — {self.why}"
        return (f"{self.table} | {self.row} | {self.column} | stated {self.stated} | "
                f"recomputed {self.recomputed} | {self.verdict} | {self.relation}: {self.why}")


def default_published_dir() -> Path:
    """ENGBENCH_PUBLISHED_DIR, else the repository's own copy, <repo>/data/published."""
    env = os.environ.get("ENGBENCH_PUBLISHED_DIR")
    if env:
        return Path(env)
    return paths.REPO / "data" / "published"


# -- resolving inputs -----------------------------------------------------------------------------

def _norm(value: str) -> str:
    """Identifier values compare without a trailing parenthetical: 'zlib (blockCompressor: zlib)'."""
    return re.sub(r"\s*\(.*\)\s*$", "", value).strip().lower()


def _keys(rec: Record, tables: dict[str, Table]) -> set[str]:
    keys = set(tables[rec.table].key_columns)
    if rec.cells.get("seed_file"):
        keys.add("seed_file")
    return keys


def _matches(value: str, wanted) -> bool:
    return value in ((wanted,) if isinstance(wanted, str) else wanted)


def _resolve(out: Record, r: Ref, records: list[Record], tables: dict[str, Table]):
    """The one record that supplies input `r` for output record `out`, or None (or 'ambiguous')."""
    if not r.select and out.cells.get(r.column, ""):
        return out
    select = dict(r.select)
    out_keys = _keys(out, tables)
    found = []
    for rec in records:
        if not rec.cells.get(r.column, ""):
            continue
        if not all(_matches(rec.cells.get(k, ""), v) for k, v in select.items()):
            continue
        shared = (out_keys & _keys(rec, tables)) - set(select)
        if all(_norm(out.cells.get(k, "")) == _norm(rec.cells.get(k, "")) for k in shared):
            found.append(rec)
    if len(found) > 1:
        same = [rec for rec in found if rec.table == out.table]
        found = same if same else found
    if len(found) == 1:
        return found[0]
    return found or None  # several: a list, reported as ambiguous


def _value(rec: Record, column: str, rel: Relation) -> Interval:
    try:
        return parse_printed(rec.cells[column], exact=column in rec.exact).interval
    except ValueError as exc:
        raise PublishedInputError(f"{rec.table}: line {rec.line_of(column)}: column {column}: "
                                  f"{exc} (needed by relation {rel.name})") from None


def _applies(rel: Relation, rec: Record) -> bool:
    if not rec.cells.get(rel.output, ""):
        return False
    return all(_matches(rec.cells.get(k, ""), v) for k, v in rel.where)


def check_record(rel: Relation, rec: Record, records, tables) -> Finding | None:
    """The finding of one relation on one record, or None when the relation does not apply."""
    if not _applies(rel, rec):
        return None
    sources = [_resolve(rec, r, records, tables) for r in rel.refs]
    if any(s is None for s in sources):
        return None
    many = [(r, s) for r, s in zip(rel.refs, sources) if isinstance(s, list)]
    if many:
        why = "; ".join(f"input {r} matches {len(s)} records ("
                        + ", ".join(f"{x.table}: {x.label}" for x in s[:4]) + ")" for r, s in many)
        return Finding(rec.table, rec.label, rel.output, rec.cells[rel.output], "", NOT_TESTABLE,
                       rel.name, why + "; add identifying columns to tell them apart",
                       rec.line_of(rel.output))
    stated_text = rec.cells[rel.output]
    stated = _value(rec, rel.output, rel)
    inputs = [_value(s, r.column, rel) for s, r in zip(sources, rel.refs)]
    result = rel.formula(*inputs)
    options = result if isinstance(result, dict) else {"": result}
    fits = [name for name, iv in options.items() if iv.overlaps(stated)]
    why = rel.explanation
    if len(options) > 1:
        shown = fits[0] if fits else next(iter(options))
        recomputed = options[shown]
        why += (f"; matches {', '.join(fits)}" if fits else "; matches no unit convention") + \
               "".join(f"; as {n}: {iv}" for n, iv in options.items() if n not in fits)
    else:
        recomputed = options[""]
    inputs_text = ", ".join(
        f"{r}={s.cells[r.column]}" + ("" if s is rec else f" ({s.table}: {s.label})")
        for s, r in zip(sources, rel.refs))
    why += f" [{inputs_text}]"
    if rel.note:
        why += f"; {rel.note(stated, *inputs)}"
    verdict, benign = HOLDS if fits else FAILS, ""
    if not fits:
        benign, shown = benign_reading(rel, rec, stated, inputs, options)
        if benign:
            verdict = HOLDS_OTHERWISE
            why += f"; read as {benign}: {shown}"
    return Finding(rec.table, rec.label, rel.output, stated_text, str(recomputed), verdict, rel.name, why,
                   rec.line_of(rel.output), benign)


def _options(result) -> dict:
    return result if isinstance(result, dict) else {"": result}


def truncated(rec: Record, column: str) -> Interval | None:
    """The interval a printed value stands for if it was truncated rather than rounded: [x, x +
    one unit of its last printed digit] (for a negative value the mirror image); None for an
    exact counter or an approximate ('~') value."""
    try:
        p = parse_printed(rec.cells[column], exact=column in rec.exact)
    except ValueError:
        return None
    if p.exact or p.approx:
        return None
    half = (p.interval.hi - p.interval.lo) / 2
    x = p.interval.mid
    return Interval(x, x + 2 * half) if x >= 0 else Interval(x - 2 * half, x)


def benign_reading(rel: Relation, rec: Record, stated: Interval, inputs: list, options: dict) -> tuple[str, str]:
    """(definition, interval) under which a value that does not hold as stated is consistent, or
    ("", ""): the relation's own benign definitions first (Relation.benign: e.g. an average per
    operation rather than a total), then the value truncated rather than rounded
    (truncated()) against what the stated definition allows."""
    for name, formula in rel.benign:
        for conv, iv in _options(formula(*inputs)).items():
            if iv.overlaps(stated):
                label = name(*inputs) if callable(name) else name
                return label + (f" ({conv})" if conv else ""), str(iv)
    trunc = truncated(rec, rel.output)
    if trunc is not None:
        for conv, iv in options.items():
            if iv.overlaps(trunc):
                return TRUNCATED + (f" ({conv})" if conv else ""), f"{trunc} fits {iv}"
    return "", ""


def check_tables(checked: list[Table], context: list[Table] = (),
                 relations: tuple[Relation, ...] = RELATIONS) -> list[Finding]:
    """Findings for every record of `checked`; inputs may also come from `context` tables."""
    tables = {t.name: t for t in [*checked, *context]}
    records = [r for t in tables.values() for r in t.records]
    findings: list[Finding] = []
    for table in checked:
        these = []
        for rec in table.records:
            for rel in relations:
                f = check_record(rel, rec, records, tables)
                if f is not None:
                    these.append(f)
        if not these:
            used = sorted(c for c in table.columns if c in MEASURE_COLUMNS)
            why = ("no relation has any of its columns as output"
                   + (f"; columns used as inputs elsewhere: {', '.join(used)}" if used
                      else f"; no known column among: {', '.join(table.columns)}"))
            these.append(Finding(table.name, "", "", "", "", NOTHING, "", why))
        findings.extend(these)
    return findings


# -- files ----------------------------------------------------------------------------------------

def load(paths=None, published_dir=None) -> tuple[list[Table], list[Table]]:
    """(tables to check, context tables). Without paths: every table CSV in the published dir.

    Context = sources.csv facts (source document file, machine) and numbers_in_text.csv of the published dir.
    """
    pdir = Path(published_dir) if published_dir else default_published_dir()
    if paths:
        csvs = [Path(p) for p in paths]
    else:
        if not pdir.is_dir():
            raise PublishedInputError(f"{pdir}: published directory not found "
                                      "(use --dir or ENGBENCH_PUBLISHED_DIR)")
        csvs = sorted(pdir.glob("*.csv"))
        if not csvs:
            raise PublishedInputError(f"{pdir}: no CSV files")
    sources = load_sources(pdir / "sources.csv")
    checked = []
    for p in csvs:
        header, _ = read_csv(p)
        if metadata_kind(header):
            if paths:  # asked for explicitly: say it is a description, not a table
                checked.append(Table(p.name, str(p), header, []))
            continue
        checked.append(load_table(p))
    context = []
    text = pdir / TEXT_TABLE
    if text.exists() and all(Path(t.path).resolve() != text.resolve() for t in checked):
        context.append(load_table(text))
    for t in [*checked, *context]:
        add_context(t, sources)
        finish_keys(t, set(MEASURE_COLUMNS))
    return checked, context


def check_paths(paths=None, published_dir=None) -> list[Finding]:
    checked, context = load(paths, published_dir)
    return check_tables(checked, context)


def exit_status(findings: list[Finding]) -> int:
    return 1 if any(f.verdict == FAILS for f in findings) else 0


def findings_frame(findings: list[Finding]):
    import pandas as pd
    return pd.DataFrame([f.as_dict() for f in findings], columns=list(FIELDS))


__all__ = ["NOTHING", "TRUNCATED", "Finding", "benign_reading", "check_paths", "check_tables",
           "default_published_dir", "exit_status", "findings_frame", "load", "truncated"]
