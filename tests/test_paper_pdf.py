"""The paper's PDF, page by page (issue 28, item 5): the committed paper/build/paper.pdf is rendered
to PNG with poppler's pdftoppm (every page), its text read with pdftotext: more than one page, a
title page with the front matter, every table and figure of paper.md with a numbered caption
("Table N:", "Figure N:", 1, 2, 3, ... in order), a reference list with every entry of
references.bib, and no figure blank.

A figure is blank when the strip of the page right above its caption (where the chart's axis
labels, ticks and legend are: 1 inch tall, the text's width) is one flat tone: the standard
deviation of its gray levels (pdftoppm -gray, 50 dpi) under MIN_STD. Measured on the shipped
paper before the threshold was set: 14.8 to 80 over its 94 figures, 0 for a blank one
(test_a_blank_figure_is_caught builds one through the same pipeline).

Never skipped: a machine without poppler-utils fails here, saying to run scripts/setup.sh."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from engbench import paths
from engbench.report import manuscript

SHIPPED_BUILD = Path(os.environ.get("ENGBENCH_PAPER_BUILD", paths.REPO / "paper" / "build"))  # or a scratch build
DPI = 50
STRIP_PT = 72          # the strip above a caption that must not be blank (points)
MIN_STD = 5.0          # gray levels (0-255)
MARGIN_PT = 56         # the page's left and right margins (2 cm), points


@pytest.fixture(scope="module", autouse=True)
def poppler():
    missing = [t for t in ("pdftoppm", "pdftotext", "pdfinfo") if shutil.which(t) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing (Debian's poppler-utils): run `bash scripts/setup.sh`",
                    pytrace=False)


def figure_captions(pdf: Path) -> list[tuple[int, int, float]]:
    """(page, figure number, top of the caption in points) of every "Figure N:" caption."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    found = []
    for page_no, page in enumerate(out.split("<page ")[1:], start=1):
        words = re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)</word>', page)
        for (y, word), (_, nxt) in zip(words, words[1:]):
            if word == "Figure" and re.fullmatch(r"\d+:", nxt):
                found.append((page_no, int(nxt[:-1]), float(y)))
    return found


def gray_page(pdf: Path, page: int, tmp: Path) -> np.ndarray:
    """One page as 8-bit gray levels (pdftoppm -gray: a binary PGM)."""
    stem = tmp / f"gray-{page}"
    subprocess.run(["pdftoppm", "-gray", "-r", str(DPI), "-f", str(page), "-l", str(page), "-singlefile",
                    str(pdf), str(stem)], check=True, capture_output=True)
    raw = stem.with_suffix(".pgm").read_bytes()
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+255\s", raw)
    width, height = int(m.group(1)), int(m.group(2))
    return np.frombuffer(raw[m.end():], dtype=np.uint8).reshape(height, width)


def blank_figures(pdf: Path, tmp: Path) -> list[str]:
    """The figures whose strip above the caption is one flat tone (module docstring)."""
    scale, pages, out = DPI / 72, {}, []
    for page, number, top in figure_captions(pdf):
        if page not in pages:
            pages[page] = gray_page(pdf, page, tmp)
        img = pages[page]
        strip = img[max(0, int((top - STRIP_PT) * scale)):int((top - 2) * scale),
                    int(MARGIN_PT * scale):img.shape[1] - int(MARGIN_PT * scale)].astype(float)
        if strip.size == 0 or strip.std() < MIN_STD:
            out.append(f"Figure {number} (page {page}): std {strip.std() if strip.size else 0:.1f} above its caption")
    return out


def numbered(text: str, word: str) -> list[int]:
    return [int(n) for n in re.findall(rf"(?m)^\s*{word} (\d+):", text)]


@pytest.fixture(scope="module")
def shipped_text():
    return manuscript.pdf_text(SHIPPED_BUILD / "paper.pdf")


def test_every_page_renders_to_png(tmp_path):
    pdf = SHIPPED_BUILD / "paper.pdf"
    pages = manuscript.pdf_pages(pdf)
    assert pages > 1
    subprocess.run(["pdftoppm", "-png", "-r", "30", str(pdf), str(tmp_path / "page")], check=True,
                   capture_output=True)
    pngs = sorted(tmp_path.glob("page-*.png"))
    assert len(pngs) == pages
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 1000 for p in pngs)


def test_tables_and_figures_are_numbered_in_order(shipped_text):
    md = (SHIPPED_BUILD / "paper.md").read_text()
    n_tables, n_figures = len(re.findall(r"\{#tab-", md)), len(re.findall(r"\{#fig-", md))
    assert n_tables > 10 and n_figures >= 5   # the paper: a table and a chart or two per source document
    assert numbered(shipped_text, "Table") == list(range(1, n_tables + 1))
    assert numbered(shipped_text, "Figure") == list(range(1, n_figures + 1))
    # cross-references print the number they point at (wherever the PDF's lines break)
    assert re.search(r"\(Table\s+\d+\)", shipped_text)
    assert re.search(r"\(Section\s+\d+\s+to\s+Section\s+\d+\)", shipped_text)
    # the supplement is numbered on its own, from 1
    supp = manuscript.pdf_text(SHIPPED_BUILD / "supplement.pdf")
    md = (SHIPPED_BUILD / "supplement.md").read_text()
    assert numbered(supp, "Table") == list(range(1, len(re.findall(r"\{#tab-", md)) + 1))
    assert re.search(r"Table\s+\d+\s+lists\s+the\s+claims", supp)


def test_front_matter_and_reference_list(shipped_text):
    first = " ".join(shipped_text.split("\f")[0].split())
    assert "B-tree, LSM and mmap storage engines, measured" in first
    assert "CC-BY-4.0" in first and "MIT" in first and "engbench 0." in first
    assert re.search(r"commit\s+[0-9a-f]{12}", first)
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", first)
    tail = shipped_text[shipped_text.rindex("References"):]
    keys = re.findall(r"^@\w+\{([^,]+),", (SHIPPED_BUILD / "references.bib").read_text(), re.M)
    assert {"source-000", "source-004", "linkbench", "iibench", "ycsb", "sysbench", "wiredtiger", "rocksdb",
            "lmdb", "sqlite"} <= set(keys)
    assert re.findall(r"(?m)^\f?\[(\d+)\]", tail) == [str(n) for n in range(1, len(keys) + 1)]
    flat = " ".join(tail.split())
    assert "LinkBench: a Database Benchmark Based on the Facebook Social Graph" in flat


def test_no_figure_is_blank(tmp_path):
    pdf = SHIPPED_BUILD / "paper.pdf"
    caps = figure_captions(pdf)
    assert len(caps) == len(re.findall(r"\{#fig-", (SHIPPED_BUILD / "paper.md").read_text()))
    assert blank_figures(pdf, tmp_path) == []


def test_a_blank_figure_is_caught(tmp_path):
    """The same pipeline (pandoc, Typst) on a paper whose second figure is a white rectangle: the
    check names it and only it."""
    build = tmp_path / "build"
    (build / "figures").mkdir(parents=True)
    chart = next(SHIPPED_BUILD.glob("figures/*.rate.svg"))
    shutil.copy(chart, build / "figures" / "chart.svg")
    (build / "figures" / "blank.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><rect width="600" height="300" '
        'fill="white"/></svg>')
    (build / "references.bib").write_text("@misc{x,\n  title = {{X}},\n}\n")
    (build / "paper.md").write_text(
        '---\ntitle: "t"\nauthor: [a]\ndate: "2026-01-01"\nbibliography: references.bib\n---\n\n'
        "## One\n\nText [@x], [@fig-chart], [@fig-blank].\n\n![A chart.](figures/chart.svg){#fig-chart}\n\n"
        "![Nothing.](figures/blank.svg){#fig-blank}\n")
    pdf, _ = manuscript.render(build)
    assert [c[1] for c in figure_captions(pdf)] == [1, 2]
    assert [b.split(" (")[0] for b in blank_figures(pdf, tmp_path)] == ["Figure 2"]
