"""datapackage.json of data/processed and data/published (engbench.tables.datapackage,
engbench.published.datapackage): the shipped packages validate with the frictionless library, every
CSV of each folder is a resource whose fields are its columns, each with a description (and the
unit the dictionary gives), the shipped files are what the code makes of the shipped CSVs, and a
column the dictionary does not describe is refused before anything is written."""

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


def _check_folder(folder):
    """The folder's datapackage.json validates (frictionless: the descriptor, then every row of every
    CSV against its field types), names every CSV of the folder once, and describes every column."""
    report = validate(str(folder / dp.NAME))
    assert report.valid, report.flatten(["type", "note"])[:10]
    desc = json.loads((folder / dp.NAME).read_text())
    assert sorted(r["path"] for r in desc["resources"]) == sorted(p.name for p in folder.glob("*.csv"))
    for r in desc["resources"]:
        header = list(pd.read_csv(folder / r["path"], nrows=0).columns)
        fields = r["schema"]["fields"]
        assert [f["name"] for f in fields] == header, r["path"]
        assert all(f.get("description", "").strip() for f in fields), r["path"]
    return desc


def test_processed_package_validates_and_describes_every_column():
    desc = _check_folder(PROCESSED)
    assert desc == dp.processed_package(PROCESSED), "data/processed/datapackage.json is stale: run engbench process"
    fields = {(r["name"], f["name"]): f for r in desc["resources"] for f in r["schema"]["fields"]}
    c = columns.entry("runs", "read_amp_cgroup")
    f = fields[("runs", "read_amp_cgroup")]
    assert (f["unit"], f["engbench:counter"], f["engbench:denominator"]) == (c.unit, c.counter, c.denominator)
    assert f["type"] == "number" and fields[("latency", "count")]["type"] == "integer"
    assert fields[("runs", "incomplete")]["type"] == "boolean" and fields[("runs", "engine")]["type"] == "string"
    assert fields[("runs", "knob.rocksdb.compaction")]["engbench:counter"] == "manifest"


def test_published_package_validates_and_carries_units_and_conditions():
    desc = _check_folder(PUBLISHED)
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


def test_types_are_read_from_the_text():
    assert dp.infer_type(["1", "-2", ""]) == "integer"
    assert dp.infer_type(["1", "2.5", "1e+06", "inf", "nan"]) == "number"
    assert dp.infer_type(["True", "False", ""]) == "boolean"
    assert dp.infer_type(["1", "x"]) == "string"
    assert dp.infer_type(["1_0"]) == "string"  # Python's float() reads it; Table Schema does not
    assert dp.infer_type(["", ""]) == "any"
