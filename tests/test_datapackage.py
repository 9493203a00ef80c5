"""datapackage.json of data/processed and data/published (engbench.tables.datapackage,
engbench.published.datapackage): the shipped packages validate with the frictionless library (the
descriptor, every row of every CSV and parquet copy against its field types, the primary keys'
uniqueness and the foreign keys' targets), every CSV of each folder is a resource whose fields are
its columns, each with a specific description (and the unit the dictionary gives) and a type other
than `any`; data/processed's parquet copies are resources too; both packages carry their licences
and sources; the shipped files are what the code makes of the shipped files, and a column the
dictionary does not describe is refused before anything is written."""

import json
import shutil

import pandas as pd
import pytest
from frictionless import validate

from engbench import paths
from engbench.published import datapackage as published_dp
from engbench.tables import build_tables, columns, write_tables
from engbench.tables import datapackage as dp

PROCESSED = paths.REPO / "data" / "processed"
PUBLISHED = paths.REPO / "data" / "published"


def _validate(folder, tmp_path, formats=("csv",)):
    """frictionless's validation of the folder's package restricted to the resources of `formats`
    (a copy of those files and the descriptor in tmp_path: the parquet copies take fastparquet
    minutes, the slow tier's): the descriptor, every row against its field types, the primary keys'
    uniqueness and the foreign keys' targets."""
    desc = json.loads((folder / dp.NAME).read_text())
    desc["resources"] = [r for r in desc["resources"] if r["format"] in formats]
    for r in desc["resources"]:
        shutil.copy(folder / r["path"], tmp_path / r["path"])
    (tmp_path / dp.NAME).write_text(json.dumps(desc))
    report = validate(str(tmp_path / dp.NAME))
    assert report.valid, report.flatten(["type", "fieldName", "cell", "note"])[:10]
    return report


def _check_folder(folder, tmp_path):
    """The folder's datapackage.json validates (_validate), names every CSV of the folder once, and
    describes every column."""
    _validate(folder, tmp_path)
    desc = json.loads((folder / dp.NAME).read_text())
    csvs = [r for r in desc["resources"] if r["format"] == "csv"]
    assert sorted(r["path"] for r in csvs) == sorted(p.name for p in folder.glob("*.csv"))
    for r in csvs:
        header = list(pd.read_csv(folder / r["path"], nrows=0).columns)
        fields = r["schema"]["fields"]
        assert [f["name"] for f in fields] == header, r["path"]
        assert all(f.get("description", "").strip() for f in fields), r["path"]
        assert not [f["name"] for f in fields if f["type"] == "any"], (r["path"], "a column typed any")
        assert not [f["name"] for f in fields if ", as recorded by" in f["description"]], (r["path"], "a generic "
                                                                                             "description")
    assert desc["licenses"] and all(lic.get("name") and lic.get("title") for lic in desc["licenses"])
    assert desc["sources"] and all(s.get("title") for s in desc["sources"])
    return desc


def test_processed_package_validates_and_describes_every_column(tmp_path):
    desc = _check_folder(PROCESSED, tmp_path)
    assert desc == dp.processed_package(PROCESSED), "data/processed/datapackage.json is stale: run engbench process"
    fields = {(r["name"], f["name"]): f for r in desc["resources"] for f in r["schema"]["fields"]}
    c = columns.entry("runs", "read_amp_cgroup")
    f = fields[("runs", "read_amp_cgroup")]
    assert (f["unit"], f["engbench:counter"], f["engbench:denominator"]) == (c.unit, c.counter, c.denominator)
    assert f["type"] == "number" and fields[("latency", "count")]["type"] == "integer"
    assert fields[("runs", "incomplete")]["type"] == "boolean" and fields[("runs", "engine")]["type"] == "string"
    assert fields[("runs", "knob.rocksdb.compaction")]["engbench:counter"] == "manifest"
    assert "rocksdb.compaction" in fields[("runs", "knob.rocksdb.compaction")]["description"]
    assert fields[("runs", "limit.read_iops")]["type"] == "number", "an empty column: its parquet copy's type"
    assert [lic["name"] for lic in desc["licenses"]] == ["CC-BY-4.0"]
    res = {r["name"]: r for r in desc["resources"]}
    # keys: every table's own primary key; run_id points at the runs table, findings_values' id at findings
    assert res["runs"]["schema"]["primaryKey"] == ["run_id"]
    assert res["intervals"]["schema"]["primaryKey"] == ["run_id", "interval", "op"]
    for name in ("latency", "intervals", "steps", "loads", "cache_pollution", "engine_stats", "disk_files",
                 "findings_values"):
        fks = res[name]["schema"]["foreignKeys"]
        assert {"fields": ["run_id"], "reference": {"resource": "runs", "fields": ["run_id"]}} in fks, name
    assert {"fields": ["id"], "reference": {"resource": "findings", "fields": ["id"]}} in \
        res["findings_values"]["schema"]["foreignKeys"]
    assert "foreignKeys" not in res["devices"]["schema"], "calibration runs are not in the runs table"
    # the parquet copies: one resource each, the same columns and descriptions, types from the parquet schema
    for p in PROCESSED.glob("*.parquet"):
        twin, csv_res = res[f"{p.stem}-parquet"], res[p.stem]
        assert twin["path"] == p.name and twin["format"] == "parquet"
        assert [(f["name"], f["description"]) for f in twin["schema"]["fields"]] == \
            [(f["name"], f["description"]) for f in csv_res["schema"]["fields"]]
        assert twin["schema"].get("primaryKey") == csv_res["schema"].get("primaryKey")
    twin = {f["name"]: f["type"] for f in res["runs-parquet"]["schema"]["fields"]}
    assert twin["repetition"] == "number" and twin["run_id"] == "string", "pandas wrote repetition as float64"


def test_published_package_validates_and_carries_units_and_conditions(tmp_path):
    desc = _check_folder(PUBLISHED, tmp_path)
    assert desc == published_dp.published_package(PUBLISHED), "data/published/datapackage.json is stale"
    res = {r["path"]: r for r in desc["resources"]}
    cols = pd.read_csv(PUBLISHED / "columns.csv", dtype=str, keep_default_na=False)
    sources = pd.read_csv(PUBLISHED / "sources.csv", dtype=str, keep_default_na=False).set_index("csv_file")
    for row in cols.itertuples():
        field = next(f for f in res[row.csv_file]["schema"]["fields"] if f["name"] == row.column)
        assert field["description"].startswith(row.definition or row.column), (row.csv_file, row.column)
        assert field.get("unit", "") == row.unit, (row.csv_file, row.column)
    for name, s in sources.iterrows():
        assert res[name]["engbench:test_conditions"] == s["test_conditions"]
        assert res[name]["sources"][0]["path"] == s["document_url"]
    ips = next(f for f in res["000_linkbench_load_cached.csv"]["schema"]["fields"] if f["name"] == "ips")
    assert ips["unit"] == "inserts/s" and ips["type"] in ("number", "integer")
    # licences: the quoted tables remain their authors' (LicenseRef), engbench's additions CC-BY-4.0;
    # sources: the five documents, by title and URL, as sources.csv names them
    assert [lic["name"] for lic in desc["licenses"]] == ["LicenseRef-engbench-quoted", "CC-BY-4.0"]
    docs = {(d["document_title"], d["document_url"]) for _, d in sources.iterrows() if d["document_title"]}
    assert {(s["title"], s["path"]) for s in desc["sources"]} == docs and len(desc["sources"]) == 5


@pytest.mark.slow
def test_the_parquet_copies_validate(tmp_path):
    """Every parquet copy of data/processed read by frictionless (fastparquet) against its resource's
    field types and primary key."""
    report = _validate(PROCESSED, tmp_path, formats=("parquet",))
    assert len(report.tasks) == len(list(PROCESSED.glob("*.parquet")))


def test_a_column_missing_from_the_dictionary_is_refused(tmp_path):
    shutil.copy(PROCESSED / "latency.csv", tmp_path / "latency.csv")
    frame = pd.read_csv(tmp_path / "latency.csv")
    frame.assign(p42_us=1).to_csv(tmp_path / "latency.csv", index=False)
    with pytest.raises(dp.DatapackageError, match=r"latency\.csv: p42_us"):
        dp.processed_package(tmp_path)
    tables = build_tables([])
    tables["latency"] = tables["latency"].assign(p42_us=[])
    out = tmp_path / "out"
    with pytest.raises(dp.DatapackageError, match="p42_us"):
        write_tables(tables, out)
    assert not out.exists(), "refused before anything is written"
    (tmp_path / "new_table.csv").write_text("a\n1\n")
    with pytest.raises(dp.DatapackageError, match="new_table.csv"):
        dp.processed_package(tmp_path)


def test_a_published_csv_without_a_definition_is_refused(tmp_path):
    for p in PUBLISHED.glob("*.csv"):
        shutil.copy(p, tmp_path / p.name)
    cols = pd.read_csv(tmp_path / "columns.csv", dtype=str, keep_default_na=False)
    drop = cols[cols.csv_file == "003_iibench_per_200k_inserts.csv"].index[-1]
    gone = cols.loc[drop, "column"]
    cols.drop(index=drop).to_csv(tmp_path / "columns.csv", index=False)
    with pytest.raises(dp.DatapackageError, match=rf"003_iibench_per_200k_inserts\.csv: {gone}"):
        published_dp.published_package(tmp_path)


def test_written_tables_carry_a_package_and_validation_catches_a_wrong_value(tmp_path):
    write_tables(build_tables([]), tmp_path)
    assert validate(str(tmp_path / dp.NAME)).valid  # empty tables: every field "any"
    folder = tmp_path / "copy"
    folder.mkdir()
    shutil.copy(PROCESSED / "latency.csv", folder)
    dp.write_processed(folder)
    assert validate(str(folder / dp.NAME)).valid
    text = (folder / "latency.csv").read_text().splitlines()
    cells = text[1].split(",")
    cells[2] = "many"  # count, typed integer from the CSV
    (folder / "latency.csv").write_text("\n".join([text[0], ",".join(cells), *text[2:]]) + "\n")
    report = validate(str(folder / dp.NAME))
    assert not report.valid and "type-error" in {e[0] for e in report.flatten(["type"])}


def test_types_are_frictionless_detection_with_the_parquet_copy_for_empty_columns(tmp_path):
    """A CSV column's type is the one frictionless's own detection finds for every non-empty value
    (integer, number, boolean, string, first of that order); a column with no value takes its parquet
    copy's type; `any` only when neither says (an empty table)."""
    frame = pd.DataFrame({"a": [1, -2, None], "b": [1.0, 2.5, float("inf")], "c": [True, False, None],
                          "d": ["1", "x", None], "e": [float("nan")] * 3, "f": ["1", "1e3", None]})
    frame.to_csv(tmp_path / "t.csv", index=False)
    types = dp.csv_types(tmp_path / "t.csv")
    assert types == {"a": "number", "b": "number", "c": "boolean", "d": "string", "e": "any", "f": "number"}, types
    frame.assign(a=frame.a.astype("Int64")).to_csv(tmp_path / "t.csv", index=False)
    assert dp.csv_types(tmp_path / "t.csv")["a"] == "integer"
    frame.to_parquet(tmp_path / "t.parquet")
    assert dp.csv_types(tmp_path / "t.csv", tmp_path / "t.parquet")["e"] == "number"
    assert dp.parquet_types(tmp_path / "t.parquet") == {"a": "number", "b": "number", "c": "boolean", "d": "string",
                                                        "e": "number", "f": "string"}
