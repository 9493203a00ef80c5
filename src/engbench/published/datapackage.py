"""data/published/datapackage.json: the published tables as a Frictionless Tabular Data Package
(engbench.tables.datapackage says how types are read and fields written).

Each table a source document prints (every CSV `sources.csv` names) is a resource whose fields
take their unit and definition from `columns.csv` (its `definition` is the field's description,
its `printed_header` the header the document printed, `engbench:printed_header`; a column it
gives no definition, a label such as 001's product, says so), and whose
resource carries what `sources.csv` says of it: the section heading as title, the units and
definitions as the document states them, the test conditions (hardware, versions, data size,
cache, clients) and the source document (`sources`: title, author, date, URL). The package's
`sources` are the five documents (engbench.citation.documents), and its `licenses` say that the
quoted content remains its authors' (LicenseRef-engbench-quoted, LICENSES/ and REUSE.toml at the
repository's root) while what engbench added around it is CC-BY-4.0. The CSVs that
describe the others (sources, columns, numbers_in_text, claims_in_text, claims_inventory) take
their fields' descriptions from META below, which repeats data/published/README.md.

    python -m engbench.published.datapackage [DIR]   # (re)write DIR/datapackage.json (default data/published)

tests/test_datapackage.py checks that the shipped file is what this module makes of the shipped
CSVs, and validates it with frictionless."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from .. import citation
from ..tables import datapackage as dp
from .check import default_published_dir

LICENSES = [{"name": "LicenseRef-engbench-quoted",
             "title": "Quoted from the source documents (sources): their content remains their authors', cited, "
                      "not relicensed (LICENSES/LicenseRef-engbench-quoted.txt of the repository)"},
            {**dp.LICENSE_DATA, "title": "Creative Commons Attribution 4.0: what engbench added around the "
                                         "quotations (structure, column names, units, definitions, notes)"}]
_SOURCE = "the source document's file (the seed file it was transcribed from)"
META = {
    "sources.csv": ("one row per published table: where it is printed, its units and test conditions, its document", {
        "csv_file": "the published table's CSV in this folder", "seed_file": _SOURCE,
        "section_heading": "the heading the table is printed under",
        "units_and_definitions_as_stated": "the units and definitions as the document states them",
        "test_conditions": "hardware, versions, data size, cache and clients of the measurement",
        "notes": "how the table was transcribed", "document_title": "the document's title",
        "document_author": "the document's author", "document_date": "the document's date (YYYY-MM-DD)",
        "document_site": "where the document was published", "document_url": "the document's URL",
        "url_source": "how the title, date, author and URL were confirmed"}),
    "columns.csv": ("one row per column of a published table: printed header, unit, definition", {
        "csv_file": "the published table's CSV", "column": "the column's name in the CSV",
        "printed_header": "the header the document printed (empty: a column added in transcription)",
        "unit": "the column's unit (empty: a label)", "definition": "what the column is"}),
    "numbers_in_text.csv": ("one row per number stated in a document's prose, with its verbatim quote", {
        "seed_file": _SOURCE, "section": "the heading the sentence is under",
        "quantity": "what the number counts or measures", "value_as_printed": "the number as printed",
        "unit": "its unit", "quote": "the sentence, verbatim"}),
    "claims_in_text.csv": ("one row per claim of a document's prose checked against its own tables "
                           "(engbench.published.claims)", {
        "id": "<document>-<NN>", "seed_file": _SOURCE, "section": "the heading the sentence is under",
        "quote": "the sentence, verbatim", "table": "the published table it summarizes",
        "column": "the column(s) it summarizes", "rule": "the rule of engbench.published.claim_rules applied",
        "rows": "the rows of the claim's group (col=v1|v2; col2=v)", "versus_table": "the table the versus rows "
        "come from, when another", "versus": "the rows it is compared with", "by": "columns that pair the two groups",
        "along": "the column that orders a series (col:desc)", "each": "a column splitting the rows into series",
        "agg": "how a group is reduced to one number (mean or sum)", "factor": "the factor the words imply",
        "tolerance": "the tolerance the words imply", "listed": "the labels a sentence lists",
        "reading": "how the words are read, or why the claim is not checkable"}),
    "claims_inventory.csv": ("every sentence of the documents asserting a measurable behaviour, and how engbench "
                             "tests it (README.md, claims_inventory.csv)", {
        "id": "<doc>-c<NN>, in document order", "source_file": _SOURCE,
        "section": "the heading or comment the sentence is under", "quote": "the sentence or clause, verbatim",
        "subject": "the engines and settings the claim is about, in the source's words",
        "behaviour": "the measurable assertion in plain words, with its direction",
        "regime": "the conditions the source measured it in", "metric_here": "what engbench measures to test it",
        "testable_here": "yes or no", "finding_ids": "the findings that test it (;-separated)",
        "in_text_ids": "the rows of claims_in_text.csv checking the same behaviour",
        "stand_in": "the engine here standing in for the source's engine, and the property they share",
        "reason_not_testable": "why a no row cannot be tested here",
        "proposed_rule": "the rule a finding would apply, for a testable row without one",
        "not_tested_because": "testable here but not run: the experiment or knob it would need"}),
}


def _rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _describer(name: str, defs: dict):
    """column → its field's description keys (META's for the describing CSVs, else columns.csv's), or None."""
    def describe(column):
        if name in META:
            text = META[name][1].get(column)
            return None if text is None else {"description": text}
        d = defs.get((name, column))
        return None if d is None else {"description": d["definition"] or f"{column}: a label of the table "
                                       "(columns.csv gives no definition)", "unit": d["unit"],
                                       "engbench:printed_header": d["printed_header"]}
    return describe


def published_package(folder=None) -> dict:
    """The descriptor of a data/published folder. DatapackageError when a CSV is neither named by
    sources.csv nor one of META, or a column has no row in columns.csv (or no META entry)."""
    folder = Path(folder) if folder else default_published_dir()
    sources = {r["csv_file"]: r for r in _rows(folder / "sources.csv")}
    defs = {(r["csv_file"], r["column"]): r for r in _rows(folder / "columns.csv")}
    resources, missing = [], {}
    for path in sorted(folder.glob("*.csv")):
        if path.name not in META and path.name not in sources:
            missing[path.name] = ["(the whole file: not named by sources.csv)"]
            continue
        extra = {"description": META[path.name][0]} if path.name in META else {}
        if path.name in sources:
            s = sources[path.name]
            extra = {"title": s["section_heading"], "description": s["units_and_definitions_as_stated"] or
                     extra.get("description", ""), "engbench:test_conditions": s["test_conditions"],
                     "engbench:notes": s["notes"],
                     "sources": [{"title": s["document_title"], "path": s["document_url"],
                                  "engbench:author": s["document_author"], "engbench:date": s["document_date"],
                                  "engbench:site": s["document_site"], "engbench:seed_file": s["seed_file"]}]}
        res, missing[path.name] = dp.resource(path, _describer(path.name, defs), **extra)
        resources.append(res)
    dp.refuse_missing(missing, "data/published/columns.csv (or the META of engbench.published.datapackage)")
    return dp.package("engbench-published", "Tables printed in the source documents",
                      "Every numeric table of the five source documents typed out as tidy CSV (values exactly "
                      "as printed: a value printed with d decimals stands for x ± 0.5·10^-d), with the claims "
                      "and numbers of their prose; README.md says how. The tables remain their authors'.",
                      resources, licenses=LICENSES,
                      sources=[{"title": d["title"], "path": d["url"], "engbench:author": d["author"],
                                "engbench:date": d["date"], "engbench:site": d["site"],
                                "engbench:seed_file": d["seed_file"]} for d in citation.documents(folder)])


def write(folder=None) -> Path:
    folder = Path(folder) if folder else default_published_dir()
    return dp.write(published_package(folder), folder)


if __name__ == "__main__":
    print(write(sys.argv[1] if len(sys.argv) > 1 else None))
