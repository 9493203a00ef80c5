"""Citable and licensed: CITATION.cff is valid CFF 1.2.0 (cffconvert) with its release date, both
licences and the paper as its preferred citation; .zenodo.json is cffconvert's Zenodo metadata of
it, nothing else; the source documents have title, author, date and URL in
data/published/sources.csv and the paper's reference list (paper/references.bib) is generated from
them; the licence texts are in LICENSES/ and REUSE.toml says which files are under which (`reuse
lint`); third-party data carry their licence beside them.

cffconvert pins jsonschema 3, which the Jupyter packages cannot share, so it runs in a small
environment of its own, made by uv from the shared download cache (scripts/setup.sh); so does reuse."""

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engbench import citation, paths

CFFCONVERT = "cffconvert==2.0.0"
REUSE = "reuse==6.2.0"


def _tool_env(tmp_path_factory, requirement: str, exe: str) -> Path:
    """A small virtual environment with one pinned tool (uv, from the shared download cache)."""
    env_dir = tmp_path_factory.mktemp(exe) / "env"
    uv = paths.REPO / "build" / "uv"
    assert uv.exists(), "build/uv is made by scripts/setup.sh"
    uv_env = {**os.environ, "UV_CACHE_DIR": str(Path(os.environ.get("ENGBENCH_CACHE", Path.home() / ".cache" /
                                                                       "engbench")) / "uv"),
              "UV_PYTHON_DOWNLOADS": "never", "UV_NO_PROGRESS": "1"}
    subprocess.run([str(uv), "venv", "--quiet", "--python", sys.executable, str(env_dir)], env=uv_env, check=True)
    subprocess.run([str(uv), "pip", "install", "--quiet", "--python", str(env_dir / "bin" / "python"), requirement],
                   env=uv_env, check=True, timeout=600)
    return env_dir / "bin" / exe


@pytest.fixture(scope="module")
def cffconvert(tmp_path_factory) -> Path:
    return _tool_env(tmp_path_factory, CFFCONVERT, "cffconvert")


@pytest.fixture(scope="module")
def reuse(tmp_path_factory) -> Path:
    return _tool_env(tmp_path_factory, REUSE, "reuse")


def run_cffconvert(exe, *args):
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=120)


def test_citation_cff_is_valid_cff_1_2_0(cffconvert, tmp_path):
    out = run_cffconvert(cffconvert, "--validate", "-i", str(paths.REPO / "CITATION.cff"))
    assert out.returncode == 0 and "valid according to schema version 1.2.0" in out.stdout, out.stdout + out.stderr
    # the validator bites: the same file with a reference's date not a date, and without a title
    text = (paths.REPO / "CITATION.cff").read_text()
    for broken in (text.replace("date-published: 2016-10-12", "date-published: October 2016"),
                   re.sub(r"(?m)^title: .*\n", "", text)):
        (tmp_path / "CITATION.cff").write_text(broken)
        assert run_cffconvert(cffconvert, "--validate", "-i", str(tmp_path / "CITATION.cff")).returncode != 0


def test_zenodo_json_is_cffconverts_output(cffconvert):
    """.zenodo.json is derived, not written: exactly `cffconvert -f zenodo -i CITATION.cff`
    (regenerate it with that command after editing CITATION.cff)."""
    out = run_cffconvert(cffconvert, "-f", "zenodo", "-i", str(paths.REPO / "CITATION.cff"))
    assert out.returncode == 0, out.stderr
    zenodo = json.loads((paths.REPO / ".zenodo.json").read_text())
    assert zenodo == json.loads(out.stdout), "stale .zenodo.json: cffconvert -f zenodo -i CITATION.cff > .zenodo.json"
    version = re.search(r'^version = "([^"]+)"', (paths.REPO / "pyproject.toml").read_text(), re.M).group(1)
    assert zenodo["version"] == version, "CITATION.cff, .zenodo.json and pyproject.toml name one version"
    assert zenodo["publication_date"] == str(yaml.safe_load((paths.REPO / "CITATION.cff").read_text())["date-released"])


def test_citation_cff_has_its_release_both_licences_and_the_paper_as_preferred_citation():
    cff = yaml.safe_load((paths.REPO / "CITATION.cff").read_text())
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(cff["date-released"]))
    assert cff["license"] == ["MIT", "CC-BY-4.0"], "the code MIT; the data and the paper CC-BY-4.0"
    pref = cff["preferred-citation"]
    template = (paths.REPO / "paper" / "paper.md.j2").read_text()
    title = re.search(r'^title: "([^"]+)"', template, re.M).group(1)
    assert pref["type"] in ("report", "article") and pref["title"] == title, "the paper, by its own title"
    assert pref["authors"] == cff["authors"] and pref["license"] == "CC-BY-4.0"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(pref["date-published"]))
    assert str(pref["date-published"]) <= str(cff["date-released"])


def test_licence_texts_and_reuse_lint(reuse, tmp_path):
    """LICENSES/ holds the texts of every licence REUSE.toml uses (MIT: the repository's LICENSE;
    CC-BY-4.0 and Apache-2.0: the SPDX texts, from npm's spdx-license-list 6.12.0), and `reuse lint`
    finds every file licensed; the lint bites on a file without one."""
    lic = paths.REPO / "LICENSES"
    assert sorted(p.name for p in lic.iterdir()) == ["Apache-2.0.txt", "CC-BY-4.0.txt", "LicenseRef-engbench-quoted.txt",
                                                     "MIT.txt"]
    assert (lic / "MIT.txt").read_text() == (paths.REPO / "LICENSE").read_text()
    cc = (lic / "CC-BY-4.0.txt").read_text()
    assert cc.startswith("Creative Commons Attribution 4.0 International") and "Section 8 – Interpretation." in cc
    assert "Version 2.0, January 2004" in (lic / "Apache-2.0.txt").read_text()
    reuse_toml = (paths.REPO / "REUSE.toml").read_text()
    for path in ("data/raw/**", "data/processed/**", "paper/**", "data/published/**", "driver/data/linkbench/**"):
        assert f'"{path}"' in reuse_toml, path
    out = subprocess.run([str(reuse), "--root", str(paths.REPO), "lint"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "Used licenses: Apache-2.0, CC-BY-4.0, LicenseRef-engbench-quoted, MIT" in out.stdout
    # the lint bites: a tree whose REUSE.toml names a licence LICENSES/ lacks
    (tmp_path / "LICENSES").mkdir()
    (tmp_path / "LICENSES" / "MIT.txt").write_text((lic / "MIT.txt").read_text())
    (tmp_path / "a.py").write_text("print(1)\n")
    (tmp_path / "REUSE.toml").write_text('version = 1\n[[annotations]]\npath = "**"\nSPDX-FileCopyrightText = "x"\n'
                                         'SPDX-License-Identifier = "CC-BY-4.0"\n')
    bad = subprocess.run([str(reuse), "--root", str(tmp_path), "lint"], capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "CC-BY-4.0" in bad.stdout


def test_every_source_document_has_title_author_date_and_url():
    docs = citation.documents()
    published = paths.REPO / "data" / "published"
    named = {row["seed_file"] for name in ("sources.csv", "claims_in_text.csv", "numbers_in_text.csv")
             for row in csv.DictReader(open(published / name, newline=""))} - {"(all)"}
    assert sorted(d["seed_file"] for d in docs) == sorted(named), "one document per seed file any table names"
    assert [d["seed"] for d in docs] == ["000", "001", "002", "003", "004"]
    for d in docs:
        assert d["title"] and d["author"] and d["site"] and re.fullmatch(r"\d{4}-\d{2}-\d{2}", d["date"]), d
        assert d["url"].startswith(("http://", "https://")) and d["url_source"], d  # how it was confirmed


def test_documents_refuse_rows_that_disagree_or_miss_a_field(tmp_path):
    src = (paths.REPO / "data" / "published" / "sources.csv").read_text()
    rows = list(csv.DictReader(src.splitlines()))
    rows[1]["document_title"] += " (another title)"  # the second row of document 000
    with open(tmp_path / "sources.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(citation.SourcesError, match="000_a3a626a83483af6f.txt disagree on title"):
        citation.documents(tmp_path)
    rows = list(csv.DictReader(src.splitlines()))
    for r in rows:
        if r["seed_file"].startswith("003_"):
            r["document_date"] = "23 Dec 2014"
    with open(tmp_path / "sources.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(citation.SourcesError, match="is not YYYY-MM-DD"):
        citation.documents(tmp_path)


def test_the_papers_reference_list_cites_the_source_documents_of_sources_csv(tmp_path):
    """One generator: the paper's build/references.bib gets the source documents from
    citation.documents, the same records CITATION.cff cites."""
    from engbench.report import citation as paper_citation

    docs = citation.documents()
    entries = paper_citation.sources(paths.REPO / "data" / "published")
    assert [e["key"] for e in entries] == [f"source-{n:03d}" for n in range(5)]
    assert [(e["title"], e["date"], e["url"]) for e in entries] == [(d["title"], d["date"], d["url"]) for d in docs]
    bib = paper_citation.bibtex(entries)
    assert bib.count("@online{source-") == 5 and docs[3]["title"] in bib
    assert not (paths.REPO / "paper" / "references.bib").exists(), "one reference list: the paper's build makes it"


def test_citation_cff_references_are_the_source_documents():
    cff = yaml.safe_load((paths.REPO / "CITATION.cff").read_text())
    refs = cff["references"]
    docs = citation.documents()
    assert len(refs) == len(docs)
    for ref, doc in zip(refs, docs):
        assert ref["title"] == doc["title"] and ref["url"] == doc["url"]
        assert str(ref["date-published"]) == doc["date"]
        assert [f"{a['given-names']} {a['family-names']}" for a in ref["authors"]] == [doc["author"]]
        assert ref["notes"].startswith(f"engbench source {doc['seed']};")
    assert cff["version"] == json.loads((paths.REPO / ".zenodo.json").read_text())["version"]


def test_the_code_is_mit_and_the_readme_says_what_else_is_licensed_how():
    lic = (paths.REPO / "LICENSE").read_text()
    assert lic.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in lic
    readme = (paths.REPO / "README.md").read_text()
    section = readme[readme.index("## Licence and citation"):]
    for needle in ("MIT", "CC-BY-4.0", "`data/raw`", "`data/processed`", "`paper/`", "`data/published`",
                   "driver/data/linkbench", "CITATION.cff", "`LICENSES/`", "`REUSE.toml`", "cffconvert -f zenodo"):
        assert needle in section, needle


def test_third_party_data_carries_its_licence_beside_it():
    """Every folder of third-party data the driver compiles in (driver/data/<name>/) holds the
    licence text it came with and a README naming its source and licence; LinkBench's is the Apache
    License 2.0, verbatim."""
    folders = [p for p in (paths.REPO / "driver" / "data").iterdir() if p.is_dir()]
    assert folders
    for d in folders:
        assert (d / "LICENSE").is_file() and (d / "README.md").is_file(), d
        readme = (d / "README.md").read_text()
        assert "Source:" in readme and "Licence:" in readme, d
    lb = paths.REPO / "driver" / "data" / "linkbench"
    text = (lb / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text and "END OF TERMS AND CONDITIONS" in text
    assert (lb / "NOTICES").is_file() and "Apache License 2.0" in (lb / "README.md").read_text()
