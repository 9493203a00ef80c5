"""The paper a reviewer reads in twenty minutes, and its supplement (issue 45): checked on a build
directory — the committed paper/build, or the one ENGBENCH_PAPER_BUILD names (a scratch
`engbench report --out DIR` build: DIR/build).

- the paper is at most MAX_PAGES pages (pdfinfo), references included; the supplement is its own PDF;
- its sections: an abstract of at most 200 words whose numbers are numbers.json's, Introduction,
  Method, one section per source document, Published numbers checked, Threats to validity, Conclusion;
- each source-document section has its document's table with published rows and measured rows beside
  them (tables/paper.published.<doc>*.csv: a "published" row, then "here" rows), and its claims table;
- the two documents link each other.

The row-merging check (no table row of the paper or the supplement averages runs whose knobs
differ) runs on the shipped processed tables and needs no build."""

import json
import os
import re
from pathlib import Path

import pandas as pd
import pytest

from engbench import paths
from engbench.report import manuscript

BUILD = Path(os.environ.get("ENGBENCH_PAPER_BUILD", paths.REPO / "paper" / "build"))
MAX_PAGES = 25
SOURCES = ("000", "001", "002", "003", "004")


@pytest.fixture(scope="module")
def build():
    if not (BUILD / "paper.pdf").is_file():
        pytest.fail(f"{BUILD}/paper.pdf missing: run `engbench report` (or set ENGBENCH_PAPER_BUILD)", pytrace=False)
    return BUILD


def test_the_paper_fits_in_25_pages_and_the_supplement_holds_the_rest(build):
    assert manuscript.pdf_pages(build / "paper.pdf") <= MAX_PAGES
    assert (build / "supplement.pdf").is_file() and (build / "supplement.html").is_file()
    assert manuscript.pdf_pages(build / "supplement.pdf") > manuscript.pdf_pages(build / "paper.pdf")
    text = manuscript.pdf_text(build / "paper.pdf")
    assert "References" in text and "Designing Access Methods" in " ".join(text.split())  # the RUM conjecture, cited


def test_sections_in_order(build):
    md = (build / "paper.md").read_text()
    heads = [re.sub(r" \{#[^}]+\}$", "", h) for h in re.findall(r"(?m)^## .*", md)]
    assert heads[:2] == ["## Introduction", "## Method"]
    assert [h[3:6] for h in heads[2:7]] == list(SOURCES)
    assert heads[7:] == ["## Published numbers checked", "## Threats to validity", "## Conclusion"]
    assert "[@rum]" in md and "supplement.pdf" in md and "supplement.html" in md
    assert "paper.pdf" in (build / "supplement.md").read_text()


def test_the_abstract_is_short_and_its_numbers_are_computed(build):
    md = (build / "paper.md").read_text().split("\n---\n", 1)[1]
    abstract = md.split("**Abstract.**", 1)[1].split("\n\n", 1)[0]
    words = re.sub(r"\[@[^\]]*\]", "", abstract).split()
    assert len(words) <= 200, len(words)
    numbers = json.loads((build / "numbers.json").read_text())
    tested = numbers["front.tested"]
    assert f"{tested} testable claims" in abstract
    counts = {k.rsplit(".", 1)[1]: v for k, v in numbers.items() if k.startswith("front.verdict.")}
    assert sum(int(v) for v in counts.values()) == int(tested)
    assert f"{counts['holds']} hold" in abstract
    for k, v in numbers.items():
        if k.startswith("front.headline."):
            assert v in abstract, k


@pytest.mark.parametrize("doc", SOURCES)
def test_each_source_section_has_its_table_published_beside_measured(build, doc):
    found = sorted((build / "tables").glob(f"paper.published.{doc}*.csv"))
    assert found, f"no published-vs-here table for source {doc}"
    for f in found:
        t = pd.read_csv(f, dtype=str, keep_default_na=False)
        kinds = [r.split(",")[0] for r in t["row"]]
        assert "published" in kinds and "here" in kinds, f.name
        # a measured row follows a published one (beside it), never a block of its own elsewhere
        first_here = kinds.index("here")
        assert first_here > 0 and kinds[first_here - 1] == "published", f.name
    md = (build / "paper.md").read_text()
    section = md.split(f"## {doc}:", 1)[1].split("\n## ", 1)[0]
    for f in found:
        assert "{#tab-" + re.sub(r"[^A-Za-z0-9_-]+", "-", f.stem) + "}" in section
    assert "{#tab-paper-claims-" + doc + "}" in section


def test_no_row_merges_runs_whose_knobs_differ():
    """Every configuration (a table row) of every comparison holds runs with one set of knobs. Failed on
    42f6c717: the iibench reproduction's `wiredtiger-lsm` row held 9 runs over three cache sizes
    (its knobs are knob.wiredtiger.*, which config_labels did not look at)."""
    from engbench.report import data
    from engbench.tables.processed import load_processed
    runs = load_processed(paths.REPO / "data" / "processed")["runs"]  # the shipped tables
    knobs = [c for c in runs.columns if c.startswith("knob.")]
    merged = []
    for e in data.comparisons(runs, engine_order=data.ENGINE_ORDER, defaults_of=lambda w: None):
        for cfg, g in e.runs.groupby("config"):
            differ = [c for c in knobs if g[c].astype(str).nunique() > 1]
            if differ:
                merged.append(f"{e.key} {cfg!r}: {len(g)} runs, {', '.join(k.split('.', 1)[1] for k in differ)} differ")
    assert not merged, merged


def test_rows_are_named_by_role():
    """A configuration that differs from its engine's others is named by its role, not its raw knobs."""
    from engbench.report import roles
    runs = pd.DataFrame({"engine": ["wiredtiger"] * 4, "index_bytes": [64 * 2**20] * 4,
                         "knob.wiredtiger.cache_size": [16 * 2**20, 16 * 2**20, 256 * 2**20, 256 * 2**20],
                         "knob.wiredtiger.direct_io": ["true", "true", "false", "false"]})
    keys = runs[["knob.wiredtiger.cache_size", "knob.wiredtiger.direct_io"]].apply(
        lambda r: json.dumps([int(r.iloc[0]), r.iloc[1]]), axis=1)
    names = roles.label("wiredtiger", runs, ["knob.wiredtiger.cache_size", "knob.wiredtiger.direct_io"], keys)
    assert sorted(names.values()) == ["WT B-tree, large cache (256 MiB = 4.00× index), buffered IO",
                                      "WT B-tree, small cache (16 MiB = 0.25× index), direct IO"]
    assert roles.engine_of("WT B-tree, small cache (16 MiB = 0.25× index), direct IO") == "wiredtiger"
    assert roles.engine_of("WT LSM, small cache (16 MiB)") == "wiredtiger-lsm"
    assert roles.engine_of("rocksdb") == "rocksdb"


def test_a_published_beside_measured_row_never_averages_different_knobs():
    """published_vs refuses a measured row whose runs' knobs differ (the paper's own tables pick runs by
    engine and experiment: a reproduction that ran two caches under one experiment name is named)."""
    from engbench.report import published_vs
    runs = pd.DataFrame({"run_id": ["a", "b", "c"], "engine": ["wiredtiger-lsm"] * 3,
                         "knob.wiredtiger.cache_size": [16, 16, 64]})
    assert len(published_vs.one_config(runs, runs.iloc[:2], "row")) == 2
    with pytest.raises(published_vs.MergedRows, match="row: 3 runs whose knob.wiredtiger.cache_size differ"):
        published_vs.one_config(runs, runs, "row")
