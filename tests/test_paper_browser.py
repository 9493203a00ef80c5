"""The paper's HTML renders in a real browser (issue 13, item 7) and reads as a manuscript (issue
28, item 5): headless Chromium (Debian's package, through /usr/bin/chromedriver and Selenium, no
network) opens the committed paper/build/paper.html and a paper built afresh from the shipped
processed data; the page has its title and heading, every figure paper.md declares is there and
decoded with a non-zero size, the console holds no error or warning (uncaught exceptions
included), tables and figures are numbered 1, 2, 3, ... in their captions (each figure captioned as
paper.md says), every cross-reference is a link to an element of the page that carries the number
the link shows (clicking one scrolls to it), and the reference list has every entry of
references.bib. The helper (tests/browser.py) is shown to catch a corrupted figure, an injected
console error / warning / exception, a broken cross-reference, an unnumbered caption and a missing
reference on scratch copies of the paper.

Never skipped: a machine without Chromium fails here, saying to run scripts/setup.sh."""

import base64
import os
import re
from pathlib import Path

import pytest

import browser
from engbench import paths

SHIPPED_BUILD = Path(os.environ.get("ENGBENCH_PAPER_BUILD", paths.REPO / "paper" / "build"))  # or a scratch build


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for the whole module, always quit."""
    missing = None
    try:
        driver = browser.start_browser()
    except browser.BrowserMissing as e:
        missing = str(e)
    if missing:
        pytest.fail(missing, pytrace=False)     # a failure, never a skip
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def fresh_build(tmp_path_factory):
    """`engbench report` from the shipped processed tables (and the manifests of data/raw) into a
    scratch paper folder; its build/ directory."""
    from engbench.cli import main
    out = tmp_path_factory.mktemp("paper")
    assert main(["report", "--processed", str(paths.REPO / "data" / "processed"),
                 "--raw", str(paths.REPO / "data" / "raw"), "--out", str(out)]) == 0
    return out / "build"


def _assert_renders(chromium, build_dir: Path, stem: str = "paper"):
    """One document (the paper or its supplement) renders, every figure it declares decoded, numbered."""
    report = browser.inspect(chromium, build_dir / f"{stem}.html")
    assert report.url.startswith("file://")
    # how many figures to expect: the document's own declaration ({stem}.md's references), each one a
    # file the build wrote (and every SVG the build wrote is declared by one of the two documents)
    svgs = sorted(p.name for p in (build_dir / "figures").glob("*.svg"))
    assert set(Path(p).name for _, p in report.declared) <= set(svgs)
    assert report.declared, f"{stem} declares no figure: nothing to check"
    md = (build_dir / f"{stem}.md").read_text()
    assert report.title == re.search(r'^title: "(.+)"$', md, re.M).group(1), report.title
    assert report.problems() == [], "\n".join(report.problems())
    assert len(report.figures) == len(report.declared)
    assert all(f.ok for f in report.figures)
    # a manuscript: numbered tables and figures, resolved cross-references, the reference list
    assert report.manuscript_problems() == [], "\n".join(report.manuscript_problems()[:20])
    assert len(report.numbered("table")) == md.count("{#tab-") > 10
    assert len(report.numbered("figure")) == md.count("{#fig-") == len(report.declared)
    kinds = {link["href"].split("-", 1)[0] for link in report.links if link["role"] != "doc-biblioref"}
    assert {"tab", "sec"} <= kinds and ("fig" in kinds or stem == "paper"), kinds
    assert any(link["role"] == "doc-biblioref" for link in report.links)
    assert len(report.references) == len(report.bib_keys) >= 13
    assert any("LinkBench: a Database Benchmark" in r for r in report.references)
    return report


def _renders_both(chromium, build_dir: Path):
    declared = set()
    for stem in ("paper", "supplement"):
        declared |= {Path(p).name for _, p in _assert_renders(chromium, build_dir, stem).declared}
    assert declared == {p.name for p in (build_dir / "figures").glob("*.svg")}


def test_committed_paper_renders_with_every_figure_and_a_quiet_console(chromium):
    _renders_both(chromium, SHIPPED_BUILD)


def test_freshly_built_paper_renders_with_every_figure_and_a_quiet_console(chromium, fresh_build):
    _renders_both(chromium, fresh_build)


@pytest.mark.parametrize("href", ["tab-findings", "sec-methods", "sec-device"])
def test_a_cross_reference_scrolls_to_its_target(chromium, href):
    browser.inspect(chromium, SHIPPED_BUILD / "supplement.html")  # the claims, methods and device
    landed = browser.follow(chromium, href)
    assert landed["hash"] == f"#{href}"
    assert -2 <= landed["top"] <= 40, landed     # the target at the top of the window


def test_a_figure_reference_and_a_citation_scroll_to_their_targets(chromium):
    report = browser.inspect(chromium, SHIPPED_BUILD / "supplement.html")
    fig = next(link["href"] for link in report.links if link["href"].startswith("fig-"))
    cite = next(link["href"] for link in report.links if link["role"] == "doc-biblioref")
    for href in (fig, cite):
        landed = browser.follow(chromium, href)
        assert landed["hash"] == f"#{href}", (href, landed)
        # at the window's top, or (the reference list ends the page) in view with the page at its end
        assert -2 <= landed["top"] <= 40 or (landed["at_bottom"] and 0 <= landed["top"] < landed["height"]), \
            (href, landed)


# --- the checks fail on a broken paper --------------------------------------------------------

def _scratch(tmp_path) -> Path:
    return browser.copy_build(SHIPPED_BUILD, tmp_path)


def _data_uris(html: str) -> list[re.Match]:
    return list(re.finditer(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html))


def test_a_figure_with_a_corrupted_data_uri_is_named(chromium, tmp_path):
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    uris = _data_uris(html)
    assert len(uris) >= 2
    victim = 2
    m = uris[victim - 1]
    svg = base64.b64decode(m.group(1))
    bad = base64.b64encode(svg[: len(svg) // 2]).decode()     # cut half-way: no longer valid SVG
    (build / "paper.html").write_text(html[: m.start(1)] + bad + html[m.end(1):])

    report = browser.inspect(chromium, build / "paper.html")
    assert [f.index for f in report.broken_figures] == [victim]
    broken = report.broken_figures[0]
    assert browser.plain(broken.caption.split(":", 1)[1]) == browser.plain(report.declared[victim - 1][0])
    assert any(p.startswith(f"broken figure {victim} ") for p in report.problems()), report.problems()
    with pytest.raises(AssertionError, match=f"broken figure {victim} "):
        _assert_renders(chromium, build)


def test_a_figure_missing_from_the_page_is_counted(chromium, tmp_path):
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    m = _data_uris(html)[0]
    start, end = html.rindex("<img", 0, m.start()), html.index(">", m.end()) + 1
    (build / "paper.html").write_text(html[:start] + html[end:])
    report = browser.inspect(chromium, build / "paper.html")
    assert len(report.figures) == len(report.declared) - 1
    assert any("declared in paper.md" in p for p in report.problems()), report.problems()


@pytest.mark.parametrize("script, level, text", [
    ('console.error("injected-error-13")', "SEVERE", "injected-error-13"),
    ('console.warn("injected-warning-13")', "WARNING", "injected-warning-13"),
    ('throw new Error("injected-exception-13")', "SEVERE", "injected-exception-13"),
    ('setTimeout(() => { null.x; }, 0)', "SEVERE", "TypeError"),
])
def test_console_errors_warnings_and_exceptions_are_reported(chromium, tmp_path, script, level, text):
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    (build / "paper.html").write_text(html.replace("</body>", f"<script>{script}</script>\n</body>", 1))
    report = browser.inspect(chromium, build / "paper.html")
    hits = [e for e in report.console_problems if text in e["message"]]
    assert hits and hits[0]["level"] == level, report.console
    assert any(p.startswith(f"console {level}:") and text in p for p in report.problems())
    assert not report.broken_figures
    with pytest.raises(AssertionError, match=text):
        _assert_renders(chromium, build)


def test_an_external_reference_fails_without_going_out(chromium, tmp_path):
    """The page may use nothing but itself: a figure from the network is broken (no host name
    resolves in this browser) and named as fetched from outside the page."""
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    (build / "paper.html").write_text(
        html.replace("</body>", '<img alt="remote" src="https://example.com/figure.png">\n</body>', 1))
    report = browser.inspect(chromium, build / "paper.html")
    assert [f.alt for f in report.broken_figures] == ["remote"]
    assert "https://example.com/figure.png" in report.external_resources


def test_a_machine_without_chromium_fails_with_the_fix(monkeypatch, tmp_path):
    """No skip when the browser is missing: start_browser refuses, naming scripts/setup.sh (the
    module fixture turns that into a failure)."""
    for name in ("CHROMIUM", "CHROMEDRIVER"):
        with monkeypatch.context() as m:
            m.setattr(browser, name, str(tmp_path / "absent"))
            with pytest.raises(browser.BrowserMissing, match=r"absent missing: run `bash scripts/setup.sh`"):
                browser.start_browser()


# --- the manuscript checks fail on a broken manuscript -----------------------------------------

def test_a_cross_reference_to_nothing_is_named(chromium, tmp_path):
    build = _scratch(tmp_path)
    html = (build / "supplement.html").read_text()
    assert html.count('id="tab-findings"') == 1
    (build / "supplement.html").write_text(html.replace('id="tab-findings"', 'id="tab-elsewhere"'))
    problems = browser.inspect(chromium, build / "supplement.html").manuscript_problems()
    assert any(p.startswith("link 'Table 1' to #tab-findings: no such element") for p in problems), problems


def test_a_cross_reference_that_lands_on_another_number_is_named(chromium, tmp_path):
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    first = re.search(r'<a href="#(tab-[^"]+)">Table\s(\d+)</a>', html)     # Typst: a no-break space
    wrong = f'<a href="#{first.group(1)}">Table {int(first.group(2)) + 1}</a>'
    (build / "paper.html").write_text(html[:first.start()] + wrong + html[first.end():])
    problems = browser.inspect(chromium, build / "paper.html").manuscript_problems()
    assert any(f"to #{first.group(1)} lands on 'Table {first.group(2)}:" in p for p in problems), problems


def test_an_unnumbered_caption_and_a_missing_reference_are_named(chromium, tmp_path):
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    html = re.sub(r"<figcaption>Table\s2:", "<figcaption>Table:", html, count=1)
    start = html.index("<li", html.index('role="doc-bibliography"'))
    html = html[:start] + html[html.index("</li>", start) + len("</li>"):]
    (build / "paper.html").write_text(html)
    problems = browser.inspect(chromium, build / "paper.html").manuscript_problems()
    assert any(p.startswith("1 tables without a numbered caption") for p in problems), problems
    assert any(p.endswith("in references.bib") for p in problems), problems


def test_a_figure_captioned_otherwise_than_in_paper_md_is_named(chromium, tmp_path):
    build = _scratch(tmp_path)
    html = (build / "paper.html").read_text()
    i = html.index("</figcaption>", re.search(r"<figcaption>Figure\s3:", html).start())
    (build / "paper.html").write_text(html[:i] + " (edited)" + html[i:])
    problems = browser.inspect(chromium, build / "paper.html").manuscript_problems()
    assert [p for p in problems if p.startswith("figure 3 ")], problems
