"""Loading published tables: strict CSV reading, long tables turned wide, context from sources.csv.

A table is a list of records; a record maps column name -> value as printed (a string). Tables in
"long" form (one row per quantity: ``stat``/``quantity``/``metric`` + ``value_as_printed``) are
pivoted so that every quantity becomes a column of one record per group (e.g. per collection), so
the relations, which are keyed by column names, work the same for both shapes.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from .values import is_number

# metadata files of a published directory: describe tables, are not tables
METADATA_SHAPES = {
    "columns": {"csv_file", "column", "printed_header", "unit", "definition"},
    "sources": {"csv_file", "seed_file", "section_heading", "test_conditions"},
    "claims": {"seed_file", "quote", "table", "rule"},  # claims_in_text.csv, checked by claims.py
    "inventory": {"source_file", "quote", "testable_here"},  # claims_inventory.csv (engbench.findings.inventory)
}
# long shapes: the column naming the quantity, and the column holding its printed value
QUANTITY_COLUMNS = ("stat", "quantity", "metric")
VALUE_COLUMN = "value_as_printed"
# columns of long tables that describe a value rather than identify its group
DESCRIPTIVE_COLUMNS = {"unit", "unit_as_printed", "quote", "expression_as_printed",
                       "caption_as_printed", "section", "item", "source"}
# long tables: units whose values are exact counters
EXACT_UNITS = {"bytes", "count"}
# wide tables: columns holding exact counters
EXACT_COLUMNS = {"bytes", "pages"}
# numeric columns that still identify a row (a configuration, not a measurement)
NUMERIC_KEY_COLUMNS = {"clients", "client_threads", "maxid1", "cache_gb",
                       "docs_pct_of_cache_size", "seed_file"}
CONTEXT_PREFIX = "ctx_"


class PublishedInputError(Exception):
    """A CSV that cannot be read as a table (exit status 2)."""


@dataclass
class Record:
    table: str
    line: int                      # first CSV line (1 = header) the record comes from
    cells: dict[str, str]
    exact: set[str] = field(default_factory=set)
    label: str = ""
    lines: dict[str, int] = field(default_factory=dict)  # CSV line of a pivoted quantity

    def line_of(self, column: str) -> int:
        return self.lines.get(column, self.line)


@dataclass
class Table:
    name: str
    path: str
    columns: list[str]             # columns of the records (after pivoting), without context
    records: list[Record]
    shape: str = "wide"            # "wide" or "long"
    key_columns: list[str] = field(default_factory=list)


def read_csv(path: str | Path) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """Header and (line number, row) pairs; raises PublishedInputError on anything malformed."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise PublishedInputError(f"{p}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PublishedInputError(f"{p}: cannot read as UTF-8 text ({exc})") from None
    if not text.strip():
        raise PublishedInputError(f"{p}: empty file (expected a header line and rows)")
    try:
        rows = list(csv.reader(io.StringIO(text), strict=True))
    except csv.Error as exc:
        raise PublishedInputError(f"{p}: malformed CSV ({exc})") from None
    header = [h.strip() for h in rows[0]]
    if any(not h for h in header):
        raise PublishedInputError(f"{p}: line 1: empty column name in header {header}")
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        raise PublishedInputError(f"{p}: line 1: duplicate column names {dupes}")
    body = []
    for n, row in enumerate(rows[1:], start=2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise PublishedInputError(
                f"{p}: line {n}: {len(row)} fields, header has {len(header)}")
        body.append((n, [c.strip() for c in row]))
    return header, body


def metadata_kind(header: list[str]) -> str | None:
    cols = set(header)
    for kind, needed in METADATA_SHAPES.items():
        if needed <= cols:
            return kind
    return None


def _quantity_column(header: list[str]) -> str | None:
    if VALUE_COLUMN not in header:
        return None
    return next((q for q in QUANTITY_COLUMNS if q in header), None)


def _pivot(name: str, path: str, header: list[str], body, qcol: str) -> Table:
    """One record per group of identifying columns; each quantity becomes a column."""
    group_cols = [c for c in header if c not in (qcol, VALUE_COLUMN) and c not in DESCRIPTIVE_COLUMNS]
    unit_col = "unit" if "unit" in header else None
    groups: dict[tuple, Record] = {}
    columns: list[str] = []
    for line, row in body:
        cells = dict(zip(header, row))
        key = tuple(cells[c] for c in group_cols)
        rec = groups.get(key)
        if rec is None:
            rec = groups[key] = Record(name, line, {c: cells[c] for c in group_cols})
        quantity = cells[qcol]
        if quantity.startswith("ls size ") and cells.get("item"):  # ls of a named file
            quantity = cells["item"]
        if quantity in rec.cells:  # same quantity twice in a group: keep both, numbered
            n = 2
            while f"{quantity} ({n})" in rec.cells:
                n += 1
            quantity = f"{quantity} ({n})"
        rec.cells[quantity] = cells[VALUE_COLUMN]
        rec.lines[quantity] = line
        if qcol == "stat" or (unit_col and cells[unit_col].strip().lower() in EXACT_UNITS):
            rec.exact.add(quantity)
        if quantity not in columns:
            columns.append(quantity)
    return Table(name, path, group_cols + columns, list(groups.values()), "long", group_cols)


def load_table(path: str | Path) -> Table:
    p = Path(path)
    header, body = read_csv(p)
    if not body:
        raise PublishedInputError(f"{p}: header only, no rows")
    qcol = _quantity_column(header)
    if qcol:
        return _pivot(p.name, str(p), header, body, qcol)
    records = []
    for line, row in body:
        cells = dict(zip(header, row))
        records.append(Record(p.name, line, cells, {c for c in header if c in EXACT_COLUMNS}))
    return Table(p.name, str(p), list(header), records)


def finish_keys(table: Table, measures: set[str]) -> None:
    """Decide which columns identify a record (for joins and labels) and label the records."""
    if table.shape == "wide":
        keys = []
        for c in table.columns:
            if c in measures or c.startswith(CONTEXT_PREFIX):
                continue
            values = [r.cells.get(c, "") for r in table.records if r.cells.get(c, "")]
            if c in NUMERIC_KEY_COLUMNS or not all(is_number(v) for v in values):
                keys.append(c)
        table.key_columns = keys
    keys = [k for k in table.key_columns if k != "seed_file"] or table.key_columns
    chosen: list[str] = []
    distinct = 0
    for k in keys:  # greedily add key columns until labels are unique
        trial = chosen + [k]
        n = len({tuple(r.cells.get(c, "") for c in trial) for r in table.records})
        if n > distinct:
            chosen, distinct = trial, n
        if distinct == len(table.records):
            break
    for r in table.records:
        r.label = "/".join(r.cells.get(c, "") for c in chosen) or f"line {r.line}"


# -- context: what sources.csv says about each table's test conditions ----------------------------

_CONTEXT_PATTERNS = (
    ("ctx_hw_threads", re.compile(r"(\d+)\s+HW threads", re.I), 1),
    ("ctx_hw_threads", re.compile(r"(\d+)\s+hyperthread cores", re.I), 1),
    ("ctx_hw_threads", re.compile(r"(\d+)\s+CPU cores with HT", re.I), 2),
    ("ctx_ram_gb", re.compile(r"(\d+)\s*GB RAM", re.I), 1),
    # the wholes that parts are checked against (relations "part_le_whole:*")
    ("ctx_cache_gb", re.compile(r"\bcache (\d+) GB", re.I), 1),
    ("ctx_device_gb", re.compile(r"database on a (\d+) GB", re.I), 1),
    ("ctx_collection_pct_of_cache", re.compile(r"each sized (\d+)% of the cache", re.I), 1),
    ("ctx_compression_ratio", re.compile(r"compressible docs \(~?(\d+):1\)", re.I), 1),
)


def conditions_context(test_conditions: str) -> dict[str, str]:
    """Machine facts stated in a sources.csv test_conditions text (first match of each)."""
    ctx: dict[str, str] = {}
    for name, pattern, factor in _CONTEXT_PATTERNS:
        m = pattern.search(test_conditions)
        if m and name not in ctx:
            ctx[name] = str(int(m.group(1)) * factor)
    return ctx


def load_sources(path: str | Path) -> dict[str, dict[str, str]]:
    """csv_file -> {seed_file, ctx_*} from a sources.csv; {} when there is none."""
    p = Path(path)
    if not p.exists():
        return {}
    header, body = read_csv(p)
    if metadata_kind(header) != "sources":
        raise PublishedInputError(f"{p}: not a sources.csv (columns {header})")
    out = {}
    for _, row in body:
        cells = dict(zip(header, row))
        ctx = {"seed_file": cells["seed_file"]}
        ctx.update(conditions_context(cells.get("test_conditions", "")))
        out[cells["csv_file"]] = ctx
    return out


def add_context(table: Table, sources: dict[str, dict[str, str]]) -> None:
    """Give each record the source document file (seed_file) and machine facts of its table, unless it has its own."""
    ctx = sources.get(table.name, {})
    for r in table.records:
        for k, v in ctx.items():
            if not r.cells.get(k):
                r.cells[k] = v
                r.exact.add(k)
    if "seed_file" in ctx and "seed_file" not in table.key_columns and table.shape == "long":
        table.key_columns.append("seed_file")
