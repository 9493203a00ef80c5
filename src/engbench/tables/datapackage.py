"""Frictionless Data Package descriptors (`datapackage.json`, the Tabular Data Package of
https://specs.frictionlessdata.io/) for the folders of tables engbench ships, so that another tool
reads their columns with types, units, keys, licences and sources instead of guessing them.

One resource per CSV of the folder and, for data/processed, one per parquet copy beside it
(`<table>-parquet`: the same rows and columns). Each field of a resource is a column, in the file's
order, with

    type         for a CSV, what frictionless's own type detection (the Table Schema's parsers,
                 `Detector.detect_schema` over every row, confidence 1) finds for every non-empty
                 value, trying integer, number, boolean, string in that order; a column with no
                 value takes its parquet copy's type, and is `any` only when there is none (an
                 empty table). For a parquet copy, its Arrow type (`parquet_types`: integers
                 integer, floats number, bool boolean, the rest string);
    description  and unit, and for data/processed the counter and denominator
                 (`engbench:counter`, `engbench:denominator`, with the counter's meaning), from
                 the folder's dictionary: engbench.tables.columns for data/processed,
                 data/published/columns.csv and engbench.published.datapackage for data/published.

data/processed's resources carry their keys: PRIMARY_KEYS (each table's row identity; none for
findings_values and published_checks, whose rows no set of columns tells apart), and FOREIGN_KEYS
(`run_id` to the runs table, findings_values' `id` to findings), declared on the CSVs when the
resource they point to is in the package (a parquet copy has its table's primary key; its rows are
the CSV's); frictionless's validation checks both.

Missing values are the empty string only (`missingValues: [""]`), as the CSVs are written. A
column the dictionary does not describe is refused (DatapackageError, naming every such column
of every CSV): no field is ever written undescribed. The descriptor's bytes depend only on the
files and the dictionary (keys in a fixed order, no time stamp). tests/test_datapackage.py
validates the shipped packages with the frictionless library."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from frictionless import Detector

from . import columns

NAME = "datapackage.json"
CANDIDATES = [{"type": "integer"}, {"type": "number"}, {"type": "boolean"}, {"type": "string"}]
LICENSE_DATA = {"name": "CC-BY-4.0", "path": "https://creativecommons.org/licenses/by/4.0/",
                "title": "Creative Commons Attribution 4.0"}
PARQUET = {"format": "parquet", "mediatype": "application/vnd.apache.parquet"}
PRIMARY_KEYS = {"runs": ["run_id"], "latency": ["run_id", "op"], "intervals": ["run_id", "interval", "op"],
                "steps": ["run_id", "step"], "loads": ["run_id"], "cache_pollution": ["run_id"],
                "engine_stats": ["run_id", "snapshot", "stat"], "disk_files": ["run_id", "path"],
                "devices": ["run_id"], "findings": ["id"]}
# table → [(its fields, the table they point to, that table's fields)]
FOREIGN_KEYS = {**{t: [(["run_id"], "runs", ["run_id"])] for t in (
                    "latency", "intervals", "steps", "loads", "cache_pollution", "engine_stats", "disk_files")},
                "findings_values": [(["id"], "findings", ["id"]), (["run_id"], "runs", ["run_id"])]}


class DatapackageError(ValueError):
    """A CSV that cannot be described: a column without a dictionary entry, or no header."""


def parquet_types(path: Path) -> dict:
    """{column: Table Schema type} of a parquet file, from its Arrow types: an integer column
    integer (number when it has nulls: pandas, and frictionless through fastparquet, read those as
    floats with NaN), floats number, bool boolean, an all-null column of no type any, the rest string."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(path)

    def kind(name, t) -> str:
        if pa.types.is_integer(t):
            return "number" if table.column(name).null_count else "integer"
        if pa.types.is_floating(t) or pa.types.is_decimal(t):
            return "number"
        if pa.types.is_boolean(t):
            return "boolean"
        return "any" if pa.types.is_null(t) else "string"
    return {f.name: kind(f.name, f.type) for f in table.schema}


def _read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise DatapackageError(f"{path}: empty file, no header")
    return rows[0], rows[1:]


def csv_types(path: Path, parquet: Path | None = None) -> dict:
    """{column: Table Schema type} of a CSV (the module docstring's rule), the empty columns from
    the parquet copy when there is one."""
    header, body = _read_csv(Path(path))
    schema = Detector(field_confidence=1.0, field_missing_values=[""]).detect_schema(
        body, labels=header, field_candidates=CANDIDATES)
    types = {f.name: f.type for f in schema.fields} if body else {}
    twin = parquet_types(parquet) if parquet is not None and Path(parquet).is_file() else {}
    out = {}
    for i, name in enumerate(header):
        empty = all((r[i] if i < len(r) else "") == "" for r in body)
        out[name] = twin.get(name, "any") if empty else types[name]
    return out


def resource(path: Path, describe, types: dict | None = None, **extra) -> tuple[dict, list[str]]:
    """(the resource descriptor of one CSV, its columns `describe` has no entry for).
    ``describe(column)`` gives the field's description keys (description, unit, ...) or None;
    ``types`` the fields' types (default: csv_types of the file)."""
    path = Path(path)
    header, _ = _read_csv(path)
    types = types if types is not None else csv_types(path)
    fields, missing = [], []
    for name in header:
        keys = describe(name)
        if keys is None:
            missing.append(name)
            continue
        fields.append({"name": name, "type": types[name], **{k: v for k, v in keys.items() if v != ""}})
    out = {"name": path.stem.lower(), "path": path.name, "profile": "tabular-data-resource", **extra,
           "format": "csv", "mediatype": "text/csv", "encoding": "utf-8",
           "schema": {"fields": fields, "missingValues": [""]}}
    return out, missing


def package(name: str, title: str, description: str, resources: list, **extra) -> dict:
    return {"profile": "tabular-data-package", "name": name, "title": title, "description": description,
            **extra, "resources": resources}


def refuse_missing(missing: dict, what: str) -> None:
    """DatapackageError naming every column without a dictionary entry ({csv: [columns]})."""
    gaps = {k: v for k, v in missing.items() if v}
    if gaps:
        listed = "; ".join(f"{k}: {', '.join(v)}" for k, v in sorted(gaps.items()))
        raise DatapackageError(f"columns without an entry in {what}, so without a described field: {listed}")


def write(descriptor: dict, folder) -> Path:
    path = Path(folder) / NAME
    path.write_text(json.dumps(descriptor, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _processed_field(table: str):
    def describe(column: str):
        c = columns.entry(table, column)
        if c is None:
            return None
        return {"description": c.description, "unit": c.unit, "engbench:counter": c.counter,
                "engbench:counter_is": columns.COUNTERS.get(c.counter, ""), "engbench:denominator": c.denominator}
    return describe


def _keys(table: str, present: set) -> dict:
    """The schema's primaryKey and foreignKeys of `table` (those whose target is in `present`)."""
    out = {}
    if table in PRIMARY_KEYS:
        out["primaryKey"] = PRIMARY_KEYS[table]
    fks = [{"fields": mine, "reference": {"resource": other, "fields": theirs}}
           for mine, other, theirs in FOREIGN_KEYS.get(table, []) if other in present]
    if fks:
        out["foreignKeys"] = fks
    return out


def processed_package(folder) -> dict:
    """The descriptor of data/processed (or another `engbench process` output folder): one resource
    per <table>.csv and per <table>.parquet, their fields from engbench.tables.columns, their keys
    (PRIMARY_KEYS, FOREIGN_KEYS). DatapackageError when a CSV is no table of the dictionary or a
    column has no entry."""
    folder = Path(folder)
    resources, missing = [], {}
    present = {p.stem for p in folder.glob("*.csv") if p.stem in columns.TABLES}
    for path in sorted(folder.glob("*.csv")):
        if path.stem not in columns.TABLES:
            missing[path.name] = ["(the whole table: no table of engbench.tables.columns)"]
            continue
        twin = path.with_suffix(".parquet")
        res, missing[path.name] = resource(path, _processed_field(path.stem), csv_types(path, twin),
                                           description=columns.TABLE_NOTES.get(path.stem, ""))
        res["schema"].update(_keys(path.stem, present))
        resources.append(res)
        if twin.is_file():
            types = parquet_types(twin)
            fields = [{**f, "type": types[f["name"]]} for f in res["schema"]["fields"]]
            resources.append({"name": f"{res['name']}-parquet", "path": twin.name, "profile": "tabular-data-resource",
                              "description": f"{path.name} as parquet (the same rows and columns; the types "
                                             "pandas wrote)", **PARQUET,
                              "schema": {"fields": fields, **{k: v for k, v in _keys(path.stem, present).items()
                                                             if k == "primaryKey"}}})
    refuse_missing(missing, "engbench.tables.columns")
    return package("engbench-processed", "engbench processed tables",
                   "Tidy tables `engbench process` makes from the run directories of data/raw (one "
                   "<table>.csv and its <table>.parquet copy each); every column's unit, counter and "
                   "denominator from engbench.tables.columns.", resources, licenses=[LICENSE_DATA],
                   sources=[{"title": "engbench run directories (data/raw: manifests, driver outputs, iostat, "
                                      "vmstat and cgroup captures), processed by engbench process"},
                            {"title": "Tables printed in the source documents (data/published), for the "
                                      "findings and the published checks"}])


def write_processed(folder) -> Path:
    """processed_package(folder) written as <folder>/datapackage.json."""
    return write(processed_package(folder), folder)
