"""The paper's front matter and reference list come from data (engbench.report.citation): the
authors from CITATION.cff when there is one, the date and commit from the newest run's manifest
(never the build's clock), the source documents from data/published/sources.csv with whatever
title/author/date/URL columns it has, the tools from paper/references.csv with the engine
versions the runs recorded; BibTeX's special characters escaped."""

import csv
import re

import pytest

from engbench import paths
from engbench.report import citation


def _manifest(ended, commit, dirty=False, lib="WiredTiger", version="11.3.1"):
    return {"ended_utc": ended, "git": {"commit": commit, "dirty": dirty},
            "software": {"engine_library": lib, "engine_version": version}}


def test_front_matter_is_the_newest_runs_date_and_commit(tmp_path):
    manifests = {"a": _manifest("2026-11-21T05:45:44.000Z", "1" * 40),
                 "b": _manifest("2026-11-23T17:05:40.057Z", "abcdef0123456789" * 2 + "abcdef01", dirty=True),
                 "c": _manifest("2026-11-22T00:00:00.000Z", "2" * 40)}
    f = citation.front(manifests, repo=tmp_path)      # no CITATION.cff, no pyproject here
    assert f["date"] == "2026-11-23" and f["data-commit"] == "abcdef012345-dirty" and f["data-runs"] == "3"
    assert f["author"] == ["engbench contributors"]
    assert f["licence-paper"] == "CC-BY-4.0" and f["licence-code"] == "MIT"
    assert citation.front({}, repo=tmp_path)["date"] == "no runs"
    yaml_text = citation.front_matter(f)
    assert "date: '2026-11-23'\n" in yaml_text and "bibliography: references.bib\n" in yaml_text
    # a commit of digits and one "e" is a float to pandoc's YAML 1.2 reader (it printed 7234e3384005
    # as 7.234e3384005): quoted; a hash with other letters stays plain
    assert "data-commit: '7234e3384005'\n" in citation.front_matter(dict(f, **{"data-commit": "7234e3384005"}))
    assert "data-commit: abcdef012345-dirty\n" in yaml_text
    assert citation.version() == re.search(r'^version = "([^"]+)"', (paths.REPO / "pyproject.toml").read_text(),
                                           re.M).group(1)


def test_authors_come_from_citation_cff(tmp_path):
    (tmp_path / "CITATION.cff").write_text(
        "cff-version: 1.2.0\ntitle: engbench\nauthors:\n  - given-names: Ada\n    family-names: Lovelace\n"
        "  - name: The engbench team\n")
    assert citation.authors(tmp_path) == ["Ada Lovelace", "The engbench team"]
    (tmp_path / "CITATION.cff").write_text("cff-version: 1.2.0\ntitle: engbench\n")
    assert citation.authors(tmp_path) == ["engbench contributors"]


def _sources_csv(path, with_documents=True):
    cols = ["csv_file", "seed_file", "section_heading"] + (
        ["document_title", "document_author", "document_date", "document_site", "document_url", "url_source"]
        if with_documents else [])
    doc = {"000": ["MongoRocks & WiredTiger: 100% linkbench", "Mark Callaghan; Someone Else", "2016-10-12",
                   "Small Datum", "http://smalldatum.blogspot.com/2016/10/x_y.html", "the seed's header"],
           "004": ["SERVER-37590: WiredTiger read-once cursors", "MongoDB", "2018-10-12", "MongoDB Jira", "",
                   "no URL in the seed"]}
    rows = [["000_a.csv", "000_a3a626a83483af6f.txt", "x"], ["000_b.csv", "000_a3a626a83483af6f.txt", "y"],
            ["004_c.csv", "004_cd5e51f7aa5a3e49.txt", "z"], ["numbers_in_text.csv", "(all)", "various"]]
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow(r + (doc.get(r[1][:3], [""] * 6) if with_documents else []))


def test_source_documents_are_engbench_citations_records(tmp_path):
    """The paper's reference list takes the source documents from engbench.citation.documents (the
    records CITATION.cff and .zenodo.json cite): one per seed file, not per table."""
    _sources_csv(tmp_path / "sources.csv")
    docs = {d["key"]: d for d in citation.sources(tmp_path)}
    assert sorted(docs) == ["source-000", "source-004"]
    d = docs["source-000"]
    assert d["title"] == "MongoRocks & WiredTiger: 100% linkbench" and d["date"] == "2016-10-12"
    assert d["author"] == "Mark Callaghan and Someone Else" and d["url"].endswith("x_y.html")
    assert docs["source-004"]["url"] == ""
    bib = citation.bibtex(list(docs.values()))
    assert "title = {{MongoRocks \\& WiredTiger: 100\\% linkbench}}," in bib
    assert "author = {Mark Callaghan and Someone Else}," in bib and "date = {2016-10-12}," in bib
    assert "url = {http://smalldatum.blogspot.com/2016/10/x_y.html}," in bib     # verbatim
    assert "note = {Source document 004 (004\\_cd5e51f7aa5a3e49.txt)" in bib


def test_a_sources_csv_without_the_document_columns_is_refused(tmp_path):
    """No guessing a title from elsewhere: a sources.csv that does not describe its documents is an
    error naming the file (engbench.citation.SourcesError); no sources.csv, no source references."""
    from engbench import citation as records
    _sources_csv(tmp_path / "sources.csv", with_documents=False)
    with pytest.raises(records.SourcesError, match="sources.csv"):
        citation.sources(tmp_path)
    assert citation.sources(tmp_path / "nowhere") == []


def test_tools_carry_the_engine_versions_the_runs_recorded():
    manifests = {"a": _manifest("x", "1", lib="RocksDB", version="7.8.3"),
                 "b": _manifest("y", "1", lib="rocksdb", version="8.0.0"),
                 "c": _manifest("z", "1", lib="SQLite", version="3.40.1")}
    tools = {t["key"]: t for t in citation.tools(paths.REPO / "paper", manifests)}
    assert {"linkbench", "iibench", "ycsb", "sysbench", "wiredtiger", "rocksdb", "lmdb", "sqlite"} <= set(tools)
    assert tools["rocksdb"]["version"] == "7.8.3, 8.0.0" and tools["sqlite"]["version"] == "3.40.1"
    assert tools["wiredtiger"]["version"] == "" and tools["ycsb"]["doi"] == "10.1145/1807128.1807152"
    bib = citation.bibtex(list(tools.values()))
    assert "@inproceedings{ycsb," in bib and "author = {{MongoDB Inc.}}," in bib
    assert "version = {7.8.3, 8.0.0}," in bib and "booktitle = {Proceedings of the 1st ACM" in bib
    # every entry is one BibTeX record with balanced braces
    for entry in bib.split("\n\n"):
        assert entry.count("{") - entry.count("\\{") == entry.count("}") - entry.count("\\}"), entry
