"""Frictionless Data Package descriptors (`datapackage.json`, the Tabular Data Package of
https://specs.frictionlessdata.io/) for the CSV folders engbench ships, so that another tool
reads their columns with types and units instead of guessing them.

One resource per CSV of the folder (the parquet twins of data/processed are not resources: the
CSVs are the interchange copy). Each field of a resource is a column of its CSV, in the CSV's
order, with

    type         read from the CSV's own text (`infer_type`): boolean when every non-empty value
                 is True or False, integer when every one is an optional sign and digits,
                 number when every one is a decimal or exponent number (inf and nan included,
                 as pandas writes them), string otherwise, any when the column is empty;
    description  and unit, and for data/processed the counter and denominator
                 (`engbench:counter`, `engbench:denominator`, with the counter's meaning), from
                 the folder's dictionary: engbench.tables.columns for data/processed,
                 data/published/columns.csv and engbench.published.datapackage for data/published.

Missing values are the empty string only (`missingValues: [""]`), as the CSVs are written. A
column the dictionary does not describe is refused (DatapackageError, naming every such column
of every CSV): no field is ever written undescribed. The descriptor's bytes depend only on the
CSVs and the dictionary (keys in a fixed order, no time stamp). tests/test_datapackage.py
validates the shipped packages with the frictionless library."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from . import columns

NAME = "datapackage.json"
INTEGER = re.compile(r"[+-]?\d+")
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?inf|nan")
LICENSE_DATA = {"name": "CC-BY-4.0", "path": "https://creativecommons.org/licenses/by/4.0/",
                "title": "Creative Commons Attribution 4.0"}


class DatapackageError(ValueError):
    """A CSV that cannot be described: a column without a dictionary entry, or no header."""


def infer_type(values) -> str:
    """The Table Schema type of a column from its CSV text (the rules in the module's docstring)."""
    vals = [v for v in values if v != ""]
    if not vals:
        return "any"
    if all(v in ("True", "False") for v in vals):
        return "boolean"
    if all(INTEGER.fullmatch(v) for v in vals):
        return "integer"
    if all(NUMBER.fullmatch(v) for v in vals):
        return "number"
    return "string"


def read_csv_text(path: Path) -> tuple[list[str], list[list[str]]]:
    """(header, the values of each column as text) of a CSV file."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise DatapackageError(f"{path}: empty file, no header")
    header, body = rows[0], rows[1:]
    return header, [[r[i] if i < len(r) else "" for r in body] for i in range(len(header))]


def resource(path: Path, describe, **extra) -> tuple[dict, list[str]]:
    """(the resource descriptor of one CSV, its columns `describe` has no entry for).
    ``describe(column)`` gives the field's description keys (description, unit, ...) or None."""
    header, cols = read_csv_text(path)
    fields, missing = [], []
    for name, values in zip(header, cols):
        keys = describe(name)
        if keys is None:
            missing.append(name)
            continue
        fields.append({"name": name, "type": infer_type(values), **{k: v for k, v in keys.items() if v != ""}})
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
        source = columns.COUNTERS.get(c.counter, "")
        return {"description": c.description or f"{column}, as recorded by {source}", "unit": c.unit,
                "engbench:counter": c.counter, "engbench:counter_is": source, "engbench:denominator": c.denominator}
    return describe


def processed_package(folder) -> dict:
    """The descriptor of data/processed (or another `engbench process` output folder): one resource
    per <table>.csv, its fields from engbench.tables.columns. DatapackageError when a CSV is no
    table of the dictionary or a column has no entry."""
    folder = Path(folder)
    resources, missing = [], {}
    for path in sorted(folder.glob("*.csv")):
        if path.stem not in columns.TABLES:
            missing[path.name] = ["(the whole table: no table of engbench.tables.columns)"]
            continue
        res, missing[path.name] = resource(path, _processed_field(path.stem),
                                           description=columns.TABLE_NOTES.get(path.stem, ""))
        resources.append(res)
    refuse_missing(missing, "engbench.tables.columns")
    return package("engbench-processed", "engbench processed tables",
                   "Tidy tables `engbench process` makes from the run directories of data/raw (one "
                   "<table>.csv and its <table>.parquet twin each); every column's unit, counter and "
                   "denominator from engbench.tables.columns.", resources, licenses=[LICENSE_DATA])


def write_processed(folder) -> Path:
    """processed_package(folder) written as <folder>/datapackage.json."""
    return write(processed_package(folder), folder)
